"""raind behind the site caching proxy (packaging/proxy/nginx, docs/DEPLOYMENT-PROXY.md).

Debian's nginx runs as an ordinary process with its own prefix, configuration
and temporary directories on loopback, in front of the fixture server; the
configuration is the shipped one with only its SITE: lines substituted. Twenty
raind instances (each its own directories and socket) ask for places in a few
0.01° grid cells at once, and the fixture server counts what reaches the
"provider": one request per cell, the Pirate Weather key added by the proxy and
sent by no client. With the provider down or failing, every instance still
gets the proxy's last copy, and reports its age.
"""
import gzip
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import http.client
from urllib.parse import parse_qs, urlsplit

import pytest

from raindtest import FIXTURES, ROOT, Daemon, FixtureServer, wait_for

PROXY_DIR = ROOT / "packaging" / "proxy" / "nginx"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
JS_MODULE = pathlib.Path("/usr/lib/nginx/modules/ngx_http_js_module.so")
KEY = "proxy-held-key-4711"
INSTANCES = 20
# The site's contact, and the User-Agent the proxy sends every provider with it.
SITE_CONTACT = "weather-admin@school.example"
VERSION_SOURCE = (ROOT / "Sources" / "RainCore" / "Version.swift").read_text()
VERSION = re.search(r'string = "([^"]+)"', VERSION_SOURCE).group(1)
PROJECT_URL = re.search(r'projectURL = "([^"]+)"', VERSION_SOURCE).group(1)
SITE_AGENT = f"raind-proxy/{VERSION} (+{PROJECT_URL}; {SITE_CONTACT})"
# A machine's own contact ([Provider] Contact=), which must not leave the site.
MACHINE_CONTACT = "pupil@example.org"
METNO_PATH = "/weatherapi/locationforecast/2.0/complete"

# Grid cells (0.01°) and places inside them: each instance has a home in one
# of three neighbouring cells and a town in one of two others, a few hundred
# metres from the other instances' (same cell, different coordinates), and
# the school, the same place for all.
HOME_CELLS = [(52.22, 6.89), (52.24, 6.85), (52.21, 6.91)]
TOWN_CELLS = [(52.26, 6.79), (52.30, 6.92)]
SCHOOL = (52.2793, 6.8801)


