"""Wall-clock jumps (issue 9): raind under a faked realtime clock (libfaketime,
Debian package `faketime`), the monotonic clock left real. Setting the clock
back a day or forward a week neither stops refreshes nor starts a storm, and
ages stay what really passed."""
import json
import pathlib
import signal
import time

import pytest

from raindtest import FIXTURES, RECORDED_AT, FixtureServer, Subscriber, wait_for

LIBFAKETIME = pathlib.Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
INTERVAL = 30 * 60
JITTER = 0.1 * INTERVAL

pytestmark = pytest.mark.skipif(
    not LIBFAKETIME.exists(), reason="needs libfaketime (apt-get install faketime)")


@pytest.fixture
def fixture_server(tmp_path):
    """The recorded Paris answer with its days carried on to 16 (as Open-Meteo
    gives with forecast_days=16), as if made now: data that outlasts the
    jumps, so that only the jumps are tested (a forecast whose every time has
    passed on the new clock is outdated, rightly)."""
    answer = json.loads((FIXTURES / "openmeteo-forecast-paris-unixtime.json").read_text())
    daily = answer["daily"]
    for _ in range(16 - len(daily["time"])):
        for key, values in daily.items():
            values.append(values[-7] + 7 * 86400 if key in ("time", "sunrise", "sunset") else values[-7])
    directory = tmp_path / "answers"
    directory.mkdir()
    (directory / "paris.json").write_text(json.dumps(answer))
    server = FixtureServer(routes=[("/v1/forecast", "paris.json")], directory=directory,
                           present={"paris.json": RECORDED_AT["openmeteo-forecast-paris-unixtime.json"]})
    yield server
    server.stop()


@pytest.fixture
def faked_daemon(weather_daemon, tmp_path):
    offset_file = tmp_path / "faketime"
    offset_file.write_text("+0\n")
    env = {
        "LD_PRELOAD": str(LIBFAKETIME),
        "FAKETIME_TIMESTAMP_FILE": str(offset_file),
        "FAKETIME_NO_CACHE": "1",
        # Only the wall clock moves; CLOCK_BOOTTIME and CLOCK_MONOTONIC stay real.
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    }
    daemon = weather_daemon(extra_env=env)

    def set_offset(days):
        offset_file.write_text(f"{days:+d}d\n")
    return daemon, set_offset


def daemon_now(offset_days):
    return time.time() + offset_days * 86400


def check_schedule(daemon, offset_days):
    forecast = daemon.client().call("GetForecast")["parameters"]
    assert 0 <= forecast["ageSeconds"] < 60, forecast["ageSeconds"]
    assert forecast["stale"] is False
    status = json.loads(daemon.ctl("status", "--json", check=True).stdout)
    now = daemon_now(offset_days)
    assert -60 < status["lastRefresh"] - now <= 5, "the last refresh moved with the clock"
    wait = status["nextRefresh"] - now
    assert 0 < wait <= INTERVAL + JITTER + 5, f"next refresh in {wait} s, not after the interval"


@pytest.mark.parametrize("jump_days", [-1, 7])
def test_wall_clock_jump_neither_stops_refreshes_nor_starts_a_storm(faked_daemon, fixture_server, jump_days):
    daemon, set_offset = faked_daemon
    sub = Subscriber(daemon, events=["WeatherUpdated"])
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    sub.until("WeatherUpdated")
    assert fixture_server.count("/v1/forecast") == 1
    check_schedule(daemon, 0)

    set_offset(jump_days)
    check_schedule(daemon, jump_days)
    direction = "back" if jump_days < 0 else "forward"
    wait_for(lambda: f"wall clock was set {direction} by {abs(jump_days) * 86400} s" in daemon.read_log(),
             what="the jump logged")
    # Every trigger at once: a person's refresh (answered from data younger
    # than a minute), "became active" (SIGUSR1) and a reload. None finds stale data.
    assert daemon.ctl("refresh").returncode == 0
    daemon.process.send_signal(signal.SIGUSR1)
    daemon.process.send_signal(signal.SIGHUP)
    wait_for(lambda: "configuration reloaded" in daemon.read_log(), what="the reload")
    check_schedule(daemon, jump_days)
    assert fixture_server.count("/v1/forecast") == 1, "no request: the data is minutes old, whatever the clock says"
    sub.stop()
