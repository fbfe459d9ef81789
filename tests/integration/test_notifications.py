"""Desktop notifications from the real raind: a private dbus-daemon plays the
session bus and tests/fakes/fake_notifications.py the notification server,
recording every call; and once a real one, dunst under Xvfb. Alerts come from the fixture server in Pirate Weather's
shape. Rain-soon notifications, fed by the nowcast's changes, are tested on
the notifier (Tests/RainDaemonTests/DesktopNotifierTests.swift)."""
import json
import os
import pathlib
import shutil
import struct
import subprocess
import time
import zlib

import pytest

from raindtest import FIXTURES, FakeNotifications, FixtureServer, PrivateBus, Subscriber, wait_for

needs_fakes = pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (Debian package)")


def forecast_with_alerts(directory, name, alerts, begins=None):
    """A copy of the Boston fixture with `alerts` (severity, uri, title), each
    running from an hour ago for a day, so none has ended; `begins`: the
    uris of those that begin in two hours instead (upcoming)."""
    data = json.loads((FIXTURES / "pirateweather-forecast-boston-si.json").read_text())
    now = int(time.time())
    data["alerts"] = [{"title": title, "regions": ["Suffolk"], "severity": severity,
                       "time": now + 7200 if uri in (begins or ()) else now - 3600,
                       "expires": now + 86400, "description": f"{title} <b>now</b>", "uri": uri}
                      for severity, uri, title in alerts]
    (directory / name).write_text(json.dumps(data))
    return now


def until(moment, zone="Europe/Paris"):
    """An alert's end as raind writes it in the place's time: "until Wed 3 Dec 07:00"."""
    import datetime
    import zoneinfo
    local = datetime.datetime.fromtimestamp(moment, zoneinfo.ZoneInfo(zone))
    return f"until {local:%a} {local.day} {local:%b %H:%M}"


def restart_with(daemon, alert_server, name):
    """raind restarted without its forecast cache (so the next fetch reports the
    alerts anew) but with its record of what was shown, served `name`. It
    is stopped only once what it showed is recorded with the server's ids
    (the server answers Notify after the test has read the call)."""
    record = daemon.cache_home / "raind" / "notifications.json"

    def recorded():
        entries = json.loads(record.read_text())["alerts"] if record.exists() else []
        return entries and all(entry["notification"] for entry in entries)
    wait_for(recorded, what="what was shown recorded with the server's ids")
    daemon.stop()
    for cached in (daemon.cache_home / "raind" / "forecasts").iterdir():
        cached.unlink()
    alert_server.reset()
    alert_server.script(path_prefix="/forecast/", file=name, count=-1)
    daemon.start()


@pytest.fixture
def alert_server(tmp_path):
    directory = tmp_path / "fixtures"
    directory.mkdir()
    forecast_with_alerts(directory, "severe.json", [("Severe", "urn:x", "Winter Storm Warning")])
    forecast_with_alerts(directory, "extreme.json", [("Extreme", "urn:x", "Winter Storm Warning")])
    forecast_with_alerts(directory, "more.json", [("Extreme", "urn:x", "Winter Storm Warning"),
                                                  ("Moderate", "urn:y", "Wind Advisory"),
                                                  ("Severe", "urn:w", "Flood Warning")])
    server = FixtureServer(routes=[("/forecast/", "severe.json")], directory=directory)
    yield server
    server.stop()


def pirate_config(server, key):
    return f"[Provider]\nName=pirateweather\nBaseURL={server.url}\nApiKeyFile={key}\nTimeoutSec=3\n"


