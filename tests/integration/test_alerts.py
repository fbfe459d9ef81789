"""Alerts where a person reads them: `raindctl now` lists those in effect and
those to come first, templates count them and tell the highest severity and
its end, waybar's class carries that severity, `--json` has the alert
fields. The alerts come from the fixture server in Pirate Weather's shape:
one in effect, one that begins in two hours, one that has ended."""
import datetime
import json
import time
import zoneinfo

import pytest

from raindtest import FIXTURES, FixtureServer, wait_for

# The Boston recording's zone: the forecast's, in which `now` shows its times.
ZONE = zoneinfo.ZoneInfo(json.loads((FIXTURES / "pirateweather-forecast-boston-si.json").read_text())["timezone"])


def local(moment):
    return datetime.datetime.fromtimestamp(moment, ZONE)


def moment(seconds):
    """As raind writes a time in `now`: "Wed 3 Dec 07:00"."""
    time_ = local(seconds)
    return f"{time_:%a} {time_.day} {time_:%b %H:%M}"


@pytest.fixture
def alerts_daemon(daemon_factory, tmp_path):
    directory = tmp_path / "fixtures"
    directory.mkdir()
    data = json.loads((FIXTURES / "pirateweather-forecast-boston-si.json").read_text())
    now = int(time.time())
    data["alerts"] = [
        {"title": "Ice Storm Warning", "regions": ["Suffolk"], "severity": "Moderate", "time": now + 7200,
         "expires": now + 86400, "description": "Ice", "uri": "urn:ice"},
        {"title": "Dense Fog Advisory", "regions": ["Suffolk"], "severity": "Minor", "time": now - 7200,
         "expires": now - 3600, "description": "Fog", "uri": "urn:fog"},
        {"title": "Winter Storm Warning", "regions": ["Suffolk"], "severity": "Severe", "time": now - 3600,
         "expires": now + 86400, "description": "Snow", "uri": "urn:snow"},
    ]
    (directory / "alerts.json").write_text(json.dumps(data))
    server = FixtureServer(routes=[("/forecast/", "alerts.json")], directory=directory)
    key = tmp_path / "api-key"
    key.write_text("k3y-0123456789\n")
    daemon = daemon_factory(
        config=f"[Provider]\nName=pirateweather\nBaseURL={server.url}\nApiKeyFile={key}\nTimeoutSec=3\n")
    daemon.ctl("add", "Paris", check=True)
    wait_for(lambda: daemon.client().call("GetForecast", {})["parameters"]["forecast"] is not None,
             what="the forecast")
    yield daemon, now
    server.stop()


def test_now_lists_the_alert_in_effect_then_the_one_to_come_first(alerts_daemon):
    daemon, now = alerts_daemon
    lines = daemon.ctl("now", check=True).stdout.splitlines()
    assert lines[:3] == [
        "Paris, Ile-de-France, France",
        f"Alert (Severe): Winter Storm Warning until {moment(now + 86400)}",
        f"Alert (Moderate): Ice Storm Warning from {moment(now + 7200)} until {moment(now + 86400)}",
    ], lines
    assert not any("Fog" in line for line in lines), "an alert that has ended is not shown"


def test_templates_and_waybar_carry_the_alerts_in_effect(alerts_daemon):
    daemon, now = alerts_daemon
    line = daemon.ctl("now", "--format", "{alert_count}|{alert_severity}|{alert_until}|{alert}",
                      check=True).stdout.strip()
    end = local(now + 86400)
    # The recording's hours are long past: the line says it is stale after the fields.
    assert line.removesuffix(" (stale)") == f"1|severe|{end:%a %H:%M}|Winter Storm Warning", line
    waybar = json.loads(daemon.ctl("now", "--format", "waybar", check=True).stdout)
    assert "alert" in waybar["class"] and "alert-severe" in waybar["class"], waybar["class"]
    assert waybar["tooltip"].startswith("⚠ Winter Storm Warning"), waybar["tooltip"]


def test_json_has_the_alert_fields(alerts_daemon):
    daemon, _ = alerts_daemon
    reply = json.loads(daemon.ctl("now", "--json", check=True).stdout)
    forecast = reply["forecast"]
    assert "alertService" in forecast
    for alert in forecast["alerts"]:
        assert {"onset", "source", "approximate", "event", "urgency", "certainty", "messageType",
                "references", "instruction", "id"} <= alert.keys(), alert
