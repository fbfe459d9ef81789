"""Official alerts through the real daemon: each place's alert service
(chosen by its country) is polled at `[Alerts] BaseURL=`, here the fixture
server answering as the NWS, and what it says is served with the place's
forecast, whichever provider gave that."""
import json
import re
import os
import pathlib
import shutil
import signal
import time

import pytest

from raindtest import FIXTURES, RECORDED_AT, FixtureServer, wait_for

FORECAST = "openmeteo-forecast-paris-unixtime.json"


def feature(identifier, event, severity, onset, ends, message_type="Alert", references=()):
    """One alert as the NWS's /alerts/active writes it."""
    def iso(moment):
        return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(moment))
    return {
        "id": f"https://api.weather.gov/alerts/{identifier}",
        "type": "Feature",
        "geometry": None,
        "properties": {
            "id": identifier, "areaDesc": "Greater Portland Metro Area",
            "sent": iso(onset - 3600), "effective": iso(onset - 3600), "onset": iso(onset),
            "expires": iso(ends), "ends": iso(ends), "status": "Actual", "messageType": message_type,
            "category": "Met", "severity": severity, "certainty": "Likely", "urgency": "Expected",
            "event": event, "headline": f"{event} issued for the test", "description": f"{event} in the test area.",
            "instruction": "Stay where the test is.", "response": "Prepare",
            "references": [{"identifier": reference} for reference in references],
        },
    }


@pytest.fixture
def service(tmp_path):
    """The fixture server with a forecast and an alert feed written now."""
    directory = tmp_path / "answers"
    directory.mkdir()
    shutil.copy(FIXTURES / FORECAST, directory / FORECAST)
    now = time.time()
    flood = feature("NWS-TEST-1", "Flood Warning", "Severe", now - 3600, now + 3 * 3600)
    # What a service may send: HTML and entities, and a control code.
    flood["properties"]["description"] = "Flood <b>Warning</b> &amp; more\u0007 in the <i>test</i> area."
    feed = {"type": "FeatureCollection", "features": [
        flood,
        feature("NWS-TEST-2", "Wind Advisory", "Moderate", now + 2 * 3600, now + 5 * 3600),
        feature("NWS-TEST-0", "Heat Advisory", "Minor", now - 7200, now - 60),
    ]}
    (directory / "nws-alerts.json").write_text(json.dumps(feed))
    server = FixtureServer(
        routes=[("/v1/forecast", FORECAST), ("/alerts/active", "nws-alerts.json")],
        directory=directory, present={FORECAST: RECORDED_AT[FORECAST]})
    yield server
    server.stop()


def start(daemon_factory, server):
    config = (f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
              f"[Alerts]\nBaseURL={server.url}\n")
    return daemon_factory(config=config)


def served(daemon, place_id):
    return daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"]


def test_a_us_place_gets_the_nws_alerts_with_an_open_meteo_forecast(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "45.52,-122.68", "--name", "Portland", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]

    def polled():
        forecast = served(daemon, place_id)
        return forecast if forecast and (forecast.get("alertService") or {}).get("checkedAt") else None
    forecast = wait_for(polled, what="the place's alerts polled")
    assert forecast["provider"] == "open-meteo"
    assert forecast["alertService"]["source"] == "nws" and forecast["alertService"]["problem"] is None
    assert "weather.gov" in forecast["alertService"]["attribution"]["url"]
    # In effect first, then upcoming; the one that ended is gone.
    assert [alert["id"] for alert in forecast["alerts"]] == ["NWS-TEST-1", "NWS-TEST-2"], forecast["alerts"]
    flood, wind = forecast["alerts"]
    assert flood["source"] == "nws" and flood["severity"] == "Severe" and flood["event"] == "Flood Warning"
    assert wind["onset"] > time.time() + 3600
    # Shown as plain text, whatever the service wrote.
    assert flood["description"] == "Flood Warning & more in the test area.", flood["description"]
    # One request for the feed, with the point on the NWS's grid.
    asked = [target for target in service.stats()["targets"] if target.startswith("/alerts/")]
    assert asked == ["/alerts/active?point=45.52,-122.68"], asked
    # What the polling costs, beside the forecasts' counts and apart from them.
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    [nws] = status["alertSources"]
    assert nws["name"] == "nws" and nws["places"] == [place_id] and nws["pollingSeconds"] == 300
    assert nws["requestsPerDay"] == 288 and nws["requestsToday"] == 1 and nws["documentsToday"] == 0
    # Each place's service is in the status itself, as GetForecast gives it: one call for raindctl status.
    assert status["placeAlertServices"] == [{"id": place_id, "service": forecast["alertService"]}], status
    # A row past 80 columns continues under its value; read it as one line.
    shown = re.sub(r"\n +", " ", daemon.ctl("status", check=True).stdout)
    assert "Alert polling:  nws: 1 place every 5 min, about 288 requests a day; 1 of 576 today" in shown, shown
    # An alert in effect: the service's own rate, and why (docs/ALERTS.md, "Polling that follows the weather").
    assert nws["paces"] == [{"place": place_id, "pollingSeconds": 300, "fast": True, "reason": "alertInEffect",
                             "at": nws["paces"][0]["at"], "worstDelaySeconds": 480}], nws["paces"]
    assert (f"Alert pace:     {place_id}: every 5 min (an alert is in effect); warnings read within 8 min"
            in shown), shown