@needs_fakes
def test_alert_is_shown_once_an_upgrade_replaces_it_and_a_restart_shows_nothing_again(
        daemon_factory, alert_server, tmp_path):
    bus = PrivateBus()
    server = FakeNotifications(bus)
    key = tmp_path / "api-key"
    key.write_text("k3y-0123456789\n")
    env = {"DBUS_SESSION_BUS_ADDRESS": bus.address}
    try:
        daemon = daemon_factory(config=pirate_config(alert_server, key), extra_env=env)
        daemon.ctl("add", "Paris", check=True)
        first = server.next()
        assert first["call"] == "Notify" and first["app_name"] == "raind" and first["replaces_id"] == 0
        assert first["summary"] == "Winter Storm Warning — Paris"
        assert first["body"].startswith("Severe alert for Paris, Ile-de-France, France: Winter Storm Warning &lt;b&gt;now")
        assert first["urgency"] == 2
        record = daemon.cache_home / "raind" / "notifications.json"
        wait_for(lambda: record.exists() and json.loads(record.read_text())["alerts"][0]["notification"] == first["id"],
                 what="the shown alert recorded with the server's id")

        # Restarted without its forecast cache (so the next fetch reports the alerts
        # anew) but with its record of what was shown: the upgrade replaces the first.
        daemon.stop()
        for cached in (daemon.cache_home / "raind" / "forecasts").iterdir():
            cached.unlink()
        alert_server.script(path_prefix="/forecast/", file="extreme.json", count=-1)
        daemon.start()
        upgrade = server.next()
        assert upgrade["replaces_id"] == first["id"] and upgrade["id"] == first["id"]
        assert upgrade["body"].startswith("Extreme alert for Paris")

        # The same alert again, one below the minimum and one new: only the new one shows.
        daemon.stop()
        for cached in (daemon.cache_home / "raind" / "forecasts").iterdir():
            cached.unlink()
        alert_server.reset()
        alert_server.script(path_prefix="/forecast/", file="more.json", count=-1)
        daemon.start()
        new = server.next()
        assert new["summary"] == "Flood Warning — Paris" and new["replaces_id"] == 0
        assert sorted(entry["key"] for entry in json.loads(record.read_text())["alerts"]) == ["urn:w", "urn:x"]
    finally:
        server.stop()
        bus.stop()


@needs_fakes
def test_without_a_notification_server_it_is_said_once(daemon_factory, alert_server, tmp_path):
    bus = PrivateBus()
    key = tmp_path / "api-key"
    key.write_text("k3y-0123456789\n")
    alert_server.script(path_prefix="/forecast/", file="more.json", count=-1)
    try:
        daemon = daemon_factory(config=pirate_config(alert_server, key),
                                extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        sub = Subscriber(daemon, events=["AlertsChanged"])
        daemon.ctl("add", "Paris", check=True)
        sub.until("AlertsChanged")
        wait_for(lambda: "no notification server" in daemon.read_log(), what="the log line")
        daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
        sub.until("AlertsChanged")
        # The second place's alerts went nowhere and said nothing: stop to flush the log.
        sub.stop()
        daemon.stop()
        assert daemon.read_log().count("no notification server") == 1
    finally:
        bus.stop()


@needs_fakes
def test_the_system_instance_never_notifies(daemon_factory, alert_server, tmp_path):
    bus = PrivateBus()
    server = FakeNotifications(bus)
    key = tmp_path / "api-key"
    key.write_text("k3y-0123456789\n")
    try:
        system = daemon_factory(args=("--system",), start=False, config=pirate_config(alert_server, key), extra_env={
            "RUNTIME_DIRECTORY": str(tmp_path / "sysrun"), "STATE_DIRECTORY": str(tmp_path / "lib"),
            "CACHE_DIRECTORY": str(tmp_path / "cachedir"), "CONFIGURATION_DIRECTORY": str(tmp_path / "config" / "raind"),
            "DBUS_SESSION_BUS_ADDRESS": bus.address})
        system.socket = tmp_path / "sysrun" / "raind.sock"
        system.start()
        sub = Subscriber(system, events=["AlertsChanged"])
        system.ctl("add", "Paris", check=True)
        assert sub.until("AlertsChanged")["alerts"]
        sub.stop()
        # A user instance on the same bus, fed the same alerts, is the next caller.
        user = daemon_factory(config=pirate_config(alert_server, key), extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address},
                              base=tmp_path / "user")
        user.ctl("add", "Lyon", check=True)
        call = server.next()
        assert call["summary"].endswith("— Lyon"), "nothing came from the system instance first"
        assert not (tmp_path / "cachedir" / "notifications.json").exists()
    finally:
        server.stop()
        bus.stop()


