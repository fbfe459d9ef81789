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
        ("/api/v1/warnings/", "alerts/meteoalarm-cap-france-avalanches.xml"),
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
