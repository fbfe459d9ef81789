"""The nowcast end to end: the real raind against the fixture server serving
short-range data in both providers' documented shapes, built around the
present moment (tests/integration/nowcast_fixtures.py). The forecast carries
it on the wire, `raindctl now` and a bar's `{nowcast}` show it, GetStatus
reports its cost, and `NowcastChanged` comes once when rain is expected and
not on a refresh that brings the same outlook."""
import json
import re
import subprocess
import threading
import time

import pytest

from nowcast_fixtures import (FIXTURES, OPEN_METEO_BASE, PIRATE_WEATHER_BASE, openmeteo,
                              pirateweather)
from raindtest import RAINDCTL, FixtureServer, Subscriber, wait_for

PARIS = "48.8534,2.3488"
STARTING = re.compile(r"^Light rain starting in about \d+ min, for about 45 min$")


def quarter_now():
    return int(time.time()) // 900 * 900


@pytest.fixture
def provider_dir(tmp_path):
    directory = tmp_path / "provider"
    directory.mkdir()
    return directory


def serve_openmeteo(directory, shape, start=None):
    base = json.loads((FIXTURES / OPEN_METEO_BASE).read_text())
    (directory / "om.json").write_text(json.dumps(openmeteo(base, start or quarter_now(), shape)))


@pytest.fixture
def server(provider_dir):
    serve_openmeteo(provider_dir, "none")
    server = FixtureServer(routes=[("/v1/forecast", "om.json"), ("/forecast/", "pw.json")],
                           directory=provider_dir)
    yield server
    server.stop()


def config(server, provider="open-meteo", extra=""):
    return f"[Provider]\nName={provider}\nBaseURL={server.url}\nTimeoutSec=3\n" + extra


def add_paris(daemon):
    daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
    wait_for(lambda: daemon.client().call("GetForecast", {})["parameters"]["forecast"] is not None,
             timeout=10, what="Paris's first forecast")


def test_forecast_now_and_bar_carry_the_nowcast_and_status_its_cost(daemon_factory, server, provider_dir):
    serve_openmeteo(provider_dir, "starting")
    daemon = daemon_factory(config=config(server))
    add_paris(daemon)
    forecast = daemon.client().call("GetForecast", {})["parameters"]["forecast"]
    nowcast = forecast["nowcast"]
    assert nowcast["resolutionSeconds"] == 900 and nowcast["rainingNow"] is False
    assert nowcast["intensity"] == "light" and nowcast["stopsAt"] - nowcast["startsAt"] == 2700
    assert STARTING.match(nowcast["summary"]), nowcast["summary"]
    assert len(nowcast["steps"]) == 9

    now = daemon.ctl("now", check=True).stdout
    line = next(line for line in now.splitlines() if line.startswith("Next hour"))
    assert STARTING.match(line.split(None, 2)[2]), now
    bar = daemon.ctl("now", "--format", "{temp} · {nowcast}", check=True).stdout.strip()
    assert STARTING.match(bar.split(" · ", 1)[1]), bar

    status = json.loads(daemon.ctl("status", "--json", check=True).stdout)
    assert status["callsToday"] == pytest.approx(3.1)
    assert status["nowcast"] == {"enabled": True, "active": False, "intervalMinutes": 15,
                                 "requestsPerDay": 48, "callsPerDay": pytest.approx(148.8)}
    assert "Nowcast:" in daemon.ctl("status", check=True).stdout
    # Someone subscribed can use it: the short refreshes run, a quarter hour after the last fetch.
    sub = Subscriber(daemon)
    assert STARTING.match(sub.snapshot["forecast"]["nowcast"]["summary"])
    status = daemon.client().call("GetStatus", {})["parameters"]["status"]
    assert status["nowcast"]["active"] is True
    assert status["nextRefresh"] == pytest.approx(forecast["fetchedAt"] + 900, abs=1)
    sub.stop()
    wait_for(lambda: daemon.client().call("GetStatus", {})["parameters"]["status"]["nowcast"]["active"] is False,
             what="the short refreshes to stop with the last subscriber")
    status = daemon.client().call("GetStatus", {})["parameters"]["status"]
    assert status["nextRefresh"] >= forecast["fetchedAt"] + 1800