@needs_fakes
def test_alerts_new_at_once_make_one_notification_an_upgrade_replaces_it_and_their_end_closes_it(
        daemon_factory, alert_server, tmp_path):
    directory = tmp_path / "fixtures"
    now = forecast_with_alerts(directory, "three.json", [
        ("Severe", "urn:a", "Winter Storm Warning"), ("Extreme", "urn:b", "Blizzard Warning"),
        ("Severe", "urn:c", "Flood Warning"), ("Severe", "urn:u", "Ice Storm Warning")], begins=["urn:u"])
    forecast_with_alerts(directory, "upgraded.json", [
        ("Severe", "urn:a", "Winter Storm Warning"), ("Extreme", "urn:b", "Blizzard Warning"),
        ("Extreme", "urn:c", "Flood Warning")])
    forecast_with_alerts(directory, "over.json", [("Moderate", "urn:y", "Wind Advisory")])
    alert_server.script(path_prefix="/forecast/", file="three.json", count=-1)
    bus = PrivateBus()
    server = FakeNotifications(bus)
    key = tmp_path / "api-key"
    key.write_text("k3y-0123456789\n")
    try:
        daemon = daemon_factory(config=pirate_config(alert_server, key),
                                extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        daemon.ctl("add", "Paris", check=True)
        grouped = server.next()
        # One notification for the three in effect; the ice storm begins later and is not in it.
        assert grouped["call"] == "Notify" and grouped["replaces_id"] == 0
        assert grouped["summary"] == "3 warnings for Paris: Blizzard Warning, Winter Storm Warning, Flood Warning"
        end = until(now + 86400)
        assert grouped["body"] == "\n".join([f"Blizzard Warning (Extreme) {end}",
                                              f"Winter Storm Warning (Severe) {end}",
                                              f"Flood Warning (Severe) {end}"]), grouped["body"]
        assert grouped["urgency"] == 2

        restart_with(daemon, alert_server, "upgraded.json")
        upgrade = server.next()
        assert upgrade["replaces_id"] == grouped["id"] and upgrade["id"] == grouped["id"], upgrade
        assert f"Flood Warning (Extreme) {end}" in upgrade["body"].split("\n")

        restart_with(daemon, alert_server, "over.json")
        assert server.next() == {"call": "CloseNotification", "id": grouped["id"]}
        record = daemon.cache_home / "raind" / "notifications.json"
        assert json.loads(record.read_text())["alerts"] == [], "the moderate advisory is below the minimum"
    finally:
        server.stop()
        bus.stop()


needs_dunst = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("dbus-daemon", "dunst", "dunstctl", "Xvfb", "xwd")),
    reason="needs a real notification server on a virtual display: Debian packages dunst, xvfb and x11-apps")

DUNSTRC = """[global]
monitor = 0
follow = none
width = 760
height = 400
origin = top-right
offset = 10x10
font = DejaVu Sans 11
markup = full
format = "<b>%s</b>\\n%b"
word_wrap = yes
idle_threshold = 0
[urgency_low]
timeout = 0
[urgency_normal]
timeout = 0
[urgency_critical]
timeout = 0
background = "#3b1010"
foreground = "#ffffff"
frame_color = "#e06c75"
"""