def nginx_available():
    """nginx and its njs module (Debian: nginx-light, libnginx-mod-http-js).
    scripts/test installs them; in CI their absence fails rather than skips."""
    missing = [str(p) for p in (pathlib.Path(NGINX), JS_MODULE) if not p.exists()]
    if missing:
        message = f"nginx for the proxy tests is missing ({', '.join(missing)}): apt-get install nginx-light libnginx-mod-http-js"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Proxy:
    """The shipped raind-proxy.conf in a private nginx on 127.0.0.1."""

    def __init__(self, base, upstream, rate="6000r/m", burst="burst=1000", contact=SITE_CONTACT, site=None):
        self.prefix = base / "nginx"
        for name in ("logs", "tmp", "cache", "state"):
            (self.prefix / name).mkdir(parents=True, exist_ok=True)
        # The upstream hop's socket: a short path (a socket's name has at most 107 bytes).
        self.socket_dir = pathlib.Path(tempfile.mkdtemp(prefix="raind-proxy-", dir="/tmp"))
        self.settings = {"upstream": upstream, "rate": rate, "burst": burst, "contact": contact or ""}
        # More SITE: lines, as a site would change them (shipped text: new text).
        self.site = site or {}
        # A port another test took between probing and binding: try another.
        for _ in range(3):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            if self.start():
                return
        raise AssertionError(f"nginx found no free port: {self.error}")

    def start(self):
        """Writes the configuration for self.port and starts nginx; False when the port was taken."""
        upstream, rate, burst = self.settings["upstream"], self.settings["rate"], self.settings["burst"]
        contact = self.settings["contact"]
        site = (PROXY_DIR / "raind-proxy.conf").read_text()
        # Only the SITE: lines change; each must be there exactly once, so the
        # test follows the shipped file and fails when it drifts.
        for old, new in {
            'default "YOUR-PIRATE-WEATHER-API-KEY";': f'default "{KEY}";',
            'default "https://api.open-meteo.com";': f'default "{upstream}";',
            'default "https://api.pirateweather.net";': f'default "{upstream}";',
            'default "https://api.met.no";': f'default "{upstream}";',
            'default "https://api.weather.gov";': f'default "{upstream}";',
            'default "https://api.brightsky.dev";': f'default "{upstream}";',
            'default "https://api.weather.gc.ca";': f'default "{upstream}";',
            'default "https://feeds.meteoalarm.org";': f'default "{upstream}";',
            'default "https://air-quality-api.open-meteo.com";': f'default "{upstream}";',
            '$raind_contact { default "";': f'$raind_contact {{ default "{contact}";',
            "proxy_cache_path /var/cache/nginx/raind": f"proxy_cache_path {self.prefix / 'cache'}",
            "rate=20r/m": f"rate={rate}",
            "burst=40": burst,
            "/etc/nginx/raind-proxy.js": str(PROXY_DIR / "raind-proxy.js"),
            "listen 8080;": f"listen 127.0.0.1:{self.port};",
            'map "" $raind_state_dir { default "/var/lib/raind-proxy"; }':
                f'map "" $raind_state_dir {{ default "{self.prefix / "state"}"; }}',
            "server unix:/run/raind-proxy.sock;": f"server unix:{self.socket_dir / 'up.sock'};",
            "listen unix:/run/raind-proxy.sock;": f"listen unix:{self.socket_dir / 'up.sock'};",
            "access_log /var/log/nginx/raind-upstream.log": f"access_log {self.prefix / 'logs' / 'upstream.log'}",
            **self.site,
        }.items():
            assert site.count(old) == 1, f"raind-proxy.conf no longer has {old!r} once"
            site = site.replace(old, new)
        (self.prefix / "raind-proxy.conf").write_text(site)
        temp = self.prefix / "tmp"
        # As root nginx would hand its workers to "nobody", who cannot enter
        # pytest's private directories; as anyone else it needs no user at all.
        user = "user root root;\n" if os.geteuid() == 0 else ""
        (self.prefix / "nginx.conf").write_text(f"""load_module {JS_MODULE};
{user}worker_processes 1;
pid {self.prefix / 'nginx.pid'};
error_log {self.prefix / 'logs' / 'error.log'} info;
events {{ worker_connections 1024; }}
http {{
    log_format raind '$status $upstream_cache_status "$request_uri"';
    access_log {self.prefix / 'logs' / 'access.log'} raind;
    client_body_temp_path {temp / 'body'};
    proxy_temp_path {temp / 'proxy'};
    fastcgi_temp_path {temp / 'fastcgi'};
    uwsgi_temp_path {temp / 'uwsgi'};
    scgi_temp_path {temp / 'scgi'};
    include {self.prefix / 'raind-proxy.conf'};
}}
""")
        command = [NGINX, "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf"),
                   "-e", str(self.prefix / "logs" / "error.log"), "-g", "daemon off;"]
        check = subprocess.run(command[:-2] + ["-t"], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, f"nginx -t refused the configuration:\n{check.stderr}"
        pid_file = self.prefix / "nginx.pid"
        pid_file.unlink(missing_ok=True)
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # nginx writes its pid file once its sockets are bound, or exits.
        wait_for(lambda: pid_file.exists() or self.process.poll() is not None, timeout=10,
                 what=f"nginx to listen on {self.url}")
        if self.process.poll() is None:
            return True
        self.error = self.process.stderr.read()
        self.process.stderr.close()
        assert "Address already in use" in self.error, f"nginx exited with {self.process.returncode}: {self.error}"
        return False

    def get(self, target, connection=None, method="GET", headers=None):
        """One request (a GET unless told): status, headers (lower-cased names), body."""
        own = connection is None
        connection = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, target, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        if own:
            connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body

    def access_log(self, at_least=0):
        """Each client request: (status, cache status, request URI). nginx
        writes a request's line just after its answer: `at_least` waits for
        the lines of answers already received."""
        path = self.prefix / "logs" / "access.log"
        wait_for(lambda: len(path.read_text().splitlines()) >= at_least, timeout=10,
                 what=f"{at_least} lines in nginx's access log")
        lines = path.read_text().splitlines()
        return [(line.split(" ", 2)[0], line.split(" ", 2)[1], line.split('"')[1]) for line in lines]

    def upstream_log(self):
        """Each request the upstream hop had: (provider, request URI, status, provider's status, refused)."""
        path = self.prefix / "logs" / "upstream.log"
        entries = []
        for line in path.read_text().splitlines() if path.exists() else []:
            fields = line.split(" ")
            entries.append((fields[1], line.split('"')[1], fields[-4], fields[-3], fields[-1]))
        return entries

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process.stderr.close()
        shutil.rmtree(self.socket_dir, ignore_errors=True)


@pytest.fixture
def upstream():
    server = FixtureServer(routes=[
        ("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"),
        ("/forecast/", "pirateweather-forecast-boston-si.json"),
        (METNO_PATH, "metno-forecast-oslo-dst.json"),
        ("/points/", "nws-lookup-sumatra-fl.json"),
        ("/gridpoints/TAE/58,65/forecast/hourly", "nws-forecast-sumatra-fl.1-hourly.json"),
        ("/gridpoints/TAE/58,65/forecast", "nws-forecast-sumatra-fl.3-periods.json"),
        ("/gridpoints/", "nws-forecast-sumatra-fl.2-grid.json"),
        ("/weather", "brightsky-forecast-berlin-8-days.1-weather.json"),
        ("/current_weather", "brightsky-forecast-berlin-8-days.2-current.json"),
        ("/alerts/active", "alerts/nws-alerts-point-update.json"),
        ("/alerts", "alerts/brightsky-alerts-berlin-mitte.json"),
        ("/weatherapi/metalerts/2.0/current.json", "alerts/metalerts-current-norway.json"),
        ("/collections/weather-alerts/items", "alerts/eccc-weather-alerts-toronto-bbox.json"),
        ("/feeds/", "alerts/meteoalarm-atom-france.xml"),
        ("/v1/air-quality", "openmeteo-airquality-paris-poor.json"),
    ])
    # Pirate Weather's own lifetime for a forecast (Open-Meteo sends none).
    server.script(path_prefix="/forecast/", max_age=900, count=-1)
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.fixture
def proxy(tmp_path, upstream):
    nginx_available()
    proxies = []

    def make(**kwargs):
        started = Proxy(tmp_path, upstream.url, **kwargs)
        proxies.append(started)
        return started

    yield make
    for started in proxies:
        started.stop()


@pytest.fixture
def fleet(tmp_path):
    """raind instances pointed at the proxy, each with its own directories and socket."""
    daemons = []

    def make(count, proxy, provider, extra=""):
        config = (f"[Provider]\nName={provider}\nBaseURL={proxy.url}\nProxy=yes\nTimeoutSec=20\n{extra}"
                  "[Places]\nOnlineGeocoder=no\n")
        started = [Daemon(tmp_path / f"raind-{len(daemons) + i:02d}", config=config) for i in range(count)]
        daemons.extend(started)
        for daemon in started:
            daemon.start(wait=False)
        for daemon in started:
            wait_for(daemon.answers, timeout=20, what=f"raind to answer ({daemon.read_log()})")
        return started

    yield make
    for daemon in daemons:
        if daemon.process and daemon.process.poll() is None:
            daemon.stop(sig=9)
        if getattr(daemon, "log", None) and not daemon.log.closed:
            daemon.log.close()


def jittered(cell, index):
    """A place inside `cell`, different for each index (within ±0.004°)."""
    latitude, longitude = cell
    step = (index % 5 - 2) * 0.0017
    return round(latitude + step, 4), round(longitude - step, 4)


def cell_of(latitude, longitude):
    return (round(latitude, 2), round(longitude, 2))


def upstream_cells(upstream, provider):
    """Requests that reached the provider, by grid cell; and the key each carried."""
    cells, keys = {}, set()
    for target, count in upstream.stats()["targets"].items():
        parts = urlsplit(target)
        if provider == "open-meteo" and parts.path == "/v1/forecast":
            query = parse_qs(parts.query)
            cell = (float(query["latitude"][0]), float(query["longitude"][0]))
        elif provider == "pirateweather" and parts.path.startswith("/forecast/"):
            segments = parts.path.split("/")
            keys.add(segments[2] if len(segments) == 4 else None)
            cell = tuple(float(x) for x in segments[-1].split(","))
        else:
            continue
        cells[cell] = cells.get(cell, 0) + count
    return cells, keys


def storm(daemons, work):
    """Runs work(index, daemon) for every daemon at once; re-raises the first failure."""
    barrier = threading.Barrier(len(daemons))
    errors = []

    def run(index, daemon):
        try:
            barrier.wait(timeout=30)
            work(index, daemon)
        except BaseException as error:  # noqa: BLE001 - reported in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, d)) for i, d in enumerate(daemons)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a refresh never answered"
    if errors:
        raise errors[0]


@pytest.mark.parametrize("provider", ["open-meteo", "pirateweather"])
def test_refresh_storm_of_twenty_machines_costs_one_upstream_request_per_grid_cell(proxy, upstream, fleet, provider):
    site = proxy()
    daemons = fleet(INSTANCES, site, provider)
    places = {}

    def refresh_all(client, ids):
        """The storm: a machine refreshes everything, three times over."""
        for _ in range(3):
            reply = client.call("Refresh", {"all": True})
            assert "error" not in reply, reply
            assert sorted(reply["parameters"]["updated"]) == sorted(ids), reply
        for place_id in ids:
            forecast = client.call("GetForecast", {"id": place_id})["parameters"]
            assert forecast["forecast"]["provider"] == provider and forecast["stale"] is False, forecast
            assert forecast["ageSeconds"] < 600, forecast
            # The lifetime the proxy gave (15 minutes either way), less the copy's Age.
            expires = forecast["forecast"]["expiresAt"]
            assert expires is not None and time.time() < expires <= time.time() + 900 - forecast["ageSeconds"] + 5, forecast

    def add_and_refresh(index, daemon):
        client = daemon.client()
        home = jittered(HOME_CELLS[index % len(HOME_CELLS)], index)
        town = jittered(TOWN_CELLS[index % len(TOWN_CELLS)], index + 1)
        ids = []
        for name, (latitude, longitude) in (("Home", home), ("Town", town), ("School", SCHOOL)):
            reply = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": f"{name} {index}"})
            ids.append(reply["parameters"]["location"]["id"])
        places[index] = [home, town, SCHOOL]
        refresh_all(client, ids)
        client.close()

    storm(daemons, add_and_refresh)

    # Then every machine starts again with its cache gone (reinstalled, or
    # its disk replaced), and the storm repeats: the proxy answers it all.
    for daemon in daemons:
        daemon.stop()
        shutil.rmtree(daemon.cache_home)
        daemon.cache_home.mkdir()
    for daemon in daemons:
        daemon.start(wait=False)
    for daemon in daemons:
        wait_for(daemon.answers, timeout=20, what=f"raind to answer again ({daemon.read_log()})")

    def refresh_again(index, daemon):
        client = daemon.client()
        ids = [location["id"] for location in client.call("ListLocations")["parameters"]["locations"]]
        assert len(ids) == 3, ids
        refresh_all(client, ids)
        client.close()

    storm(daemons, refresh_again)

    expected = {cell_of(*place) for triple in places.values() for place in triple}
    assert len(expected) == len(HOME_CELLS) + len(TOWN_CELLS) + 1
    distinct = {place for triple in places.values() for place in triple}
    assert len(distinct) > len(expected), "several places per cell"
    cells, keys = upstream_cells(upstream, provider)
    assert cells == {cell: 1 for cell in expected}, f"upstream requests by grid cell: {cells}"

    log = site.access_log(at_least=2 * 3 * INSTANCES)
    client_requests = [entry for entry in log if entry[2].startswith(("/v1/forecast", "/forecast/"))]
    assert len(client_requests) >= 2 * 3 * INSTANCES and all(entry[0] == "200" for entry in client_requests), log
    assert sum(entry[1] == "MISS" for entry in client_requests) == len(expected), log
    if provider == "pirateweather":
        assert keys == {KEY}, f"the provider saw keys {keys}: the proxy adds its own to every request"
        assert all(entry[2].count("/") == 2 for entry in client_requests), f"a client sent a key: {log}"
    print(f"\n{provider}: {len(client_requests)} client requests from {INSTANCES} raind instances "
          f"({len(distinct)} distinct places in {len(expected)} grid cells, two storms) -> "
          f"{sum(cells.values())} upstream requests for {len(expected)} grid cells: {sorted(cells.items())}")


@pytest.mark.parametrize("provider,failure", [("open-meteo", "stopped"), ("pirateweather", "500")])
def test_provider_down_every_machine_gets_the_proxys_stale_copy_with_its_age(proxy, upstream, fleet, provider, failure):
    site = proxy()
    daemons = fleet(INSTANCES, site, provider)
    path = "/v1/forecast" if provider == "open-meteo" else "/forecast/"
    home = HOME_CELLS[0]
    # The proxy's copy: made by the provider two hours ago (its Date) and
    # expired at once (X-Accel-Expires: @1, nginx's own lifetime header), so no
    # test has to wait out a cache lifetime.
    two_hours = 7200
    upstream.reset()
    upstream.script(path_prefix=path, headers={"X-Accel-Expires": "@1"}, date_offset=two_hours, count=-1,
                    **({"max_age": 900} if provider == "pirateweather" else {}))

    def add_and_refresh(index, daemon):
        client = daemon.client()
        latitude, longitude = jittered(home, index)
        place = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": f"Home {index}"})
        place_id = place["parameters"]["location"]["id"]
        reply = client.call("Refresh", {"id": place_id})
        assert "error" not in reply and reply["parameters"]["updated"] == [place_id], reply
        forecast = client.call("GetForecast", {"id": place_id})["parameters"]
        client.close()
        assert forecast["forecast"]["provider"] == provider, forecast
        # The proxy's Age is the data's age, and data that old is stale.
        assert two_hours <= forecast["ageSeconds"] < two_hours + 600, forecast
        assert forecast["stale"] is True, forecast
        # Older than its max-age: no freshness left (and no request at once either).
        assert forecast["forecast"]["expiresAt"] <= time.time() + 1, forecast

    # One machine fills the proxy's cache while the provider answers.
    add_and_refresh(0, daemons[0])
    [(status, cached, target)] = site.access_log(at_least=1)
    assert (status, cached) == ("200", "MISS")

    if failure == "stopped":
        upstream.stop()
    else:
        upstream.reset()
        upstream.script(path_prefix=path, mode="status", status=500, count=-1)
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "STALE", headers
    assert int(headers["age"]) >= two_hours and headers["cache-control"] == "max-age=900", headers

    # Every machine gets that copy (the first one has it already: its Refresh,
    # within a minute of the copy's arrival, is answered from its own cache).
    before = len(site.access_log(at_least=2))
    storm(daemons, add_and_refresh)
    # UPDATING: another request was trying the provider at that moment.
    served = site.access_log(at_least=before + INSTANCES - 1)[before:]
    assert len(served) == INSTANCES - 1, served
    assert all(entry[0] == "200" and entry[1] in ("STALE", "UPDATING") for entry in served), served
    if failure == "500":
        assert upstream.count(path) >= 1, "the proxy did try the provider"

    # A person's refreshes right after stay on the machine, although the data
    # is two hours old: it arrived just now, and asking again gets the same.
    storm(daemons, lambda index, daemon: [daemon.client().call("Refresh", {"all": True}) for _ in range(3)])
    assert len(site.access_log()) == before + INSTANCES - 1, site.access_log()[before:]
    assert {entry[2] for entry in served} == {target}, "one grid cell, one question"


def test_a_machine_past_its_rate_gets_429_with_retry_after(proxy, upstream):
    site = proxy(rate="20r/m", burst="burst=40")  # the shipped limits
    connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    answers = [site.get("/v1/forecast?latitude=52.22&longitude=6.89", connection) for _ in range(60)]
    connection.close()
    refused = [headers for status, headers, _ in answers if status == 429]
    passed = [status for status, _, _ in answers if status == 200]
    # The burst passes (plus what the rate refilled meanwhile); the rest waits.
    assert 40 <= len(passed) < 60 and refused, [status for status, _, _ in answers]
    assert all(headers["retry-after"] == "60" for headers in refused), refused
    assert upstream.count("/v1/forecast") == 1, "the passed ones were one cache entry"


def test_a_client_sending_its_own_key_is_refused_and_nothing_goes_upstream(proxy, upstream):
    site = proxy()
    status, _, body = site.get("/forecast/client-key/52.22,6.89?units=si")
    assert status == 404 and b"Proxy=yes" in body, body
    status, _, _ = site.get("/v2/anything")
    assert status == 404
    assert upstream.stats()["total"] == 0


# The national services, each as the fake upstream answers for it: a grid cell
# of a place it covers, the headers its answers carry, and the lifetime raind
# must be given from them.
NATIONAL = {
    # MET Norway: Expires and Last-Modified, no ETag, the body gzipped.
    "metno": {"cell": (59.91, 10.75), "lifetime": 2820,
              "script": {"headers": {"ETag": ""}, "expires": 2820, "mode": "gzip"}},
    # The NWS: Cache-Control for clients and for shared caches, Expires = Date + max-age.
    "nws": {"cell": (30.0, -85.0), "lifetime": 2820,
            "script": {"headers": {"Cache-Control": "public, max-age=2820, s-maxage=3600"}, "expires": 2820}},
    # Bright Sky: no lifetime at all; the proxy gives its own (30 minutes for /weather).
    "brightsky": {"cell": (52.52, 13.41), "lifetime": 1800,
                  "script": {"headers": {"ETag": "", "Last-Modified": ""}}},
}


def finer(target):
    """`target` as another program might ask it: the coordinates (the query's
    lat and lon, or those of /points/) with four decimals, inside the same
    0.01° cell."""
    def longer(degrees):
        return degrees + ("049" if "." in degrees else ".0049")
    if target.startswith("/points/"):
        latitude, longitude = target[len("/points/"):].split(",")
        return f"/points/{longer(latitude)},{longer(longitude)}"
    return re.sub(r"(?<=[?&])(lat|lon)=([^&]+)", lambda m: f"{m.group(1)}={longer(m.group(2))}", target)


@pytest.mark.parametrize("provider", list(NATIONAL))
def test_national_service_through_the_proxy_second_machine_from_the_cache(proxy, upstream, fleet, provider):
    spec = NATIONAL[provider]
    site = proxy()
    upstream.script(path_prefix="/", count=-1, **spec["script"])
    first, second = fleet(2, site, provider, extra=f"Contact={MACHINE_CONTACT}\n")

    def refresh(index, daemon):
        client = daemon.client()
        latitude, longitude = jittered(spec["cell"], index)
        place = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": f"Place {index}"})
        place_id = place["parameters"]["location"]["id"]
        reply = client.call("Refresh", {"id": place_id})
        assert "error" not in reply and reply["parameters"]["updated"] == [place_id], (reply, daemon.read_log())
        forecast = client.call("GetForecast", {"id": place_id})["parameters"]
        client.close()
        assert forecast["forecast"]["provider"] == provider and forecast["stale"] is False, forecast
        assert forecast["ageSeconds"] < 60, forecast
        # The provider's lifetime (or the proxy's own), less the copy's Age.
        lifetime = spec["lifetime"] - forecast["ageSeconds"]
        expires = forecast["forecast"]["expiresAt"]
        assert time.time() + lifetime - 30 < expires <= time.time() + lifetime + 5, forecast
        return forecast

    refresh(0, first)
    asked = upstream.stats()
    targets = asked["targets"]
    log = site.access_log(at_least=len(targets))
    assert [entry[1] for entry in log] == ["MISS"] * len(targets), log
    # The provider saw each question once, with the cell's coordinates as raind writes them.
    assert all(count == 1 for count in targets.values()), targets
    if provider == "metno":
        assert list(targets) == [f"{METNO_PATH}?lat=59.91&lon=10.75"], targets
    elif provider == "nws":
        assert sorted(targets) == ["/gridpoints/TAE/58,65", "/gridpoints/TAE/58,65/forecast",
                                   "/gridpoints/TAE/58,65/forecast/hourly", "/points/30,-85"], targets
    else:
        assert sorted(urlsplit(target).path for target in targets) == ["/current_weather", "/weather"], targets
        assert all(target.split("?")[1].startswith("lat=52.52&lon=13.41&") and target.endswith("&units=dwd")
                   for target in targets), targets
    # What the provider saw of the request is the site's, none of the machine's.
    for path, headers in asked["last_headers"].items():
        assert headers["user-agent"] == SITE_AGENT, (path, headers)
        assert headers["accept-encoding"] == "gzip", (path, headers)
        assert headers["accept"] == ("application/geo+json" if provider == "nws" else "application/json"), headers
        assert MACHINE_CONTACT not in json.dumps(headers) and "x-forwarded-for" not in headers, headers

    # The second machine, asking for another place in the same cell, is
    # answered from the cache; so is another program with finer coordinates.
    refresh(1, second)
    for target in targets:
        status, headers, body = site.get(finer(target))
        assert status == 200 and headers["x-cache-status"] == "HIT", (finer(target), status, headers, body)
        # A client that does not take gzip gets the provider's JSON unpacked.
        assert "content-encoding" not in headers and json.loads(body), headers
        if provider == "metno":
            # The fixture server moves the recording's times to the present,
            # so the copy is the recording's document with other instants.
            recorded = json.loads((FIXTURES / "metno-forecast-oslo-dst.json").read_bytes())
            served = json.loads(body)
            assert served["geometry"] == recorded["geometry"], served["geometry"]
            assert len(served["properties"]["timeseries"]) == len(recorded["properties"]["timeseries"])
            assert headers["cache-control"] == "max-age=2820" and "expires" not in headers, headers
            assert headers["last-modified"], headers
        elif provider == "nws":
            assert headers["cache-control"] == "public, max-age=2820, s-maxage=3600", headers
        else:
            lifetime = 1800 if urlsplit(target).path == "/weather" else 600
            assert headers["cache-control"] == f"max-age={lifetime}", headers
        assert 0 <= int(headers["age"]) < 60, headers
        # As `curl -sI` asks (docs/DEPLOYMENT-PROXY.md, "Checking it").
        status, headers, _ = site.get(target, method="HEAD")
        assert status == 200 and headers["x-cache-status"] == "HIT", headers
    assert upstream.stats()["targets"] == targets, "the second machine's questions reached the provider"
    log = site.access_log(at_least=4 * len(targets))
    assert [entry[1] for entry in log[len(targets):]] == ["HIT"] * 3 * len(targets), log


def test_metno_copy_past_its_expires_is_revalidated_with_if_modified_since(proxy, upstream, fleet):
    site = proxy()
    target = f"{METNO_PATH}?lat=59.91&lon=10.75"
    # The first answer: made two hours ago, expired 90 minutes ago (its
    # Expires, 30 minutes after its Date); nginx keeps it, expired at once
    # (X-Accel-Expires: @1), so no test waits out a lifetime. Then the
    # provider answers what MET Norway answers: 304 with a new Expires.
    upstream.script(path_prefix=METNO_PATH, headers={"ETag": "", "X-Accel-Expires": "@1"}, date_offset=7200,
                    expires=1800)
    upstream.script(path_prefix=METNO_PATH, headers={"ETag": ""}, expires=1800, count=-1)
    status, first, body = site.get(target)
    assert status == 200 and first["x-cache-status"] == "MISS" and int(first["age"]) >= 7200, first
    assert first["cache-control"] == "max-age=1800", first

    # Expired: the copy is answered at once (STALE) while the provider is
    # asked in the background, so no machine waits for the provider.
    status, headers, again = site.get(target)
    assert status == 200 and again == body and headers["x-cache-status"] == "STALE", headers
    wait_for(lambda: upstream.count(METNO_PATH) == 2, timeout=10, what="the background revalidation")
    asked = upstream.stats()["last_headers"][METNO_PATH]
    assert asked["if-modified-since"] == first["last-modified"] and "if-none-match" not in asked, asked
    assert asked["user-agent"] == SITE_AGENT, asked
    log = wait_for(lambda: [entry for entry in site.upstream_log() if entry[2] == "304"], timeout=10,
                   what="the provider's 304 in the upstream hop's log")
    assert log == [("metno", target, "304", "304", "")], site.upstream_log()

    # Then from the renewed copy: young, although its first Date is two hours old.
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "HIT" and int(headers["age"]) < 60, headers
    assert headers["cache-control"] == "max-age=1800", headers
    # A client that has the copy asks with its Last-Modified and gets 304, with Age.
    status, headers, _ = site.get(target, headers={"If-Modified-Since": first["last-modified"]})
    assert status == 304 and int(headers["age"]) < 60 and headers["cache-control"] == "max-age=1800", headers
    assert upstream.count(METNO_PATH) == 2

    [daemon] = fleet(1, site, "metno")
    client = daemon.client()
    place = client.call("AddLocation", {"latitude": 59.9139, "longitude": 10.7522, "name": "Oslo"})
    place_id = place["parameters"]["location"]["id"]
    assert "error" not in client.call("Refresh", {"id": place_id})
    forecast = client.call("GetForecast", {"id": place_id})["parameters"]
    client.close()
    assert forecast["ageSeconds"] < 60 and forecast["stale"] is False, forecast
    assert time.time() + 1800 - 90 < forecast["forecast"]["expiresAt"] <= time.time() + 1800 + 5, forecast
    assert upstream.count(METNO_PATH) == 2, "raind's refresh was answered from the cache"


@pytest.mark.parametrize("target,script,kept,cache_control", [
    # MET Norway's Expires already past: not kept.
    (f"{METNO_PATH}?lat=59.91&lon=10.75", {"headers": {"ETag": ""}, "expires": -60}, False, "max-age=0"),
    # The NWS saying no shared cache may keep it.
    ("/gridpoints/TAE/58,65/forecast", {"headers": {"Cache-Control": "public, max-age=0, s-maxage=0"}}, False,
     "public, max-age=0, s-maxage=0"),
    # Bright Sky sends none: the proxy's own ten minutes for current conditions...
    ("/current_weather?lat=52.52&lon=13.41&tz=Europe%2FBerlin&units=dwd", {}, True, "max-age=600"),
    # ...unless it does send one, which wins.
    ("/current_weather?lat=52.52&lon=13.41&tz=Europe%2FBerlin&units=dwd", {"max_age": 120}, True, "max-age=120"),
])
def test_the_proxy_keeps_a_copy_as_long_as_the_provider_says(proxy, upstream, target, script, kept, cache_control):
    site = proxy()
    upstream.script(path_prefix="/", count=-1, **script)
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "MISS", headers
    assert headers["cache-control"] == cache_control, headers
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == ("HIT" if kept else "MISS"), headers
    assert upstream.stats()["total"] == (1 if kept else 2)


@pytest.mark.parametrize("method,target,status", [
    # MET Norway: lat and lon in degrees, nothing else, only the complete forecast.
    ("GET", f"{METNO_PATH}?lat=59.91", 400),
    ("GET", f"{METNO_PATH}?lat=59.91&lon=10.75&altitude=20", 400),
    ("GET", f"{METNO_PATH}?lat=59.91&lat=59.92&lon=10.75", 400),
    ("GET", f"{METNO_PATH}?lat=91&lon=10.75", 400),
    ("GET", f"{METNO_PATH}?lat=59.91&lon=1e1", 400),
    ("GET", f"{METNO_PATH}?lat=59.91&lon=%31", 400),
    ("GET", "/weatherapi/locationforecast/2.0/compact?lat=59.91&lon=10.75", 404),
    ("GET", "/weatherapi/nowcast/2.0/complete?lat=59.91&lon=10.75", 404),
    # The NWS: the lookup and the grid cell's three answers, no query.
    ("GET", "/points/30,-85?units=si", 400),
    ("GET", "/points/30,-185", 400),
    ("GET", "/points/30", 400),
    ("GET", "/points/abc,def", 400),
    ("GET", "/gridpoints/tae/58,65", 400),
    ("GET", "/gridpoints/TAE/58,65/stations", 400),
    ("GET", "/gridpoints/TAE/58,99999", 400),
    ("GET", "/gridpoints/TAE/58,65/forecast?units=si", 400),
    # The NWS alerts are served for a point only (issue 32 routed them: 404 before).
    ("GET", "/alerts/active?area=FL", 400),
    # Bright Sky: raind's two questions, every parameter once, units=dwd.
    ("GET", "/weather?lat=52.52&lon=13.41", 400),
    ("GET", "/weather?lat=52.52&lon=13.41&date=2026-12-01&last_date=2026-12-12&tz=UTC&units=si", 400),
    ("GET", "/weather?lat=52.52&lon=13.41&date=2026-13-01&last_date=2026-12-12&tz=UTC&units=dwd", 400),
    ("GET", "/weather?lat=52.52&lon=13.41&date=2026-12-01&last_date=2026-12-12&tz=..%2F..%2Fetc&units=dwd", 400),
    ("GET", "/weather?lat=52.52&lon=13.41&date=2026-12-01&last_date=2026-12-12&tz=UTC&units=dwd&max_dist=1", 400),
    ("GET", "/current_weather?lat=52.52&lon=13.41&date=2026-12-01&tz=UTC&units=dwd", 400),
    ("GET", "/radar?lat=52.52&lon=13.41", 404),
    # Only reading.
    ("POST", "/points/30,-85", 405),
    ("PUT", f"{METNO_PATH}?lat=59.91&lon=10.75", 405),
    ("DELETE", "/v1/forecast?latitude=52.22&longitude=6.89", 405),
])
def test_requests_outside_the_allowed_set_are_refused_and_nothing_goes_upstream(proxy, upstream, method, target,
                                                                               status):
    site = proxy()
    answer, headers, body = site.get(target, method=method)
    assert answer == status, (answer, body)
    assert json.loads(body)["error"], body
    if status == 405:
        assert headers["allow"] == "GET, HEAD", headers
    assert upstream.stats()["total"] == 0


def test_without_a_site_contact_the_user_agent_names_the_project(proxy, upstream):
    site = proxy(contact=None)
    status, _, _ = site.get("/points/30,-85")
    assert status == 200
    assert upstream.stats()["last_headers"]["/points/30,-85"]["user-agent"] == f"raind-proxy/{VERSION} (+{PROJECT_URL})"


def test_name_auto_sends_each_place_to_its_national_service_through_one_proxy(proxy, upstream, fleet):
    site = proxy()
    [daemon] = fleet(1, site, "auto")
    client = daemon.client()
    # What each place's own national service is asked first (Bright Sky's
    # two requests go out together, in either order).
    first_paths = {"metno": {METNO_PATH}, "nws": {"/points/30,-85"}, "brightsky": {"/weather", "/current_weather"}}
    for provider, spec in NATIONAL.items():
        before = len(site.access_log())
        latitude, longitude = spec["cell"]
        place = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": provider})
        place_id = place["parameters"]["location"]["id"]
        assert "error" not in client.call("Refresh", {"id": place_id})
        forecast = client.call("GetForecast", {"id": place_id})["parameters"]["forecast"]
        assert forecast["provider"] == provider, forecast
        # The place's own national service is asked first, through the one BaseURL=, and answers.
        count = len(first_paths[provider])
        asked = site.access_log(at_least=before + count)[before:]
        assert {urlsplit(entry[2]).path for entry in asked[:count]} == first_paths[provider], (provider, asked)
        assert all(entry[0] == "200" for entry in asked), (provider, asked)
    client.close()
    paths = upstream.stats()["paths"]
    assert paths[METNO_PATH] >= 1 and paths["/points/30,-85"] == 1 and paths["/weather"] == 1, paths
    assert all(entry[0] == "200" for entry in site.access_log()), site.access_log()


# What a provider can send back that must never reach a machine: the key
# echoed in an error's body, its reason phrase, its headers or a redirect's
# Location, at every status a provider answers with.
ECHO_STATUSES = [200, 301, 302, 400, 401, 403, 404, 429, 500, 502, 503]


def answers_checked_for_the_key(site, upstream, places):
    """Asks for every place (a format with {} for a cell's hundredths) once
    per scripted answer, each in a cell of its own; returns each answer as
    (target, status, reason, headers, body) for the caller to search, and
    the requests that reached the provider."""
    seen, asked = [], []
    for place in places:
        for index, status in enumerate(ECHO_STATUSES):
            target = place.format(f"{index:02d}")
            asked += list(upstream.stats()["targets"])
            upstream.reset()
            if status in (301, 302):
                upstream.script(path_prefix="/", mode="redirect", hops=1, count=-1)
            else:
                upstream.script(path_prefix="/", mode="echo", status=status, count=-1)
            # A fresh entry each time: the back-off of a failed one would keep the provider from being asked.
            for name in os.listdir(site.prefix / "state"):
                os.unlink(site.prefix / "state" / name)
            connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=20)
            for method in ("GET", "HEAD"):
                connection.request(method, target, headers={"Accept-Encoding": "gzip"})
                response = connection.getresponse()
                body = response.read()
                if response.getheader("Content-Encoding") == "gzip" and body:
                    body = gzip.decompress(body)
                seen.append((target, response.status, response.reason, response.getheaders(), body))
            connection.close()
    return seen, asked + list(upstream.stats()["targets"])


