"""A warning in force is always notified: the real raind polling the NWS
(the fixture server) beside an Open-Meteo forecast, showing what it polled
on tests/fakes/fake_notifications.py on a private bus, and on a real
server, dunst under Xvfb. The fixture server holds each answer until the
test releases it (`mode=hold`), so the test, not the clock, decides
whether the forecast or the alert service answers first."""
import json
import os
import pathlib
import shutil
import subprocess
import time

import pytest

from raindtest import FIXTURES, RECORDED_AT, FakeNotifications, FixtureServer, PrivateBus, wait_for
from test_official_alerts import FORECAST, feature

needs_fakes = pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (Debian package)")

# A place no alert service covers, kept selected so the places under test can be removed.
TOKYO = {"latitude": 35.68, "longitude": 139.69, "name": "Tokyo"}


@pytest.fixture
def service(tmp_path):
    """The forecast, and an NWS feed with a Severe flood warning in force."""
    directory = tmp_path / "answers"
    directory.mkdir()
    shutil.copy(FIXTURES / FORECAST, directory / FORECAST)
    now = time.time()
    write_feed(directory, [feature("NWS-FLOOD-1", "Flood Warning", "Severe", now - 3600, now + 6 * 3600)])
    server = FixtureServer(
        routes=[("/v1/forecast", FORECAST), ("/alerts/active", "nws-alerts.json")],
        directory=directory, present={FORECAST: RECORDED_AT[FORECAST]})
    server.directory = directory
    yield server
    server.stop()


def write_feed(directory, features):
    (directory / "nws-alerts.json").write_text(json.dumps({"type": "FeatureCollection", "features": features}))


def config(server):
    return (f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
            f"[Alerts]\nBaseURL={server.url}\n[Notifications]\nRainSoon=no\n")


def add(daemon, latitude, longitude, name):
    reply = daemon.client().call("AddLocation", {"latitude": latitude, "longitude": longitude, "name": name})
    return reply["parameters"]["location"]["id"]


def forecast_of(daemon, place_id):
    return daemon.client().call("GetForecast", {"id": place_id})["parameters"].get("forecast")


def nws_requests(daemon):
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    return sum(source["requestsToday"] for source in status.get("alertSources") or [] if source["name"] == "nws")


def next_notify(server, timeout=10):
    """The next Notify call, past the CloseNotification calls of places removed."""
    deadline = time.monotonic() + timeout
    while True:
        call = server.next(timeout=max(0.1, deadline - time.monotonic()))
        if call["call"] == "Notify":
            return call


def add_in_order(daemon, service, name, latitude, longitude, first, gates):
    """Adds the place with both its forecast and its alert poll held at the
    fixture server, answers `first` ("forecast" or "alerts") and waits until
    raind has kept it, then answers the other. Returns the place's id."""
    forecast_gate, alerts_gate = gates
    service.script(path_prefix="/v1/forecast", mode="hold", gate=forecast_gate, count=1)
    service.script(path_prefix="/alerts/", mode="hold", gate=alerts_gate, count=1)
    asked = nws_requests(daemon)
    place_id = add(daemon, latitude, longitude, name)
    def waiting():
        return {gate: count for gate, count in service.stats()["held"].items() if count}
    wait_for(lambda: waiting() == {forecast_gate: 1, alerts_gate: 1}, what="both requests held")
    if first == "forecast":
        service.release(forecast_gate)
        wait_for(lambda: forecast_of(daemon, place_id) is not None, what="the forecast kept")
        service.release(alerts_gate)
    else:
        service.release(alerts_gate)
        # Counted when answered, and kept in the same turn of the loop.
        wait_for(lambda: nws_requests(daemon) == asked + 1, what="the alert poll kept")
        assert forecast_of(daemon, place_id) is None, "the forecast came first after all"
        service.release(forecast_gate)
    return place_id


