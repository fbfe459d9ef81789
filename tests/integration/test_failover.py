"""Failover between providers (docs/PROVIDERS.md, "Failover"): raind with
`Providers=open-meteo metno` against the fixture server, which answers as
both. When Open-Meteo fails, MET Norway answers in the same refresh; the bar
stays fresh and its tooltip says who answered and why; `status` shows each
provider's health. The recovery, which waits for a back-off, is tested with
the tests' clock in Tests/RainDaemonTests/FailoverTests.swift."""

import json

import pytest

from raindtest import RAINDCTL, FixtureServer, wait_for
from test_bars import Lines


@pytest.fixture
def both():
    server = FixtureServer(routes=[
        ("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"),
        ("/weatherapi/locationforecast/", "metno-forecast-oslo-dst.json"),
    ])
    yield server
    server.stop()


def failover_daemon(daemon_factory, server, order="open-meteo metno"):
    config = f"[Provider]\nName=auto\nProviders={order}\nBaseURL={server.url}\nTimeoutSec=3\n"
    return daemon_factory(config=config)


def forecast(daemon):
    return daemon.client().call("GetForecast")["parameters"]["forecast"]


@pytest.mark.parametrize("way", [
    {"mode": "status", "status": 503},
    {"mode": "status", "status": 429, "retry_after": 300},
    {"mode": "status", "status": 403},
    {"mode": "malformed"},
    {"mode": "reset"},
])
def test_a_failing_first_provider_is_replaced_at_once(daemon_factory, both, way):
    both.script(path_prefix="/v1/forecast", count=-1, **way)
    daemon = failover_daemon(daemon_factory, both)
    daemon.ctl("add", "--coords", "59.91,10.75", "--name", "Oslo", check=True)
    served = wait_for(lambda: forecast(daemon), what="a forecast")
    assert served["provider"] == "metno"
    assert served["failover"]["provider"] == "open-meteo"
    if way["mode"] == "status":
        assert served["failover"]["reason"] == f"HTTP {way['status']}"
    assert both.count("/v1/forecast") == 1
    assert both.count("/weatherapi/") == 1, "one more request for the failure"
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["provider"] == "auto"
    health = {entry["name"]: entry for entry in status["providers"]}
    assert health["open-meteo"]["available"] is False and health["open-meteo"]["failures"] == 1
    assert health["metno"]["places"] == ["oslo-no"]
    assert health["metno"]["requestsToday"] == 1


def test_the_bar_stays_fresh_and_says_why_and_status_shows_each_provider(daemon_factory, both):
    both.script(path_prefix="/v1/forecast", count=-1, mode="status", status=503)
    daemon = failover_daemon(daemon_factory, both)
    daemon.ctl("add", "--coords", "59.91,10.75", "--name", "Oslo", check=True)
    lines = Lines([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "waybar"], daemon.env)
    try:
        line = lines.until(lambda text: "from metno" in text, what="a waybar line from metno")
    finally:
        lines.stop()
    bar = json.loads(line)
    assert "ok" in bar["class"] and "stale" not in bar["class"], bar
    assert "from metno (open-meteo: HTTP 503)" in bar["tooltip"], bar["tooltip"]
    assert "Data from MET Norway" in bar["tooltip"]
    text = daemon.ctl("status", check=True).stdout
    assert "Providers:" in text, text
    assert "open-meteo: backing off" in text and "(HTTP 503)" in text, text
    assert "metno: ok, serves oslo-no" in text, text


def test_status_shows_no_total_of_providers_that_count_in_different_units(daemon_factory, both):
    both.script(path_prefix="/v1/forecast", count=-1, mode="status", status=503)
    daemon = failover_daemon(daemon_factory, both)
    daemon.ctl("add", "--coords", "59.91,10.75", "--name", "Oslo", check=True)
    wait_for(lambda: forecast(daemon), what="a forecast")
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["totalAddsUp"] is False
    # The old fields stay, sums for older clients; each provider's own numbers add up against its own budget.
    providers = {entry["name"]: entry for entry in status["providers"]}
    assert status["requestsToday"] == sum(entry["requestsToday"] for entry in providers.values())
    assert providers["metno"]["requestsToday"] == 1 and providers["metno"]["callsToday"] == 1
    text = daemon.ctl("status", check=True).stdout
    assert "Upstream calls:" not in text, text
    assert "metno: ok, serves oslo-no" in text and "1 of " in text, text