def xwd_to_rgb(xwd):
    """An `xwd -root` dump (ZPixmap, 24 or 32 bits a pixel): width, height and
    its rows of RGB bytes."""
    header = struct.unpack(">25I", xwd[:100])
    size, width, height = header[0], header[4], header[5]
    byte_order, bits, stride = header[7], header[11], header[12]
    masks, colors = header[14:17], header[19]
    data = xwd[size + 12 * colors:]
    step = bits // 8
    order = "<" if byte_order == 0 else ">"

    def channel(pixel, mask):
        shift = (mask & -mask).bit_length() - 1
        return ((pixel & mask) >> shift) * 255 // (mask >> shift)
    rows = bytearray()
    for y in range(height):
        line = data[y * stride:y * stride + width * step]
        for x in range(width):
            chunk = line[x * step:x * step + step] + b"\0" * (4 - step)
            pixel = struct.unpack(order + "I", chunk if order == "<" else b"\0" * (4 - step) + chunk[:step])[0]
            rows += bytes(channel(pixel, mask) for mask in masks)
    return width, height, bytes(rows)


def png(width, height, rgb):
    """RGB rows as PNG bytes (each row behind a filter byte of 0)."""
    rows = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def png_chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + png_chunk(b"IDAT", zlib.compress(rows, 6)) + png_chunk(b"IEND", b""))


class VirtualDisplay:
    """Xvfb on a free display number (it tells which through -displayfd)."""

    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x600x24",
                                         "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as told:
            number = told.readline().strip()
        assert number, "Xvfb did not start"
        self.name = ":" + number

    def screenshot(self):
        """The screen: width, height and RGB rows."""
        dump = subprocess.run(["xwd", "-root", "-silent", "-display", self.name], capture_output=True,
                              check=True).stdout
        return xwd_to_rgb(dump)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)