@needs_fakes
def test_a_place_added_while_a_warning_is_in_force_is_notified_whichever_answer_comes_first(daemon_factory, service):
    """The same raind, a place added and removed 20 times, the forecast
    answering first every other time: 20 of 20 notified."""
    bus = PrivateBus()
    notifications = FakeNotifications(bus)
    try:
        daemon = daemon_factory(config=config(service), extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        add(daemon, **TOKYO)
        notified = {"forecast": 0, "alerts": 0}
        for round in range(20):
            first = "forecast" if round % 2 == 0 else "alerts"
            name = f"Portland {round}"
            # Points 0.01° apart: each its own question, none answered from an earlier one's.
            place_id = add_in_order(daemon, service, name, 45.30 + round / 100, -122.68, first,
                                    (f"forecast-{round}", f"alerts-{round}"))
            try:
                call = next_notify(notifications, timeout=5)
            except AssertionError:
                call = None
            if call is not None:
                assert call["summary"] == f"Flood Warning issued for the test — {name}", call
                notified[first] += 1
            served = forecast_of(daemon, place_id)
            assert [alert["id"] for alert in served["alerts"]] == ["NWS-FLOOD-1"], served["alerts"]
            daemon.client().call("RemoveLocation", {"id": place_id})
        assert notified == {"forecast": 10, "alerts": 10}, notified
    finally:
        notifications.stop()
        bus.stop()


def answered_long_ago(daemon, place_id):
    """As if the service last answered an hour before this start: a restart
    within its interval would ask it only when the interval ends."""
    kept = daemon.cache_home / "raind" / "alerts" / f"{place_id}.json"
    saved = json.loads(kept.read_text())
    saved["service"]["checkedAt"] -= 3600
    kept.write_text(json.dumps(saved))


@needs_fakes
def test_alerts_in_force_at_start_never_shown_are_shown_and_a_restart_shows_them_once(
        daemon_factory, service, tmp_path):
    """Polled while nobody served notifications, a warning is shown when
    raind next starts, from what it kept, before its service answers; the
    next restart does not show it again (notifications.json)."""
    bus = PrivateBus()
    notifications = None
    try:
        daemon = daemon_factory(config=config(service), extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        place_id = add_in_order(daemon, service, "Portland", 45.52, -122.68, "forecast", ("f0", "a0"))
        wait_for(lambda: "no notification server" in daemon.read_log(), what="raind finding no server")
        daemon.stop()

        notifications = FakeNotifications(bus)
        # The service does not answer: what is shown comes from what raind kept.
        service.script(path_prefix="/alerts/", mode="hold", gate="a1", count=-1)
        answered_long_ago(daemon, place_id)
        daemon.start()
        call = next_notify(notifications)
        assert call["summary"] == "Flood Warning issued for the test — Portland" and call["replaces_id"] == 0, call
        assert service.held("a1") == 1, "shown before the service answered"
        record = daemon.cache_home / "raind" / "notifications.json"
        wait_for(lambda: json.loads(record.read_text())["alerts"][0]["notification"] == call["id"],
                 what="the alert recorded as shown")
        service.release("a1")
        daemon.stop()

        # Restarted: the flood is not shown again; the new warning the poll
        # at start brings is the next call.
        service.reset()
        now = time.time()
        write_feed(service.directory, [
            feature("NWS-FLOOD-1", "Flood Warning", "Severe", now - 3600, now + 6 * 3600),
            feature("NWS-WIND-1", "High Wind Warning", "Severe", now - 60, now + 6 * 3600)])
        answered_long_ago(daemon, place_id)
        daemon.start()
        call = next_notify(notifications)
        assert call["summary"] == "High Wind Warning issued for the test — Portland" and call["replaces_id"] == 0, call
        assert [entry["key"] for entry in json.loads(record.read_text())["alerts"]] == ["NWS-FLOOD-1", "NWS-WIND-1"]
        assert forecast_of(daemon, place_id)["alerts"]
    finally:
        if notifications:
            notifications.stop()
        bus.stop()


@needs_fakes
def test_a_notification_server_that_appears_later_shows_the_alerts_in_force(daemon_factory, service):
    bus = PrivateBus()
    notifications = None
    try:
        daemon = daemon_factory(config=config(service), extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        add_in_order(daemon, service, "Portland", 45.52, -122.68, "alerts", ("f0", "a0"))
        wait_for(lambda: "no notification server" in daemon.read_log(), what="raind finding no server")
        notifications = FakeNotifications(bus)
        call = next_notify(notifications)
        assert call["summary"] == "Flood Warning issued for the test — Portland", call
    finally:
        if notifications:
            notifications.stop()
        bus.stop()


@needs_fakes
def test_the_first_air_notification_comes_with_the_air_not_the_forecast(daemon_factory):
    air = "openmeteo-airquality-paris-poor.json"
    present = dict(RECORDED_AT)
    present[air] = RECORDED_AT[FORECAST]
    server = FixtureServer(routes=[("/v1/forecast", FORECAST), ("/v1/air-quality", air)], present=present)
    bus = PrivateBus()
    notifications = FakeNotifications(bus)
    try:
        config = (f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
                  f"[Air]\nBaseURL={server.url}\n[Notifications]\nRainSoon=no\n")
        daemon = daemon_factory(config=config, extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        server.script(path_prefix="/v1/forecast", mode="hold", gate="forecast", count=1)
        add(daemon, 48.8534, 2.3488, "Paris")
        call = next_notify(notifications)
        assert call["summary"] == "Air quality at Paris: Poor (European AQI 74)", call
        assert server.held("forecast") == 1, "shown while the forecast was still on its way"
        server.release("forecast")
    finally:
        notifications.stop()
        bus.stop()
        server.stop()


needs_dunst = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("dbus-daemon", "dunst", "dunstctl", "Xvfb", "xwd")),
    reason="needs a real notification server on a virtual display: Debian packages dunst, xvfb and x11-apps")


@needs_dunst
def test_dunst_shows_an_alert_at_add_and_one_at_start(daemon_factory, service, tmp_path):
    """dunst on a virtual display: a place added while its warning is in
    force, the forecast answering first, is shown; a place added while dunst
    was not running is shown when raind next starts with dunst there.
    Screenshots are kept in the test's directory (and copied to
    $RAIND_SCREENSHOT_DIR when set)."""
    from test_notifications import DUNSTRC, VirtualDisplay, png
    bus = PrivateBus()
    display = VirtualDisplay()
    rc = tmp_path / "dunstrc"
    rc.write_text(DUNSTRC)
    env = dict(os.environ, DISPLAY=display.name, DBUS_SESSION_BUS_ADDRESS=bus.address)

    def start_dunst():
        process = subprocess.Popen(["dunst", "-config", str(rc)], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        wait_for(lambda: dunstctl("count", "displayed") == "0", what="dunst on the bus")
        return process

    def dunstctl(*args):
        result = subprocess.run(["dunstctl", *args], env=env, capture_output=True, text=True)
        return result.stdout.strip() if result.returncode == 0 else None

    def keep_screenshot(name, blank):
        shots = []
        wait_for(lambda: shots.append(display.screenshot()) or shots[-1] != blank, what="dunst drawing it")
        width, height, rgb = shots[-1]
        (tmp_path / name).write_bytes(png(width, height, rgb))
        if os.environ.get("RAIND_SCREENSHOT_DIR"):
            (pathlib.Path(os.environ["RAIND_SCREENSHOT_DIR"]) / name).write_bytes(png(width, height, rgb))

    dunst = start_dunst()
    try:
        blank = display.screenshot()
        daemon = daemon_factory(config=config(service), extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        add(daemon, **TOKYO)
        add_in_order(daemon, service, "Portland", 45.52, -122.68, "forecast", ("f0", "a0"))
        wait_for(lambda: dunstctl("count", "displayed") == "1", what="the alert at add on screen")
        keep_screenshot("dunst-alert-at-add.png", blank)

        # dunst goes away; a place added meanwhile is shown at raind's next start.
        dunst.terminate()
        dunst.wait(timeout=5)
        add_in_order(daemon, service, "Salem", 44.94, -123.04, "forecast", ("f1", "a1"))
        wait_for(lambda: "no notification server" in daemon.read_log(), what="raind finding no server")
        daemon.stop()
        dunst = start_dunst()
        blank = display.screenshot()
        service.script(path_prefix="/alerts/", mode="hold", gate="a2", count=-1)
        daemon.start()
        wait_for(lambda: dunstctl("count", "displayed") == "1", what="the alert at start on screen")
        keep_screenshot("dunst-alert-at-start.png", blank)
        # Closed, it moves to dunst's history, which tells what it was.
        dunstctl("close-all")
        wait_for(lambda: dunstctl("count", "history") == "1", what="the notification in dunst's history")
        history = json.loads(dunstctl("history"))["data"][0]
        assert [shown["summary"]["data"] for shown in history] == ["Flood Warning issued for the test — Salem"], history
        service.release("a2")
    finally:
        dunst.terminate()
        dunst.wait(timeout=5)
        display.stop()
        bus.stop()