def test_the_key_never_goes_back_nor_into_a_log(proxy, upstream):
    site = proxy()
    targets = ["/forecast/52.{},6.89?units=si", "/forecast/40.{},-74.01", "/forecast/-33.{},151.21?units=ca"]
    seen, asked = answers_checked_for_the_key(site, upstream, targets)
    # The provider was asked, with the key, for every place and answer.
    assert len(asked) == len(targets) * len(ECHO_STATUSES), asked
    assert all(f"/forecast/{KEY}/" in target for target in asked), asked
    leaks = [(target, status) for target, status, reason, headers, body in seen
             if KEY in reason or KEY in json.dumps(headers) or KEY.encode() in body]
    assert not leaks, leaks
    # A redirect is not followed nor passed on; an error's body is the proxy's own text.
    for target, status, _, headers, body in seen:
        names = {name.lower() for name, _ in headers}
        assert "location" not in names and "x-echo" not in names, (target, status, headers)
        if status not in (200, 304) and body:
            assert set(json.loads(body)) == {"error"} and b"/forecast" not in body, (target, status, body)
    # The provider down, hanging, and answering: nginx's logs never hold the key.
    upstream.reset()
    upstream.script(path_prefix="/", mode="stall", delay=30, count=-1)
    for name in os.listdir(site.prefix / "state"):
        os.unlink(site.prefix / "state" / name)
    status, _, _ = site.get("/forecast/1.23,4.56?units=si")
    assert status == 504, status
    upstream.stop()
    status, _, _ = site.get("/forecast/1.24,4.56?units=si")
    assert status == 502, status
    site.stop()
    logs = {name: (site.prefix / "logs" / name).read_text() for name in os.listdir(site.prefix / "logs")}
    assert "upstream.log" in logs and "error.log" in logs, logs.keys()
    assert not [name for name, text in logs.items() if KEY in text], "the key is in nginx's logs"
    print(f"\nkey leaks: {len(seen)} answers checked (statuses {ECHO_STATUSES}, GET and HEAD, "
          f"{len(targets)} places), {len(leaks)} with the key; {len(logs)} log files, 0 with the key")