def test_every_provider_failing_fails_the_refresh_naming_each(daemon_factory, both):
    both.script(path_prefix="/v1/forecast", count=-1, mode="status", status=503)
    both.script(path_prefix="/weatherapi/", count=-1, mode="status", status=502)
    daemon = failover_daemon(daemon_factory, both)
    daemon.ctl("add", "--coords", "59.91,10.75", "--name", "Oslo", check=True)
    result = daemon.ctl("refresh")
    assert result.returncode != 0
    assert "open-meteo: " in result.stderr and "metno: " in result.stderr, result.stderr
    assert both.count("/v1/forecast") + both.count("/weatherapi/") <= 4, "no storm"


def test_a_place_outside_a_providers_coverage_skips_it(daemon_factory, both):
    # The NWS covers only the United States: for Oslo, Providers=nws metno asks MET Norway alone.
    daemon = failover_daemon(daemon_factory, both, order="nws metno")
    daemon.ctl("add", "Oslo", check=True)
    served = wait_for(lambda: forecast(daemon), what="a forecast")
    assert served["provider"] == "metno"
    assert served.get("failover") is None
    assert both.count("/points/") == 0


def test_auto_chooses_by_region(daemon_factory, both):
    # Oslo lies in the Nordic countries: MET Norway first, with no Providers= at all.
    config = f"[Provider]\nName=auto\nBaseURL={both.url}\nTimeoutSec=3\n"
    daemon = daemon_factory(config=config)
    daemon.ctl("add", "Oslo", check=True)
    served = wait_for(lambda: forecast(daemon), what="a forecast")
    assert served["provider"] == "metno"
    assert both.count("/v1/forecast") == 0


def test_the_nws_looks_a_place_up_once_and_keeps_it_across_restarts(daemon_factory, tmp_path):
    server = FixtureServer(routes=[
        ("/points/", "nws-lookup-sumatra-fl.json"),
        ("/gridpoints/TAE/58,65/forecast/hourly", "nws-forecast-sumatra-fl-2022.1-hourly.json"),
        ("/gridpoints/TAE/58,65/forecast", "nws-forecast-sumatra-fl-2022.3-periods.json"),
        ("/gridpoints/TAE/58,65", "nws-forecast-sumatra-fl-2022.2-grid.json"),
    ])
    try:
        config = f"[Provider]\nName=nws\nBaseURL={server.url}\nTimeoutSec=3\n"
        daemon = daemon_factory(config=config, base=tmp_path)
        daemon.ctl("add", "--coords", "30.0,-85.0", "--name", "Sumatra", check=True)
        served = wait_for(lambda: forecast(daemon), what="a forecast")
        assert served["provider"] == "nws"
        assert served["hourly"], "hours from the hourly forecast"
        assert served["current"] is None, "the NWS gives no observation: none is made up"
        assert server.count("/points/") == 1
        assert server.count("/gridpoints/") == 3, "hourly, grid and periods"
        status = daemon.client().call("GetStatus")["parameters"]["status"]
        nws = next(entry for entry in status["providers"] if entry["name"] == "nws")
        assert nws["requestsToday"] == 4, "the lookup and three questions, each counted"
        daemon.stop()
        # The grid cell is kept in the place's cache file...
        cache = next(daemon.cache_home.rglob("forecasts/*.json"))
        kept = json.loads(cache.read_text())
        assert kept["lookups"]["nws"]["values"]["office"] == "TAE", kept.get("lookups")
        # ...so after a restart, with the forecast made an hour old, the refresh
        # asks the grid again but not /points.
        kept["forecast"]["fetchedAt"] -= 3600
        cache.write_text(json.dumps(kept))
        again = daemon_factory(config=config, base=tmp_path)
        wait_for(lambda: server.count("/gridpoints/") == 6, what="the refresh after the restart")
        assert server.count("/points/") == 1, "the lookup is kept with the place's cache"
    finally:
        server.stop()


def test_a_deprecated_product_is_served_and_said_once_in_the_log(daemon_factory, both):
    # met.no answers 203 for a product it will withdraw: the forecast is used
    # and the warning is logged once, not for every place or refresh.
    both.script(path_prefix="/weatherapi/", count=-1, answer_status=203)
    daemon = failover_daemon(daemon_factory, both, order="metno")
    client = daemon.client()
    for name, latitude, longitude in [("Oslo", 59.91, 10.75), ("Bergen", 60.39, 5.32)]:
        place = client.call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": name})
        place_id = place["parameters"]["location"]["id"]
        reply = client.call("Refresh", {"id": place_id})
        assert reply["parameters"]["updated"] == [place_id], reply
        served = client.call("GetForecast", {"id": place_id})["parameters"]["forecast"]
        assert served["provider"] == "metno" and served["failover"] is None, served
    assert both.count("/weatherapi/") == 2
    notice = "metno says the product raind asks for is deprecated (HTTP 203)"
    assert daemon.read_log().count(notice) == 1, daemon.read_log()
