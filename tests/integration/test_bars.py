"""Status bars never go blank: raindctl subscribe's bar formats across
set-location, a daemon that is not running yet, goes away and comes back,
and a provider that fails; waybar's custom-module contract; templates; and
i3blocks, a real status-bar program, reading `raindctl subscribe`."""
import json
import queue
import shutil
import signal
import subprocess
import threading

import pytest

from raindtest import RAINDCTL, wait_for

PARIS = ("48.8534,2.3488", "Paris")
LONDON = ("51.5085,-0.1257", "London")


class Lines:
    """A child process's stdout, line by line, with waiting for a matching line."""

    def __init__(self, args, env):
        # Its own process group, so stopping it also stops what it started (i3blocks' blocks).
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env, start_new_session=True)
        self.queue = queue.Queue()
        self.seen = []

        def pump():
            for line in self.process.stdout:
                self.queue.put(line.rstrip("\n"))
        threading.Thread(target=pump, daemon=True).start()

    def until(self, predicate, timeout=15, what="a matching line"):
        import time
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(line)
            if predicate(line):
                return line
        raise AssertionError(f"no {what} within {timeout}s; saw {self.seen[-5:]}")

    def stop(self):
        import os
        import signal
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        except ProcessLookupError:
            pass


def waybar(daemon, *extra):
    return Lines([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "waybar", *extra], daemon.env)


def parsed(line):
    """One waybar line: valid JSON with the contract's keys and types."""
    value = json.loads(line)
    assert isinstance(value["text"], str) and isinstance(value["tooltip"], str), value
    assert isinstance(value["class"], list) and value["class"][0] in ("ok", "stale", "offline", "error"), value
    assert isinstance(value["alt"], str), value
    assert "percentage" not in value or isinstance(value["percentage"], int), value
    return value


def fetched(daemon, place):
    return daemon.client().call("GetForecast", {"id": place})["parameters"]["forecast"] is not None


def test_set_location_shows_the_new_place_at_once(weather_daemon, fixture_server):
    daemon = weather_daemon()
    for coords, name in (PARIS, LONDON):
        daemon.ctl("add", "--coords", coords, "--name", name, check=True)
    daemon.ctl("refresh", "--all", check=True)
    bar = Lines([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "bar"], daemon.env)
    try:
        bar.until(lambda line: line.startswith("Paris ") and "°" in line, what="Paris's weather")
        requests = fixture_server.count()
        daemon.ctl("set-location", "london-gb", check=True)
        # London's data is fresh: no fetch, yet the very next line has its weather.
        line = bar.until(lambda line: line.startswith("London"), what="a London line")
        assert "°" in line and "…" not in line, line
        assert fixture_server.count() == requests
    finally:
        bar.stop()


def test_waybar_waits_for_raind_and_survives_a_restart(weather_daemon, fixture_server):
    daemon = weather_daemon(start=False)
    bar = waybar(daemon)
    try:
        first = parsed(bar.until(lambda line: True, what="a first line"))
        assert first["class"][0] == "offline" and first["text"] == "raind not running"
        daemon.start()
        daemon.ctl("add", "--coords", *PARIS[:1], "--name", PARIS[1], check=True)
        ok = parsed(bar.until(lambda line: "°" in json.loads(line)["text"], what="weather once raind runs"))
        assert ok["class"][0] == "ok" and ok["text"].startswith("Paris")
        daemon.stop()
        gone = parsed(bar.until(lambda line: json.loads(line)["class"][0] == "offline", what="an offline line"))
        assert gone["text"].startswith("Paris") and "raind not running" in gone["text"], "the last weather stays"
        daemon.start()
        back = parsed(bar.until(lambda line: json.loads(line)["class"][0] == "ok", what="recovery"))
        assert back["text"].startswith("Paris") and "not running" not in back["text"]
    finally:
        bar.stop()