# What [Alerts] BaseURL= and [Air] BaseURL= send when they name the proxy,
# as raind writes it (docs/ALERTS.md, docs/AIR.md).
ALERT_AND_AIR_TARGETS = [
    ("nws", "/alerts/active?point=45.46,-123.84"),
    ("brightsky", "/alerts?lat=52.52&lon=13.40&tz=Europe%2FBerlin"),
    ("metno", "/weatherapi/metalerts/2.0/current.json?lat=59.91&lon=10.75&lang=en"),
    ("eccc", "/collections/weather-alerts/items?f=json&bbox=-79.50,43.55,-79.30,43.75&lang=en&limit=500"),
    ("meteoalarm", "/feeds/meteoalarm-legacy-atom-france"),
    ("open-meteo-air", "/v1/air-quality?latitude=48.85&longitude=2.35&current=european_aqi,uv_index"
                       "&hourly=european_aqi,pm2_5&forecast_hours=48&timezone=auto&timeformat=unixtime"),
]


def test_alert_and_air_paths_reach_their_services_once(proxy, upstream):
    site = proxy()
    for provider, target in ALERT_AND_AIR_TARGETS:
        first = site.get(target)
        again = site.get(target)
        assert first[0] == 200 and again[0] == 200, (provider, first[0], first[2][:200])
        assert again[1]["x-cache-status"] == "HIT", (provider, again[1])
        assert first[2] == again[2]
    asked = list(upstream.stats()["targets"])
    assert sorted(asked) == sorted(target for _, target in ALERT_AND_AIR_TARGETS), asked
    upstream_log = site.upstream_log()
    assert sorted(entry[0] for entry in upstream_log) == sorted(p for p, _ in ALERT_AND_AIR_TARGETS), upstream_log
    # Anything else on those paths is refused, and nothing goes upstream.
    for target in ["/alerts/active?point=45.46,-123.84&x=1", "/alerts/active?area=OR",
                   "/feeds/meteoalarm-legacy-atom-france?x=1", "/v1/air-quality?latitude=1&longitude=2",
                   "/collections/weather-alerts/items?f=json&bbox=1,2,3,4&lang=de&limit=5"]:
        assert site.get(target)[0] == 400, target
    assert len(upstream.stats()["targets"]) == len(asked)