@needs_dunst
def test_a_real_notification_server_shows_the_grouped_alerts_and_closes_them(daemon_factory, alert_server, tmp_path):
    """dunst on a virtual display, on the private bus: raind's grouped
    notification is shown (a screenshot is kept in the test's directory, and
    copied to $RAIND_SCREENSHOT when set), and closed when its alerts are over."""
    directory = tmp_path / "fixtures"
    now = forecast_with_alerts(directory, "three.json", [
        ("Severe", "urn:a", "Winter Storm Warning"), ("Extreme", "urn:b", "Blizzard Warning"),
        ("Severe", "urn:c", "Flood Warning")])
    forecast_with_alerts(directory, "over.json", [("Moderate", "urn:y", "Wind Advisory")])
    alert_server.script(path_prefix="/forecast/", file="three.json", count=-1)
    bus = PrivateBus()
    display = VirtualDisplay()
    rc = tmp_path / "dunstrc"
    rc.write_text(DUNSTRC)
    env = dict(os.environ, DISPLAY=display.name, DBUS_SESSION_BUS_ADDRESS=bus.address)
    dunst = subprocess.Popen(["dunst", "-config", str(rc)], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)

    def dunstctl(*args):
        result = subprocess.run(["dunstctl", *args], env=env, capture_output=True, text=True)
        return result.stdout.strip() if result.returncode == 0 else None
    try:
        wait_for(lambda: dunstctl("count", "displayed") == "0", what="dunst on the bus")
        blank = display.screenshot()
        key = tmp_path / "api-key"
        key.write_text("k3y-0123456789\n")
        daemon = daemon_factory(config=pirate_config(alert_server, key),
                                extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        daemon.ctl("add", "Paris", check=True)
        wait_for(lambda: dunstctl("count", "displayed") == "1", what="raind's notification on screen")
        shots = []
        wait_for(lambda: shots.append(display.screenshot()) or shots[-1] != blank, what="dunst drawing it")
        width, height, rgb = shots[-1]
        (tmp_path / "dunst.png").write_bytes(png(width, height, rgb))
        if os.environ.get("RAIND_SCREENSHOT"):
            pathlib.Path(os.environ["RAIND_SCREENSHOT"]).write_bytes(png(width, height, rgb))
        # dunst drew it as critical: only that urgency has this frame (DUNSTRC).
        pixels = {rgb[i:i + 3] for i in range(0, len(rgb), 3)}
        assert bytes((0xe0, 0x6c, 0x75)) in pixels, "not drawn with the critical urgency's frame"

        restart_with(daemon, alert_server, "over.json")
        wait_for(lambda: dunstctl("count", "displayed") == "0", what="the notification closed")
        history = json.loads(dunstctl("history"))["data"][0]
        assert len(history) == 1, "one notification for the three alerts"
        shown = history[0]
        assert shown["appname"]["data"] == "raind"
        assert shown["summary"]["data"] == "3 warnings for Paris: Blizzard Warning, Winter Storm Warning, Flood Warning"
        assert shown["body"]["data"].split("\n")[0] == f"Blizzard Warning (Extreme) {until(now + 86400)}"
    finally:
        dunst.terminate()
        dunst.wait(timeout=5)
        display.stop()
        bus.stop()


class UserManager:
    """A real `systemd --user` in its own mount namespace (tmpfs on
    /run/systemd, so it takes no part in the machine's), with Debian's
    dbus-user-session starting its bus at $XDG_RUNTIME_DIR/bus: the session
    whose language raind follows."""

    def __init__(self, base):
        self.run_dir = base / "run"
        (base / "home").mkdir(parents=True)
        self.run_dir.mkdir(mode=0o700)
        self.env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": str(base / "home"),
                    "XDG_RUNTIME_DIR": str(self.run_dir), "LANG": "C.UTF-8"}
        self.address = f"unix:path={self.run_dir}/bus"
        boot = "set -e; mount -t tmpfs tmpfs /run/systemd; mkdir /run/systemd/system; exec /lib/systemd/systemd --user"
        self.log = open(base / "user-manager.log", "wb")
        self.process = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c", boot],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=self.env,
                                        start_new_session=True)

        def answers():
            assert self.process.poll() is None, (base / "user-manager.log").read_text()
            return self.environment() is not None
        wait_for(answers, what="the user manager on its bus")

    def environment(self):
        result = subprocess.run(["busctl", f"--address={self.address}", "get-property", "org.freedesktop.systemd1",
                                 "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "Environment"],
                                capture_output=True, text=True, timeout=10)
        return result.stdout if result.returncode == 0 else None

    def systemctl(self, *args):
        subprocess.run(["systemctl", "--user", *args], env=self.env, check=True, capture_output=True, timeout=30)

    def stop(self):
        """Asked to exit, so it stops its bus too (a service of its own, in its own session)."""
        if self.process.poll() is None:
            subprocess.run(["systemctl", "--user", "exit"], env=self.env, capture_output=True, timeout=30)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait(timeout=30)
        self.log.close()


@pytest.mark.skipif(not (shutil.which("busctl") and os.path.exists("/usr/lib/systemd/user/dbus.socket")
                         and os.geteuid() == 0),
                    reason="needs root, systemd and dbus-user-session (Debian packages)")
def test_notifications_follow_the_language_the_session_sets_after_raind_started(
        daemon_factory, alert_server, tmp_path):
    """Issue 22, point 4: raind runs in C; the user manager's LANG, changed
    while raind runs (`systemctl --user set-environment`, as a login's
    import-environment does), is the language of the next notification."""
    from test_translations import compiled
    manager = UserManager(tmp_path / "session")
    server = None
    try:
        server = FakeNotifications(manager)
        key = tmp_path / "api-key"
        key.write_text("k3y-0123456789\n")
        env = {"DBUS_SESSION_BUS_ADDRESS": manager.address, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "",
               "RAIND_LOCALE_DIR": compiled(tmp_path)}
        daemon = daemon_factory(config=pirate_config(alert_server, key), extra_env=env)
        daemon.ctl("add", "Paris", check=True)
        first = server.next()
        assert first["body"].startswith("Severe alert for Paris"), first

        # The same raind, a new place whose forecast brings its alert.
        manager.systemctl("set-environment", "LANG=de_DE.UTF-8")
        daemon.ctl("add", "Berlin", check=True)
        new = server.next()
        assert new["summary"] == "Winter Storm Warning — Berlin", new
        assert new["body"].startswith("Warnung (Schwer) für Berlin"), new
        # Its own replies stay in C.
        assert "Orte:" not in daemon.ctl("status", check=True).stdout
    finally:
        if server:
            server.stop()
        manager.stop()