def test_waybar_escapes_markup_and_says_failures_in_short_sentences(weather_daemon, fixture_server):
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", PARIS[0], "--name", "Tom & Jerry <home>", check=True)
    wait_for(lambda: fetched(daemon, "tom-jerry-home-fr") if False else daemon.client().call("GetForecast")["parameters"]["forecast"])
    bar = waybar(daemon)
    try:
        line = parsed(bar.until(lambda line: "°" in json.loads(line)["text"], what="weather"))
        assert "Tom &amp; Jerry &lt;home&gt;" in line["text"], line["text"]
        assert "<home>" not in line["tooltip"] and "&amp;" in line["tooltip"]
        assert line["alt"] == line["class"][1], "the condition is both alt and the second class"
        assert isinstance(line.get("percentage"), int)
        fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="status", status=500)
        daemon.ctl("add", "--coords", LONDON[0], "--name", LONDON[1], check=True)
        daemon.ctl("set-location", "london-gb", check=True)
        failed = parsed(bar.until(lambda line: json.loads(line)["class"][0] == "error", what="an error line"))
        assert "http://" not in failed["tooltip"] and "https://" not in failed["tooltip"], failed["tooltip"]
        assert "Last refresh failed" in failed["tooltip"]
    finally:
        bar.stop()


def test_templates_for_now_and_subscribe(weather_daemon, fixture_server):
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    line = daemon.ctl("now", "--format", "{place}|{temp}|{temp:value}|{rain:value}|{wind_dir}|{{x}}", check=True)
    place, temp, bare, rain, direction, literal = line.stdout.rstrip("\n").split("|")
    assert place == "Paris" and temp.endswith(" °C") and temp[:-3] == bare, line.stdout
    assert rain.isdigit() and direction in ("N", "NE", "E", "SE", "S", "SW", "W", "NW", "–") and literal == "{x}"
    daemon.ctl("units", "us", check=True)
    assert daemon.ctl("now", "--format", "{temp}", check=True).stdout.strip().endswith(" °F")
    for icons, check in (("text", str.isascii), ("nerd", lambda text: "\ue300" <= text[0] <= "\ue3ff")):
        icon = daemon.ctl("now", "--format", "{icon}", "--icons", icons, check=True).stdout.strip()
        assert icon and check(icon), (icons, icon)
    bad = daemon.ctl("now", "--format", "{tmp}")
    assert bad.returncode == 64 and "unknown field {tmp}" in bad.stderr and "{temp}" in bad.stderr
    assert daemon.ctl("subscribe", "--format", "{temp", "--socket", str(daemon.socket)).returncode == 64
    sub = Lines([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "{place} {temp:value}"], daemon.env)
    try:
        assert sub.until(lambda line: line.startswith("Paris "), what="a templated line").split()[1].lstrip("-").isdigit()
    finally:
        sub.stop()


@pytest.mark.skipif(not shutil.which("i3blocks"), reason="needs i3blocks (Debian package i3blocks)")
def test_i3blocks_shows_raind_across_set_location_restart_and_failure(weather_daemon, fixture_server, tmp_path):
    daemon = weather_daemon()
    for coords, name in (PARIS, LONDON):
        daemon.ctl("add", "--coords", coords, "--name", name, check=True)
    daemon.ctl("refresh", "--all", check=True)
    config = tmp_path / "i3blocks.conf"
    config.write_text(
        "[weather]\n"
        f"command={RAINDCTL} --socket {daemon.socket} subscribe --format bar\n"
        "interval=persist\n")
    bar = Lines(["i3blocks", "-c", str(config)], daemon.env)

    def full_text(line):
        # i3bar protocol: a header object, "[", then one JSON array of blocks per update.
        line = line.lstrip(",")
        if not line.startswith("[{"):
            return None
        blocks = [block for block in json.loads(line) if block.get("name") == "weather"]
        return blocks[0]["full_text"] if blocks else None

    def shows(predicate, what):
        return full_text(bar.until(lambda line: (text := full_text(line)) is not None and predicate(text), what=what))

    try:
        header = json.loads(bar.until(lambda line: line.startswith("{"), what="the i3bar header"))
        assert header["version"] == 1
        assert shows(lambda text: text.startswith("Paris ") and "°" in text, "Paris")
        daemon.ctl("set-location", "london-gb", check=True)
        assert "°" in shows(lambda text: text.startswith("London"), "London after set-location")
        daemon.stop()
        assert shows(lambda text: "raind not running" in text, "the offline line")
        daemon.start()
        assert "not running" not in shows(lambda text: text.startswith("London") and "not running" not in text,
                                          "London after the restart")
        fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="status", status=500)
        daemon.ctl("add", "--coords", "40.4165,-3.7026", "--name", "Madrid", check=True)
        daemon.ctl("set-location", "madrid-es", check=True)
        assert shows(lambda text: text.startswith("Madrid:"), "Madrid while the provider fails") == \
            "Madrid: no weather yet (refresh failed)"
    finally:
        bar.stop()