def test_a_flood_of_distinct_national_requests_is_paced(proxy, upstream):
    site = proxy()
    answers = [site.get(f"/weatherapi/metalerts/2.0/current.json?lat=59.{n:02d}&lon=10.75&lang=en")
               for n in range(80)]
    asked = [t for t in upstream.stats()["targets"] if "metalerts" in t]
    # 30 at once, then one a second: the test's few seconds allow a few more.
    assert 30 <= len(asked) <= 40, len(asked)
    paced = [headers for status, headers, _ in answers if status == 503]
    assert len(paced) == 80 - len(asked), [status for status, _, _ in answers]
    assert all(h.get("retry-after") == "60" and h.get("x-raind-proxy-refused") == "pace" for h in paced), paced[:1]


# The key spelt otherwise in a 200 answer of the expected type: the body
# gzipped with no Content-Encoding, written as JSON \\u escapes, in base64
# (at three alignments), hex, percent-encoding.
ECHO_ENCODINGS = ["gzip", "unicode", "base64", "hex", "percent"]


@pytest.mark.parametrize("encoding", ECHO_ENCODINGS)
def test_the_key_spelt_otherwise_never_goes_back(proxy, upstream, encoding):
    site = proxy()
    upstream.reset()
    upstream.script(path_prefix="/", mode="echo", status=200, encoding=encoding, count=-1)
    status, headers, body = site.get("/forecast/52.22,6.89?units=si", headers={"Accept-Encoding": "identity"})
    assert [t for t in upstream.stats()["targets"] if f"/forecast/{KEY}/" in t], "the provider was asked, with the key"
    import base64 as b64
    spellings = [KEY.encode(), KEY.encode().hex().encode(), "".join("%%%02X" % b for b in KEY.encode()).encode()]
    spellings += [b64.b64encode((lead + KEY).encode())[4 if lead else 0:-4] for lead in ("", "x", "xy")]
    text = body.lower()
    leaks = [s for s in spellings if s.lower() in text or s in body]
    assert not leaks, (encoding, status, body[:300])
    if encoding == "gzip":
        # Not plain JSON: refused, the proxy's own text, never cached.
        assert set(json.loads(body)) == {"error"} and headers.get("cache-control") == "no-store", (status, body)
    else:
        # Plain JSON: passed on, written anew, the key masked wherever it is spelt.
        assert "*" * 8 in body.decode(), body[:300]
    assert not [v for v in headers.values() if KEY.lower() in v.lower()], headers


