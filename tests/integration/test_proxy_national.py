"""The national services and MET Norway through the site proxy
(packaging/proxy, docs/DEPLOYMENT-PROXY.md): each one's request rewritten as
raind writes it, a second machine served from the cache, a copy kept as long
as the provider says and revalidated past its Expires, requests outside the
allowed set refused, the User-Agent naming the site, and `Name=auto` sending
each place to its own service through one proxy; two machines asking for the
alerts of places in one NWS zone cost one upstream request. The real nginx with its njs
module and raind against the fixture server, as in test_proxy.py, whose proxy
and fleet this file shares."""
import gzip
import json
import re
import signal
import time
from urllib.parse import urlsplit

import pytest

from raindtest import FIXTURES, wait_for
from test_proxy import (  # noqa: F401 (fixtures)
    MACHINE_CONTACT, METNO_PATH, PROJECT_URL, SITE_AGENT, VERSION, fleet, jittered, proxy, upstream)


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


def test_two_machines_asking_the_alerts_of_one_nws_zone_cause_one_upstream_request(proxy, upstream, fleet):
    """Places in one NWS zone ask `/alerts/active?zone=...` (docs/ALERTS.md),
    the same URL on every machine once raind knows the zones from the place's
    /points: the proxy keeps the answer 2 minutes under the key
    "nws /alerts/active?zone=...", so the second machine is answered from it."""
    site = proxy()
    machines = fleet(2, site, "nws", extra=f"Contact={MACHINE_CONTACT}\n[Alerts]\nEnabled=yes\nBaseURL={site.url}\n")
    zone_query = "/alerts/active?zone=FLC037,FLZ015"
    for index, daemon in enumerate(machines):
        client = daemon.client()
        latitude, longitude = jittered(NATIONAL["nws"]["cell"], index)
        place = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": f"Place {index}"})
        place_id = place["parameters"]["location"]["id"]
        # The forecast brings the place's /points, which names its zones (FLZ015, county FLC037).
        assert "error" not in client.call("Refresh", {"id": place_id}), daemon.read_log()
        client.close()
        # A reload asks the alerts again at once, now by zone.
        daemon.process.send_signal(signal.SIGHUP)
        wait_for(lambda: sum(entry[2] == zone_query for entry in site.access_log()) == index + 1, timeout=20,
                 what=f"machine {index}'s zone query through the proxy ({daemon.read_log()})")
    asked = [entry for entry in site.access_log() if entry[2] == zone_query]
    assert [entry[1] for entry in asked] == ["MISS", "HIT"], asked
    assert upstream.stats()["targets"].get(zone_query) == 1, upstream.stats()["targets"]
    # Before raind knew the zones, each machine asked by the place's point, cut to the 0.01° cell.
    assert [target for target in upstream.stats()["targets"] if target.startswith("/alerts/active?point=")] == [
        "/alerts/active?point=30,-85"], upstream.stats()["targets"]



def test_two_machines_asking_the_alerts_of_one_dwd_warn_cell_cause_one_upstream_request(proxy, upstream, fleet):
    """Places in one DWD warn cell ask `/alerts?warn_cell_id=...&tz=Europe%2FBerlin`
    (docs/ALERTS.md) once a point answer has named the cell (the recorded
    Berlin-Mitte answer names 711000101): the same URL on every machine, kept
    2 minutes under the key "brightsky /alerts?warn_cell_id=...", so the
    second machine is answered from it."""
    site = proxy()
    machines = fleet(2, site, "brightsky",
                     extra=f"Contact={MACHINE_CONTACT}\n[Alerts]\nEnabled=yes\nBaseURL={site.url}\n")
    cell_query = "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin"
    # Two points of Berlin-Mitte in different 0.01° cells: their point queries differ.
    points = [(52.5208, 13.3889), (52.5219, 13.4132)]
    for index, daemon in enumerate(machines):
        client = daemon.client()
        latitude, longitude = points[index]
        place = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": f"Place {index}"})
        place_id = place["parameters"]["location"]["id"]
        assert "error" not in client.call("Refresh", {"id": place_id}), daemon.read_log()

        def answered():
            forecast = (client.call("GetForecast", {"id": place_id}).get("parameters") or {}).get("forecast")
            return forecast if forecast and (forecast.get("alertService") or {}).get("checkedAt") else None
        # The first poll asks by point; its answer names the cell.
        forecast = wait_for(answered, timeout=20, what=f"machine {index}'s alerts ({daemon.read_log()})")
        assert forecast["alertService"]["source"] == "dwd", forecast["alertService"]
        client.close()
        # A reload asks the alerts again at once, now by cell.
        daemon.process.send_signal(signal.SIGHUP)
        wait_for(lambda: sum(entry[2] == cell_query for entry in site.access_log()) == index + 1, timeout=20,
                 what=f"machine {index}'s cell query through the proxy ({daemon.read_log()})")
    asked = [entry for entry in site.access_log() if entry[2] == cell_query]
    assert [entry[1] for entry in asked] == ["MISS", "HIT"], asked
    assert upstream.stats()["targets"].get(cell_query) == 1, upstream.stats()["targets"]
    assert sorted(target for target in upstream.stats()["targets"] if target.startswith("/alerts?lat=")) == [
        "/alerts?lat=52.52&lon=13.39&tz=Europe%2FBerlin", "/alerts?lat=52.52&lon=13.41&tz=Europe%2FBerlin"], \
        upstream.stats()["targets"]


# What a provider can send back that must never reach a machine: the key
# echoed in an error's body, its reason phrase, its headers or a redirect's
# Location, at every status a provider answers with.