def test_places_asked_at_one_pace_for_one_reason_share_a_status_row(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "45.52,-122.68", "--name", "Portland", check=True)
    daemon.ctl("add", "--coords", "45.49,-122.80", "--name", "Beaverton", check=True)
    ids = [place["id"] for place in daemon.client().call("ListLocations")["parameters"]["locations"]]
    for place_id in ids:
        wait_for(lambda: (served(daemon, place_id) or {}).get("alerts"), what="the alerts")
    shown = re.sub(r"\n +", " ", daemon.ctl("status", check=True).stdout)
    assert (f"Alert pace:     {', '.join(ids)}: every 5 min (an alert is in effect); warnings read within 8 min"
            in shown), shown


def test_a_restart_within_the_interval_plans_the_same_requests_before_asking(daemon_factory, service):
    """Started again minutes after a poll, raind waits for the interval's end
    to ask; what the polling will cost is the same number meanwhile."""
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "45.52,-122.68", "--name", "Portland", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: (served(daemon, place_id) or {}).get("alerts"), what="the alerts")
    daemon.stop()
    asked = [target for target in service.stats()["targets"] if target.startswith("/alerts/")]
    daemon.start()
    [nws] = daemon.client().call("GetStatus")["parameters"]["status"]["alertSources"]
    assert nws["places"] == [place_id] and nws["requestsPerDay"] == 288, nws
    assert [target for target in service.stats()["targets"] if target.startswith("/alerts/")] == asked