@pytest.mark.parametrize("name,script,cached_status", [
    # A provider's error with a lifetime: never a HIT for the next machine.
    ("500 with max-age=600", {"mode": "status", "status": 500, "headers": {"Cache-Control": "max-age=600"}}, 500),
    ("404 with Expires in 2037", {"mode": "status", "status": 404,
                                  "headers": {"Expires": "Thu, 01 Jan 2037 00:00:00 GMT"}}, 404),
    # A captive portal's (or a login page's) HTML with 200.
    ("an HTML page with 200", {"mode": "malformed", "headers": {"Content-Type": "text/html",
                                                                "Cache-Control": "max-age=600"}}, 200),
])
def test_errors_and_web_pages_are_never_cached_for_the_next_machine(proxy, upstream, name, script, cached_status):
    site = proxy()
    upstream.script(path_prefix="/v1/forecast", count=-1, **script)
    target = "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m"
    answers = [site.get(target) for _ in range(3)]
    statuses = [(status, headers["x-cache-status"]) for status, headers, _ in answers]
    assert all(cache != "HIT" for _, cache in statuses), (name, statuses)
    status, headers, body = answers[0]
    assert status == cached_status and headers.get("cache-control", "no-store") != "max-age=600", (name, headers)
    if cached_status == 200:
        # The page is the proxy's own short text, so raind says the provider answered with a web page.
        assert headers["content-type"].startswith("text/html") and b"web page" in body, body
        assert b"Service temporarily unavailable" not in body, body
    else:
        assert b"fixture status" not in body and json.loads(body)["error"], body
    if cached_status == 500:
        # A failure: one attempt, then the back-off answers without asking.
        assert upstream.count("/v1/forecast") == 1, upstream.stats()
        assert [h["x-raind-proxy-refused"] for _, h, _ in answers[1:]] == ["backoff"] * 2, answers
    else:
        assert upstream.count("/v1/forecast") == 3, upstream.stats()