def test_subscribed_bar_shows_the_nowcast(daemon_factory, server, provider_dir):
    serve_openmeteo(provider_dir, "starting")
    daemon = daemon_factory(config=config(server))
    add_paris(daemon)
    process = subprocess.Popen([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "{nowcast}"],
                               stdout=subprocess.PIPE, text=True, env=daemon.env)
    # A bar that printed nothing must fail the test, not hang it.
    watchdog = threading.Timer(15, process.kill)
    watchdog.start()
    try:
        first = process.stdout.readline().strip()
        assert STARTING.match(first), first
    finally:
        watchdog.cancel()
        process.terminate()
        process.wait()


def age_cache(daemon, place_id, seconds):
    """Makes the cached forecast `seconds` older, as if fetched earlier (raind stopped)."""
    path = daemon.cache_file(place_id)
    cached = json.loads(path.read_text())
    cached["forecast"]["fetchedAt"] -= seconds
    path.write_text(json.dumps(cached))


def test_nowcast_changed_once_when_rain_is_expected_not_on_an_unchanged_refresh(daemon_factory, server,
                                                                                provider_dir, tmp_path):
    events = ["RefreshStarted", "WeatherUpdated", "NowcastChanged", "SettingsChanged"]
    base = tmp_path / "raind"
    start = quarter_now()
    serve_openmeteo(provider_dir, "none", start)
    daemon = daemon_factory(config=config(server), base=base)
    sub = Subscriber(daemon, events=events)
    add_paris(daemon)
    # The first data shows no rain: no news. SettingsChanged marks the end of what that refresh published.
    daemon.ctl("units", "us", check=True)
    seen = [sub.next()["event"] for _ in range(3)]
    assert seen == ["RefreshStarted", "WeatherUpdated", "SettingsChanged"], seen
    sub.stop()
    daemon.stop()

    # Ten minutes later (the data aged, as raind was stopped), rain is expected.
    age_cache(daemon, "paris-fr", 600)
    serve_openmeteo(provider_dir, "starting", start)
    daemon = daemon_factory(config=config(server), base=base)
    sub = Subscriber(daemon, events=events)
    daemon.ctl("refresh", check=True)
    seen = [sub.next() for _ in range(3)]
    assert [event["event"] for event in seen] == ["RefreshStarted", "WeatherUpdated", "NowcastChanged"]
    changed = seen[2]
    assert changed["id"] == "paris-fr" and changed["changes"] == ["rainExpected"] and changed["newEpisode"] is True
    assert STARTING.match(changed["nowcast"]["summary"])
    daemon.ctl("units", "si", check=True)
    assert sub.next()["event"] == "SettingsChanged"
    sub.stop()
    daemon.stop()

    # Ten minutes on, the same outlook (the provider answers 304): WeatherUpdated, no NowcastChanged.
    age_cache(daemon, "paris-fr", 600)
    daemon = daemon_factory(config=config(server), base=base)
    sub = Subscriber(daemon, events=events)
    daemon.ctl("refresh", check=True)
    daemon.ctl("units", "us", check=True)
    seen = [sub.next()["event"] for _ in range(3)]
    assert seen == ["RefreshStarted", "WeatherUpdated", "SettingsChanged"], seen
    sub.stop()


def test_pirateweather_minutely_reaches_now(daemon_factory, server, provider_dir, tmp_path):
    base = json.loads((FIXTURES / PIRATE_WEATHER_BASE).read_text())
    (provider_dir / "pw.json").write_text(json.dumps(pirateweather(base, int(time.time()) // 60 * 60, "stopping")))
    key = tmp_path / "api-key"
    key.write_text("test-key\n")
    daemon = daemon_factory(config=config(server, "pirateweather", f"ApiKeyFile={key}\n"))
    add_paris(daemon)
    nowcast = daemon.client().call("GetForecast", {})["parameters"]["forecast"]["nowcast"]
    assert nowcast["resolutionSeconds"] == 60 and nowcast["rainingNow"] is True
    assert re.match(r"^Moderate rain stopping in about 2\d min$", nowcast["summary"]), nowcast["summary"]
    status = json.loads(daemon.ctl("status", "--json", check=True).stdout)
    assert status["nowcast"]["intervalMinutes"] == 10 and status["nowcast"]["requestsPerDay"] == 96
    assert "Moderate rain stopping" in daemon.ctl("now", check=True).stdout