def test_a_reload_that_changes_the_stale_threshold_reaches_a_running_bar(weather_daemon, fixture_server):
    # The provider's copy is 30 min old (its Age): fresh under StaleAfterMinutes=60, stale under 15.
    fixture_server.script(path_prefix="/v1/forecast", count=-1, headers={"Age": "1800"})
    daemon = weather_daemon("[Refresh]\nStaleAfterMinutes=60\n")
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"], what="Paris's forecast")
    bar = waybar(daemon, "--text", "{temp}")
    try:
        line = parsed(bar.until(lambda line: "°" in json.loads(line)["text"], what="weather"))
        assert line["class"][0] == "ok", line
        daemon.write_config(
            f"[Provider]\nName=open-meteo\nBaseURL={fixture_server.url}\nTimeoutSec=3\n"
            "[Refresh]\nStaleAfterMinutes=15\n")
        daemon.process.send_signal(signal.SIGHUP)
        stale = parsed(bar.until(lambda line: json.loads(line)["class"][0] == "stale", what="stale after the reload"))
        assert stale["text"].endswith(" (stale)"), stale
    finally:
        bar.stop()


def test_stale_data_stays_stale_after_a_failure_and_a_bar_started_later_shows_the_same(weather_daemon,
                                                                                        fixture_server):
    daemon = weather_daemon()
    # The provider's copy is three hours old (its Age): stale by raind's one rule.
    fixture_server.script(path_prefix="/v1/forecast", headers={"Age": "10800"})
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"], what="Paris's forecast")
    assert daemon.client().call("GetForecast")["parameters"]["stale"] is True
    before = waybar(daemon, "--text", "{temp}")
    try:
        line = parsed(before.until(lambda line: "°" in json.loads(line)["text"], what="weather"))
        assert line["class"][0] == "stale" and line["text"].endswith(" (stale)"), line
        # raind restarts (its copy kept) and the provider fails: its refresh of the stale copy fails.
        fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="status", status=500)
        daemon.stop()
        daemon.start()
        refreshed = daemon.ctl("refresh")
        assert refreshed.returncode != 0, refreshed.stdout
        failed = parsed(before.until(lambda line: "error" in json.loads(line)["class"], what="an error line"))
    finally:
        before.stop()
    # Both facts, stale first (dimmed), and the marker kept.
    assert failed["class"][:2] == ["stale", "error"], failed
    assert failed["text"].endswith(" (stale)"), failed
    assert "Last refresh failed" in failed["tooltip"] and "(stale)" in failed["tooltip"], failed["tooltip"]
    now = daemon.ctl("now", check=True).stdout
    assert "(stale)" in now, now
    # A bar started after the failure shows what the one running before it showed.
    after = waybar(daemon, "--text", "{temp}")
    try:
        late = parsed(after.until(lambda line: "°" in json.loads(line)["text"], what="weather"))
    finally:
        after.stop()
    assert late["class"] == failed["class"] and late["text"] == failed["text"], (late, failed)
    assert late["tooltip"] == failed["tooltip"], (late["tooltip"], failed["tooltip"])
    # The tooltip is short, in lines without padded columns, the credit once.
    lines = late["tooltip"].split("\n")
    assert len(lines) <= 14, late["tooltip"]
    assert late["tooltip"].count("Open-Meteo") == 1, late["tooltip"]
    assert not any("   " in line for line in lines), late["tooltip"]
    # The failure is a whole sentence, never cut inside.
    [failure] = [line for line in lines if line.startswith("Last refresh failed")]
    assert not failure.endswith("…") and "( " not in failure, failure
    print("\n" + json.dumps(late, ensure_ascii=False, indent=1))


def test_a_failure_is_said_in_a_whole_sentence_with_the_host_not_cut(daemon_factory):
    # A host that cannot be resolved (.invalid never is): libcurl's words in parentheses.
    daemon = daemon_factory(config="[Provider]\nName=open-meteo\nBaseURL=http://weather.example.invalid\nTimeoutSec=3\n"
                                   "[Places]\nOnlineGeocoder=no\n")
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    bar = waybar(daemon)
    try:
        failed = parsed(bar.until(lambda line: "error" in json.loads(line)["class"], what="an error line"))
    finally:
        bar.stop()
    [line] = [line for line in failed["tooltip"].split("\n") if line.startswith("Last refresh failed")]
    assert "weather.example.invalid" in line and "of (" not in line and not line.endswith("…"), line
    assert "http://" not in line, line
    print("\n" + line)