def test_queries_are_rewritten_as_raind_writes_them_and_unknown_ones_refused(proxy, upstream):
    site = proxy()
    raind = ("/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m,weather_code"
             "&forecast_days=7&timezone=auto&timeformat=unixtime")
    status, headers, _ = site.get(raind)
    assert status == 200 and headers["x-cache-status"] == "MISS", headers
    # The same question in another order, finer coordinates, encoded commas: one entry.
    for same in ["/v1/forecast?timeformat=unixtime&timezone=auto&forecast_days=7&current=temperature_2m%2Cweather_code"
                 "&longitude=6.8949&latitude=52.2249",
                 "/v1/forecast?latitude=52.220&longitude=6.89&current=temperature_2m,weather_code&forecast_days=7"
                 "&timezone=auto&timeformat=unixtime"]:
        status, headers, _ = site.get(same)
        assert status == 200 and headers["x-cache-status"] == "HIT", (same, headers)
    status, headers, _ = site.get("/forecast/52.2249,6.8949?units=si")
    assert status == 200 and headers["x-cache-status"] == "MISS", headers
    status, headers, _ = site.get("/forecast/52.22,6.89?units=si")
    assert status == 200 and headers["x-cache-status"] == "HIT", headers
    assert sorted(upstream.stats()["targets"]) == [
        f"/forecast/{KEY}/52.22,6.89?units=si",
        "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m,weather_code&forecast_days=7"
        "&timezone=auto&timeformat=unixtime"], upstream.stats()["targets"]
    refused = [
        "/v1/forecast?latitude=52.22&longitude=6.89&apikey=x",
        "/v1/forecast?latitude=52.22&longitude=6.89&latitude=1",
        "/v1/forecast?latitude=52.22",
        "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m,<script>",
        "/v1/forecast?latitude=52.22&longitude=6.89&forecast_days=99",
        "/v1/forecast?latitude=52.22&longitude=6.89&timezone=..%2Fetc",
        "/v1/forecast?latitude=1e1&longitude=6.89",
        "/forecast/52.22,6.89?units=si&lang=de",
        "/forecast/52.22,6.89?units=kelvin",
        "/forecast/52.22,6.89?units=si&units=us",
        "/forecast/52.22,abc",
        "/forecast/95,6.89",
    ]
    for target in refused:
        status, _, body = site.get(target)
        assert status == 400 and json.loads(body)["error"], (target, status, body)
    assert upstream.stats()["total"] == 2


def test_only_the_documented_headers_reach_the_provider(proxy, upstream):
    site = proxy()
    status, _, _ = site.get("/forecast/52.22,6.89?units=si", headers={
        "X-Api-Key": "a-machine-key", "Referer": "http://pupil.example/", "X-Forwarded-For": "10.1.2.3",
        "X-Custom": "x", "Cookie": "session=1", "Authorization": "Bearer a", "User-Agent": "raind/0.1 (pupil)",
        "Accept-Language": "de"})
    assert status == 200
    [(path, headers)] = upstream.stats()["last_headers"].items()
    # docs/DEPLOYMENT-PROXY.md: Host, User-Agent, Accept, Accept-Encoding (and the
    # front's If-Modified-Since or If-None-Match when it revalidates).
    assert set(headers) == {"host", "user-agent", "accept", "accept-encoding"}, headers
    assert headers["user-agent"] == SITE_AGENT and headers["accept-encoding"] == "identity", headers