def test_a_place_no_service_covers_says_so(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "35.68,139.69", "--name", "Tokyo", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    forecast = wait_for(lambda: served(daemon, place_id), what="a forecast")
    assert forecast["alertService"] == {
        "source": None, "attribution": None, "checkedAt": None,
        "problem": "no official alert service for this place", "wording": None, "unplaced": None, "unread": None}
    assert not any(target.startswith("/alerts/") for target in service.stats()["targets"])


def test_a_failing_service_keeps_the_alerts_and_says_why(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "45.52,-122.68", "--name", "Portland", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: (served(daemon, place_id) or {}).get("alerts"), what="the alerts")
    service.script(path_prefix="/alerts/", count=-1, mode="status", status=503)
    # A reload asks again at once.
    daemon.process.send_signal(signal.SIGHUP)
    def failed():
        forecast = served(daemon, place_id)
        return forecast if forecast["alertService"]["problem"] else None
    forecast = wait_for(failed, what="the failed poll")
    assert forecast["alertService"]["problem"] == "HTTP 503"
    assert [alert["id"] for alert in forecast["alerts"]] == ["NWS-TEST-1", "NWS-TEST-2"]


def test_after_a_restart_the_alerts_in_force_are_served_before_the_service_answers(daemon_factory, service):
    """What the service said is kept in the cache (alerts/<id>.json): a raind
    restarted while the service fails serves the warnings at once; a file
    that breaks the rules is discarded with a warning, never served."""
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "45.52,-122.68", "--name", "Portland", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: (served(daemon, place_id) or {}).get("alerts"), what="the alerts")
    kept = daemon.cache_home / "raind" / "alerts" / f"{place_id}.json"
    saved = json.loads(kept.read_text())
    assert saved["version"] == 1 and saved["service"]["source"] == "nws"
    assert [message["id"] for message in saved["messages"]] == ["NWS-TEST-1", "NWS-TEST-2", "NWS-TEST-0"]

    daemon.stop()
    service.script(path_prefix="/alerts/", count=-1, mode="status", status=503)
    # Answered an hour before the restart (a restart within the interval asks when it ends, not at once).
    answered = json.loads(kept.read_text())
    answered["service"]["checkedAt"] -= 3600
    kept.write_text(json.dumps(answered))
    daemon.start()
    forecast = served(daemon, place_id)
    assert [alert["id"] for alert in forecast["alerts"]] == ["NWS-TEST-1", "NWS-TEST-2"], forecast["alerts"]
    assert forecast["alertService"]["source"] == "nws"
    failed = wait_for(lambda: (served(daemon, place_id)["alertService"]["problem"] and served(daemon, place_id)),
                      what="the failed poll")
    assert [alert["id"] for alert in failed["alerts"]] == ["NWS-TEST-1", "NWS-TEST-2"]

    daemon.stop()
    saved["messages"][0]["end"] = 1e300
    kept.write_text(json.dumps(saved))
    daemon.start()
    assert served(daemon, place_id)["alerts"] == [], "a file that breaks the rules is not served"
    assert not kept.exists()
    log = daemon.read_log()
    assert f"alerts cache file {kept} is corrupt (messages[0].end: " in log, log


def dwd_service(directory):
    """The fixture server answering as Bright Sky's /alerts (the DWD's
    warnings in German and English), the warning in force now."""
    directory.mkdir()
    shutil.copy(FIXTURES / FORECAST, directory / FORECAST)
    answer = json.loads((FIXTURES / "alerts" / "brightsky-alerts-berlin-mitte.json").read_text())
    now = time.time()
    for alert in answer["alerts"]:
        alert["effective"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now - 3600))
        alert["onset"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now - 1800))
        alert["expires"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now + 6 * 3600))
    (directory / "dwd.json").write_text(json.dumps(answer))
    return FixtureServer(routes=[("/v1/forecast", FORECAST), ("/alerts", "dwd.json")], directory=directory,
                         present={FORECAST: RECORDED_AT[FORECAST]})


@pytest.mark.skipif(not (shutil.which("busctl") and shutil.which("unshare")
                         and pathlib.Path("/usr/lib/systemd/user/dbus.socket").exists() and os.geteuid() == 0),
                    reason="needs root, systemd and dbus-user-session (Debian packages)")
def test_the_user_instance_reads_alerts_in_the_sessions_language(daemon_factory, tmp_path):
    """Issue 32, point 5: raind runs under C, the session's user manager
    says German: the DWD's warning is read in German; the session changing
    to English (`systemctl --user set-environment`) is followed at the next
    round of polls (here a reload's)."""
    from test_notifications import UserManager
    manager = UserManager(tmp_path / "session")
    server = dwd_service(tmp_path / "answers")
    try:
        manager.systemctl("set-environment", "LANG=de_DE.UTF-8")
        env = {"DBUS_SESSION_BUS_ADDRESS": manager.address, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
        config = (f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
                  f"[Alerts]\nBaseURL={server.url}\n")
        daemon = daemon_factory(config=config, extra_env=env)
        daemon.ctl("add", "--coords", "52.52,13.41", "--name", "Berlin", check=True)

        def headline(wanted):
            def read():
                alerts = (served(daemon, "berlin-de") or {}).get("alerts") or []
                return alerts and alerts[0]["title"] == wanted
            return read
        wait_for(headline("Amtliche WARNUNG vor FROST"), what="the German text")
        manager.systemctl("set-environment", "LANG=en_GB.UTF-8")
        daemon.process.send_signal(signal.SIGHUP)
        wait_for(headline("Official WARNING of FROST"), what="the English text")
    finally:
        server.stop()
        manager.stop()
