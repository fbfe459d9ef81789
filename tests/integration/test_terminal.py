"""hourly and daily draw on a terminal (block graphics, colour unless
NO_COLOR) and print plain aligned text into a pipe."""
import json
import os
import pty
import select
import subprocess
import time

from raindtest import RAINDCTL, wait_for

TIMES = ("time", "fetchedAt", "expiresAt", "sunrise", "sunset", "start", "end")


def shift(value, seconds):
    """Every time in a cached forecast moved by `seconds`."""
    if isinstance(value, dict):
        return {key: (item + seconds if key in TIMES and isinstance(item, (int, float)) else shift(item, seconds))
                for key, item in value.items()}
    if isinstance(value, list):
        return [shift(item, seconds) for item in value]
    return value


def on_a_terminal(daemon, *args, env=None):
    """raindctl's output with its stdout on a pseudo-terminal."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen([RAINDCTL, "--socket", str(daemon.socket), *args], stdout=terminal,
                               stderr=subprocess.PIPE, env={**daemon.env, "TERM": "xterm", **(env or {})})
    os.close(terminal)
    output = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 10)
        if not ready:
            break
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed: raindctl is done
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    assert process.wait(timeout=10) == 0, process.stderr.read()
    return output.decode()


def test_hourly_and_daily_draw_on_a_terminal_and_stay_plain_in_a_pipe(weather_daemon, fixture_server):
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    daemon.stop()
    # The recorded forecast is from January 2026: move it to now, as if just fetched.
    path = next(path for path in daemon.cache_home.rglob("*.json") if "forecast" in json.loads(path.read_text()))
    cached = json.loads(path.read_text())
    offset = int(time.time() - cached["forecast"]["hourly"][0]["time"]) // 3600 * 3600
    path.write_text(json.dumps(shift(cached, offset)))
    daemon.start()

    hourly = on_a_terminal(daemon, "hourly")
    assert any(line.startswith("Temp  ") for line in hourly.splitlines()), hourly
    assert "\x1b[33m" in hourly and "\x1b[34m" in hourly, "coloured on a terminal"
    plain_colours = on_a_terminal(daemon, "hourly", env={"NO_COLOR": "1"})
    assert "Temp  " in plain_colours and "\x1b" not in plain_colours, "NO_COLOR: blocks, no colour"
    piped = daemon.ctl("hourly", check=True).stdout
    assert not any(line.startswith("Temp  ") for line in piped.splitlines()) and "\x1b" not in piped
    assert "Day  Time" in piped, piped

    daily = on_a_terminal(daemon, "daily")
    assert "━" in daily and "\x1b[36m" in daily, daily
    assert "━" not in daemon.ctl("daily", check=True).stdout