def budget_site(proxy, daily_open_meteo="10", monthly_pirateweather="4"):
    return proxy(rate="20r/m", burst="burst=40", site={"    open-meteo      10000;": f"    open-meteo      {daily_open_meteo};",
                       "    pirateweather   10000;": f"    pirateweather   {monthly_pirateweather};"})


def flood_from(addresses, port, targets):
    """Each address (127.0.0.x) asks every target: the answers' statuses and headers."""
    answers = []
    lock = threading.Lock()

    def run(address):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(address, 0))
        for target in targets:
            connection.request("GET", target)
            response = connection.getresponse()
            response.read()
            with lock:
                answers.append((response.status, {k.lower(): v for k, v in response.getheaders()}))
        connection.close()

    threads = [threading.Thread(target=run, args=(address,)) for address in addresses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_a_distinct_query_flood_spends_no_more_than_the_sites_budget(proxy, upstream):
    # Open-Meteo: 10 calls a day, raind's request counting 3.1 (31 variables): three requests.
    # The shipped per-machine rate.
    site = budget_site(proxy)
    variables = "temperature_2m,apparent_temperature,relative_humidity_2m,is_day,precipitation,weather_code,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m"
    query = f"&current={variables}&hourly={variables}&daily={variables[:-16]}"
    addresses = [f"127.0.0.{i}" for i in range(2, 12)]
    targets = [f"/v1/forecast?latitude={50 + i / 100:.2f}&longitude=6.89{query}" for i in range(45)]
    answers = flood_from(addresses, site.port, targets)
    assert len(answers) == len(addresses) * len(targets)
    made = upstream.count("/v1/forecast")
    assert made == 3, f"{made} upstream requests for a budget of 3"
    refused = [headers for status, headers in answers if status == 503]
    assert refused and all(h["x-raind-proxy-refused"] == "budget" and 0 < int(h["retry-after"]) <= 86400
                           for h in refused), refused[:3]
    limited = sum(status == 429 for status, _ in answers)
    spent = float(sum(float(line) for line in (site.prefix / "state").glob("spent-open-meteo-????-??-??")
                      .__next__().read_text().split()))
    assert spent <= 10, spent
    # A copy the proxy has, once expired, is served stale and says why.
    upstream.reset()
    upstream.script(path_prefix="/forecast/", headers={"X-Accel-Expires": "@1"}, count=-1)
    pirate = [f"/forecast/40.{i:02d},-74.01?units=si" for i in range(6)]
    first = [site.get(target)[0] for target in pirate]
    assert first == [200] * 4 + [503] * 2, first
    status, headers, _ = site.get(pirate[0])
    assert status == 200 and headers["x-cache-status"] == "STALE", headers
    assert headers.get("x-raind-proxy-refused") == "budget", sorted(headers.items())
    assert upstream.count("/forecast/") == 4
    print(f"\ndistinct-query flood: {len(addresses)} addresses x {len(targets)} distinct queries = {len(answers)} "
          f"requests -> {made} upstream requests ({spent:.1f} of 10 calls; {len(refused)} answered 503 budget, "
          f"{limited} 429 by the per-machine rate); Pirate Weather, 4 calls a month: {upstream.count('/forecast/')} "
          "upstream requests for 6 places, then its copy STALE with X-Raind-Proxy-Refused: budget")


def test_a_storm_while_the_provider_fails_makes_one_attempt_per_entry(proxy, upstream):
    site = proxy()
    target = "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m"
    upstream.script(path_prefix="/v1/forecast", headers={"X-Accel-Expires": "@1"}, date_offset=7200)
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "MISS"
    upstream.reset()
    upstream.script(path_prefix="/v1/forecast", mode="status", status=500, count=-1)
    answers = flood_from(["127.0.0.1"] * 58, site.port, [target])
    assert [status for status, _ in answers] == [200] * 58, answers
    assert all(h["x-cache-status"] in ("STALE", "UPDATING") and int(h["age"]) >= 7200 for _, h in answers), answers
    wait_for(lambda: len(site.upstream_log()) >= 1, timeout=10, what="the attempt in the upstream log")
    passed = upstream.count("/v1/forecast")
    assert passed == 1, f"{passed} of 58 storm requests reached the failing provider"
    # Later requests within the back-off are answered from the copy without asking.
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "STALE" and upstream.count("/v1/forecast") == 1, headers
    print(f"\nstorm while the provider fails: 58 requests -> {passed} passed on to the provider, 58 answered with "
          "the stale copy")


def test_a_hanging_provider_leaves_no_machine_without_the_last_copy(proxy, upstream, fleet):
    site = proxy()
    daemons = fleet(10, site, "open-meteo", extra="")
    upstream.script(path_prefix="/v1/forecast", headers={"X-Accel-Expires": "@1"}, date_offset=7200)
    client = daemons[0].client()
    place = client.call("AddLocation", {"latitude": 52.22, "longitude": 6.89, "name": "Home"})
    assert "error" not in client.call("Refresh", {"id": place["parameters"]["location"]["id"]})
    client.close()
    upstream.reset()
    upstream.script(path_prefix="/v1/forecast", mode="stall", delay=60, count=-1)
    results = []

    def refresh(index, daemon):
        client = daemon.client()
        client.call("AddLocation", {"latitude": 52.2201, "longitude": 6.8901, "name": "Home"})
        started = time.monotonic()
        reply = client.call("Refresh", {"all": True})
        forecast = client.call("GetForecast", {})["parameters"]
        client.close()
        results.append((reply, forecast, time.monotonic() - started))

    storm(daemons[1:], refresh)
    updated = [reply for reply, forecast, _ in results if "error" not in reply and forecast["forecast"]]
    assert len(updated) == len(daemons) - 1, [reply for reply, _, _ in results]
    assert all(forecast["ageSeconds"] >= 7200 and forecast["stale"] for _, forecast, _ in results), results
    slowest = max(seconds for _, _, seconds in results)
    assert slowest < 5, f"a machine waited {slowest:.1f} s for the hanging provider"
    print(f"\nprovider hanging: {len(updated)} of {len(daemons) - 1} machines got the stale copy, "
          f"the slowest in {slowest:.2f} s")


def test_machines_behind_one_address_get_the_sites_limit_when_it_is_listed(proxy, upstream):
    # The shipped limits; 127.0.0.1 as a NAT address with 20 machines behind it.
    site = proxy(rate="20r/m", burst="burst=40",
                 site={"    # 192.0.2.10    20;": "    127.0.0.1       20;"})
    # Twenty machines' refresh --all, six requests each, at once.
    targets = [f"/v1/forecast?latitude=52.2{i}&longitude=6.89" for i in range(6)]
    answers = flood_from(["127.0.0.1"] * 20, site.port, targets)
    refused = sum(status == 429 for status, _ in answers)
    assert len(answers) == 120 and refused == 0, [status for status, _ in answers]
    # Unlisted, the same address is one machine: the same traffic passes its limit.
    other = flood_from(["127.0.0.2"] * 20, site.port, targets)
    assert sum(status == 429 for status, _ in other) > 0
    print(f"\n20 machines behind one listed address: {len(answers)} requests, {refused} refused; "
          f"unlisted: {sum(status == 429 for status, _ in other)} refused")
