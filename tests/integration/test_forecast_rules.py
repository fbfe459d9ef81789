"""The rules raind shows every provider's forecast by, end to end: the real
raind fetches answers made from the recorded Paris answer (Open-Meteo) from
the fixture server, placed in time around the present moment, and raindctl's
views, templates, JSON and waybar line are read.

1. Without a current block, the hour in progress is "now", marked as a forecast.
2. A forecast whose every time has passed is stale, however recently received.
3. Today's high, low and sun are the place's today's, or unknown.
4. Unknown stays unknown: an undocumented weather code is the `unknown` icon,
   a missing chance of rain is "–"."""
import json
import time

import pytest

from raindtest import FIXTURES, RECORDED_AT, FixtureServer, hours_since, moved_in_time, wait_for

PARIS = "48.8534,2.3488"
RECORDING = "openmeteo-forecast-paris-unixtime.json"
RECORDED = RECORDED_AT[RECORDING]


def recording():
    return json.loads((FIXTURES / RECORDING).read_text())


def without_current(answer):
    return {key: value for key, value in answer.items() if key not in ("current", "current_units")}


@pytest.fixture
def serve(tmp_path, daemon_factory):
    """serve(answer) -> a raind with Paris saved and `answer` fetched."""
    directory = tmp_path / "answers"
    directory.mkdir()
    servers = []

    def start(answer):
        (directory / "answer.json").write_text(json.dumps(answer))
        server = FixtureServer(routes=[("/v1/forecast", "answer.json")], directory=directory, present={})
        servers.append(server)
        base = tmp_path / f"raind-{len(servers)}"
        base.mkdir()
        daemon = daemon_factory(
            config=f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n", base=base)
        daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
        wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"], what="the forecast")
        return daemon

    yield start
    for server in servers:
        server.stop()


def hour_in_progress(forecast, now):
    return next(hour for hour in forecast["hourly"] if hour["time"] <= now < hour["time"] + 3600)


def test_without_a_current_block_every_view_shows_the_hour_in_progress_as_a_forecast(serve):
    daemon = serve(moved_in_time(without_current(recording()), hours_since(RECORDED), RECORDED))
    view = daemon.ctl("now", check=True).stdout
    lines = view.splitlines()
    assert "No current conditions" not in view, view
    assert lines[1].startswith("Forecast for ") and lines[1][-11:-6].endswith(":00"), view

    as_json = json.loads(daemon.ctl("now", "--json", check=True).stdout)
    conditions = as_json["conditions"]
    hour = hour_in_progress(as_json["forecast"], time.time())
    assert conditions["observed"] is False and conditions["time"] == hour["time"], conditions
    assert conditions["temperature"] == hour["temperature"]
    assert as_json["forecast"]["current"] is None, "the field raind sends is unchanged"

    # The view, the template and the bar agree on the same hour.
    temp = daemon.ctl("now", "--format", "{temp}", check=True).stdout.strip()
    assert lines[2].startswith(temp + "  "), (temp, view)
    waybar = json.loads(daemon.ctl("now", "--format", "waybar", check=True).stdout)
    assert waybar["text"].startswith("Paris " + temp.replace(" °C", "°")), waybar
    assert "\nForecast for " in waybar["tooltip"] and waybar["class"][0] == "ok", waybar


def test_a_forecast_whose_times_have_all_passed_is_stale_however_recently_received(serve):
    answer = recording()
    answer["daily"] = {key: values[:1] for key, values in answer["daily"].items()}
    end = answer["hourly"]["time"][-1] + 3600
    # Its last hour ended 26 h (and some minutes) before now.
    daemon = serve(moved_in_time(answer, hours_since(end + 26 * 3600), RECORDED))

    reply = daemon.client().call("GetForecast")["parameters"]
    assert reply["ageSeconds"] < 60 and reply["stale"] is True, reply
    view = daemon.ctl("now", check=True).stdout
    assert "Updated just now" not in view and "\nForecast ended 1 day ago (stale)\n" in view, view
    assert "Nothing in this forecast is for now." in view, "yesterday's observation is not shown as now"
    line = daemon.ctl("now", "--format", "{temp} {updated}", check=True).stdout.strip()
    assert line == "– forecast ended 1 day ago (stale)", line
    waybar = json.loads(daemon.ctl("now", "--format", "waybar", check=True).stdout)
    assert waybar["class"][0] == "stale" and "Forecast ended 1 day ago" in waybar["tooltip"], waybar
    assert "Updated just now" not in waybar["tooltip"]
    # The provider failed, as the docs call such an answer: the status says so, not "ok".
    [provider] = daemon.client().call("GetStatus")["parameters"]["status"]["providers"]
    assert provider["failures"] == 1 and provider["lastError"] is not None, provider
    status = daemon.ctl("status", check=True).stdout
    assert "open-meteo: ok" not in status and "after 1 failure" in status, status


def test_today_is_the_places_today_never_the_answers_first_day(serve):
    # Fetched yesterday evening: the answer's days start with yesterday. Moved
    # by whole days, so its days stay on Paris's midnights and now is on the
    # recording's second day (16 January, whose high is 4.8 °C).
    second_day = recording()["daily"]["time"][1]
    shift = int((time.time() - second_day) // 86400 * 86400)
    full = moved_in_time(without_current(recording()), shift, RECORDED)
    daemon = serve(full)
    assert daemon.ctl("now", "--format", "{high}", check=True).stdout.strip() == "5 °C"

    only_yesterday = without_current(recording())
    only_yesterday["daily"] = {key: values[:1] for key, values in only_yesterday["daily"].items()}
    daemon = serve(moved_in_time(only_yesterday, shift, RECORDED))
    line = daemon.ctl("now", "--format", "{high}|{low}|{sunrise}|{sunset}", check=True).stdout.strip()
    assert line == "–|–|–|–", line
    assert "\nSun " not in daemon.ctl("now", check=True).stdout


def test_unknown_conditions_and_chances_of_rain_stay_unknown(serve):
    answer = without_current(recording())
    count = len(answer["hourly"]["time"])
    answer["hourly"]["weather_code"] = [42] * count  # not a code Open-Meteo documents
    answer["hourly"]["precipitation_probability"] = [None] * count
    daemon = serve(moved_in_time(answer, hours_since(RECORDED), RECORDED))

    line = daemon.ctl("now", "--format", "{icon}|{rain}|{summary}", "--icons", "text", check=True).stdout.strip()
    assert line == "unknown|–|Unknown weather (code 42)", line
    assert daemon.ctl("now", "--format", "{icon}", "--icons", "nerd", check=True).stdout.strip() == "\ue374"
    waybar = json.loads(daemon.ctl("now", "--format", "waybar", check=True).stdout)
    assert "unknown" in waybar["class"] and waybar["alt"] == "unknown" and "percentage" not in waybar, waybar
    assert "Chance of rain  –" in daemon.ctl("now", check=True).stdout
    rows = daemon.ctl("hourly", "--hours", "3", check=True).stdout.splitlines()[2:5]
    assert all(row.endswith(" –") and "0%" not in row for row in rows), rows
