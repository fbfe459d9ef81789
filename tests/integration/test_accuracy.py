"""raindctl accuracy and GetAccuracy through the real daemon, with the
fixture server answering as Open-Meteo and the NWS (the recorded answers
of test_observations.py): a place with a verifying station names it, its
distance and the serving provider, and keeps its samples in the state
directory; a place without one says why; --json is raind's reply."""
import json

# The recorded Open-Meteo and NWS answers the observation tests serve, and their raind.
from test_observations import service, start  # noqa: F401 (service is a fixture)

from raindtest import wait_for


def accuracy(daemon, place_id=None):
    parameters = {"id": place_id} if place_id else {}
    return daemon.client().call("GetAccuracy", parameters)["parameters"]["places"]


def test_a_place_with_a_station_names_it_and_its_serving_provider(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]

    def ready():
        [place] = accuracy(daemon, place_id)
        return place if place["station"] and place["serving"] else None
    place = wait_for(ready, timeout=10, what="the station and the first forecast")
    assert place["id"] == place_id and place["name"] == "Washington"
    assert place["source"] == "nws" and place["station"]["id"] == "KDCA" and place["problem"] is None
    assert place["serving"] == "open-meteo" and place["servingSince"] is not None
    assert place["minimumPairs"] == 24 and round(place["until"] - place["from"]) == 30 * 86400
    assert place["fileProblem"] is None
    # The recorded observation is from another day than the recorded forecast: nothing to pair yet.
    assert place["scores"] == []
    assert [p["id"] for p in accuracy(daemon)] == [place_id]

    kept = daemon.state_home / "raind" / "accuracy" / f"{place_id}.json"
    # Written at the place's first sample or observation, then at most hourly.
    wait_for(kept.exists, timeout=10, what="the accuracy file")
    wait_for(lambda: daemon.client().call("GetStatus")["parameters"]["status"]["placeObservations"][0]
             .get("observation"), timeout=10, what="the station's observation")

    shown = " ".join(daemon.ctl("accuracy", "Washington", check=True).stdout.split())
    assert "Washington: judged against Washington/Reagan National Airport, DC (nws), 5 km away" in shown, shown
    assert "Served by open-meteo since" in shown, shown
    assert "Over the last 30 days; a measure needs 24 pairs" in shown, shown
    assert "No forecast and observation to compare yet." in shown, shown

    as_json = json.loads(daemon.ctl("accuracy", "--json", check=True).stdout)
    assert [p["id"] for p in as_json["places"]] == [place_id]

    # Stopping writes what changed since.
    daemon.stop()
    record = json.loads(kept.read_text())
    # The recorded observation is months older than the 32 days kept.
    assert record["version"] == 1 and record["station"] == "KDCA" and record["observed"] == []
    # The recording reaches 48 hours ahead only in part: its +6 h and +24 h at least.
    assert {sample["lead"] for sample in record["samples"]} >= {6, 24}
    assert {sample["provider"] for sample in record["samples"]} == {"open-meteo"}


def test_after_a_restart_every_place_says_who_serves_it(daemon_factory, service):
    """The places other than the selected one are read from the cache after
    READY=1; their serving provider is known from it all the same."""
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    daemon.ctl("add", "--coords", "35.68,139.69", "--name", "Tokyo", check=True)
    ids = [place["id"] for place in daemon.client().call("ListLocations")["parameters"]["locations"]]
    wait_for(lambda: all(place["serving"] for place in accuracy(daemon)), timeout=10, what="both forecasts")
    daemon.stop()
    daemon.start()
    assert [(place["id"], place["serving"], place["servingSince"]) for place in accuracy(daemon)] == [
        (place_id, "open-meteo", None) for place_id in ids]


def test_a_place_without_a_station_says_why(daemon_factory, service):
    daemon = start(daemon_factory, service)
    # Tokyo: no NWS, and the fixture server's METAR box answer is a 404.
    daemon.ctl("add", "--coords", "35.68,139.69", "--name", "Tokyo", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    place = wait_for(lambda: accuracy(daemon, place_id)[0]["problem"] and accuracy(daemon, place_id)[0],
                     timeout=10, what="the search's end")
    assert place["station"] is None and place["scores"] == []
    shown = " ".join(daemon.ctl("accuracy", check=True).stdout.split())
    assert "Tokyo: no verifying station (" in shown and "nothing to judge the forecasts against" in shown, shown


def test_an_unknown_place_is_refused(daemon_factory, service):
    daemon = start(daemon_factory, service)
    result = daemon.ctl("accuracy", "Atlantis")
    assert result.returncode != 0 and "Atlantis" in result.stderr, result


# The made week of Orlando International's reports and Open-Meteo's made
# Previous Runs answer for it, both served as if recorded this hour.
BACKFILL_RECORDED_AT = 1784667600
METAR_WEEK = "aviationweather-metar-json-kmco-168-hours-made.json"
PREVIOUS_RUNS = "openmeteo-previous-runs-orlando-made.json"


def backfill_server(tmp_path, previous_runs=None):
    """The fixture server answering as Open-Meteo (forecast and past runs)
    and as the METAR source, its made answers moved to this hour;
    `previous_runs`: other text for the past runs' answer."""
    import shutil
    from raindtest import FIXTURES, RECORDED_AT, FixtureServer
    directory = tmp_path / "answers"
    directory.mkdir()
    forecast = "openmeteo-forecast-paris-unixtime.json"
    shutil.copy(FIXTURES / forecast, directory / forecast)
    shutil.copy(FIXTURES / "observations" / METAR_WEEK, directory / METAR_WEEK)
    shutil.copy(FIXTURES / PREVIOUS_RUNS, directory / PREVIOUS_RUNS)
    if previous_runs is not None:
        (directory / PREVIOUS_RUNS).write_text(previous_runs)
    return FixtureServer(
        routes=[("/v1/forecast", forecast), ("/api/data/metar", METAR_WEEK), ("/prev/v1/forecast", PREVIOUS_RUNS)],
        directory=directory,
        present={forecast: RECORDED_AT[forecast], METAR_WEEK: BACKFILL_RECORDED_AT,
                 PREVIOUS_RUNS: BACKFILL_RECORDED_AT})


def start_backfilling(daemon_factory, server):
    daemon = daemon_factory(config=(
        f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
        f"[Observations]\nBaseURL={server.url}\n"
        f"[Accuracy]\nBaseURL={server.url}/prev\n"))
    daemon.ctl("add", "--coords", "28.54,-81.38", "--name", "Orlando", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    return daemon, place_id


def test_a_new_place_is_backfilled_and_accuracy_says_so(daemon_factory, tmp_path):
    server = backfill_server(tmp_path)
    try:
        daemon, place_id = start_backfilling(daemon_factory, server)
        place = wait_for(lambda: (accuracy(daemon, place_id)[0]["backfill"] and accuracy(daemon, place_id)[0]),
                         timeout=20, what="the backfill")
        assert place["station"]["id"] == "KMCO"
        backfill = place["backfill"]
        assert backfill["provider"] == "open-meteo" and backfill["problem"] is None, backfill
        assert backfill["samples"] > 300 and backfill["observedHours"] > 160, backfill
        day = next(s for s in place["scores"] if s["provider"] == "open-meteo" and s["leadHours"] == 24)
        assert day["pairs"] >= 160 and day["backfilledPairs"] == day["pairs"], day
        assert abs(day["temperatureError"] - 1) < 1e-6, day
        assert {s["leadHours"] for s in place["scores"]} == {24, 48}
        assert server.count("/prev/") == 1

        shown = " ".join(daemon.ctl("accuracy", "Orlando", check=True).stdout.split())
        assert "Backfilled on " in shown and "from open-meteo's past runs (+24 h and +48 h)" in shown, shown
        # Each provider's block counts the backfilled pairs in a row of their own.
        assert f"backfilled {day['backfilledPairs']}" in shown, shown
        as_json = json.loads(daemon.ctl("accuracy", "--json", check=True).stdout)
        assert as_json["places"][0]["backfill"] == backfill

        # Done once: raind started again does not ask again.
        daemon.stop()
        kept = json.loads((daemon.state_home / "raind" / "accuracy" / f"{place_id}.json").read_text())
        assert kept["backfill"] == backfill
        daemon.start()
        wait_for(lambda: accuracy(daemon, place_id)[0]["station"], timeout=10, what="the station again")
        assert accuracy(daemon, place_id)[0]["backfill"] == backfill
        assert server.count("/prev/") == 1
    finally:
        server.stop()


def test_a_damaged_past_runs_answer_is_said_and_nothing_of_it_kept(daemon_factory, tmp_path):
    made = json.loads((__import__("raindtest").FIXTURES / PREVIOUS_RUNS).read_text())
    made["hourly"]["temperature_2m_previous_day1"][3] = 900
    server = backfill_server(tmp_path, previous_runs=json.dumps(made))
    try:
        daemon, place_id = start_backfilling(daemon_factory, server)
        place = wait_for(lambda: (accuracy(daemon, place_id)[0]["backfill"] and accuracy(daemon, place_id)[0]),
                         timeout=20, what="the backfill's end")
        problem = place["backfill"]["problem"]
        assert "hourly.temperature_2m_previous_day1[3]" in problem and "900" in problem, problem
        assert place["backfill"]["samples"] == 0 and place["scores"] == []
        shown = " ".join(daemon.ctl("accuracy", "Orlando", check=True).stdout.split())
        assert "Not backfilled from open-meteo's past runs: " in shown and "900" in shown, shown
    finally:
        server.stop()
def month_of_pairs(now, biases=None, days=30, backfilled=("brightsky",)):
    """An accuracy record (the file raind keeps) of `days` of every hour
    before `now`: the station's hours, and each provider's samples at +6 h,
    +24 h and +48 h, off by its bias (°C) with a wobble that averages out
    over each day; a provider in `backfilled` has its older samples from
    the archive."""
    biases = biases if biases is not None else {"open-meteo": 2.0, "pirateweather": -1.0, "brightsky": 0.5}
    end = int(now // 3600) * 3600
    hours = list(range(end - days * 86400, end, 3600))

    def truth(hour):
        return 5 + (hour // 3600) % 24 / 2

    observed = [{"hour": hour, "observedAt": hour, "temperature": truth(hour), "rain": hour // 3600 % 5 == 0,
                 "windSpeed": 3.0} for hour in hours]
    samples = []
    for provider in sorted(biases):
        for lead in (6, 24, 48):
            for hour in hours:
                day = (hour - hours[0]) // 86400
                # Each day's errors differ a little, so the chart has something to draw.
                wobble = 0.0 if provider == "open-meteo" else (day % 4) * 0.25
                sample = {"provider": provider, "lead": lead, "hour": hour, "issuedAt": hour - lead * 3600,
                          "temperature": truth(hour) + biases[provider] + wobble, "rain": hour // 3600 % 4 == 0,
                          "rainProbability": 0.4, "windSpeed": 4.0}
                if provider in backfilled and day < 10:
                    sample["backfilled"] = True
                samples.append(sample)
    return {"version": 1, "station": "KDCA", "samples": samples, "observed": observed}


def with_month_of_pairs(daemon, place_id, record):
    """Stops raind, writes `record` as the place's accuracy file, and starts it again."""
    daemon.stop()
    directory = daemon.state_home / "raind" / "accuracy"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{place_id}.json").write_text(json.dumps(record))
    daemon.start()


def test_the_table_and_the_chart_of_a_month(daemon_factory, service):
    """Issue 33, point 5: a block per provider, a row per measure, a column
    per lead time (80 columns, whatever the language: test_translations);
    --chart draws each provider's daily 24 h error, as GetAccuracy's days give it."""
    import time
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"],
             timeout=10, what="the first forecast")
    record = month_of_pairs(time.time())
    with_month_of_pairs(daemon, place_id, record)

    [place] = accuracy(daemon, place_id)
    days = [day for day in place["days"] if day["provider"] == "pirateweather"]
    assert len(days) == 30, days
    # Each day's mean absolute +24 h error, worked out from the record written.
    seen = {hour["hour"]: hour["temperature"] for hour in record["observed"]}
    for day in days:
        errors = [abs(sample["temperature"] - seen[sample["hour"]]) for sample in record["samples"]
                  if sample["provider"] == "pirateweather" and sample["lead"] == 24
                  and day["from"] <= sample["hour"] < day["from"] + 86400 and sample["hour"] in seen]
        assert day["pairs"] == len(errors), day
        if len(errors) >= 6:
            assert abs(day["temperatureError"] - sum(errors) / len(errors)) < 1e-9, day
        else:
            assert day["temperatureError"] is None, day

    text = daemon.ctl("accuracy", "Washington", check=True, env={"COLUMNS": "80"}).stdout
    lines = text.split("\n")
    header = next(line for line in lines if line.startswith("open-meteo"))
    assert header.split() == ["open-meteo", "+6", "h", "+24", "h", "+48", "h"], header
    bias = lines[lines.index(header) + 2]
    assert bias.split() == ["bias", "+2.0°", "+2.0°", "+2.0°"], bias
    assert any(line.split()[:1] == ["backfilled"] for line in lines), text
    assert max(len(line) for line in lines) <= 80, text

    chart = daemon.ctl("accuracy", "Washington", "--chart", check=True, env={"COLUMNS": "80"}).stdout
    assert "24 h temperature error by day, " in chart, chart
    rows = {line.split()[0]: line for line in chart.split("\n") if line.split()[:1] in
            (["open-meteo"], ["pirateweather"], ["brightsky"])}
    assert set(rows) == {"open-meteo", "pirateweather", "brightsky"}, chart
    # One scale for all: open-meteo's steady 2 °C is the largest, drawn full every day.
    assert "█" * 29 in rows["open-meteo"] and rows["open-meteo"].endswith("2.0° to 2.0°"), rows
    assert max(len(line) for line in chart.split("\n")) <= 80, chart
    assert daemon.ctl("accuracy", "--chart", "--json").returncode == 64


def test_correct_temperature_serves_the_measured_bias_off_and_marks_it(daemon_factory, service):
    """Issue 33, point 6: with [Accuracy] CorrectTemperature=yes, Open-Meteo,
    measured 2 °C too warm at every hour of day, is served 2 °C cooler for
    the hours its +6 h and +24 h pairs measure, the provider's own beside
    each value, and every view marks it."""
    import time
    daemon = daemon_factory(config=(
        f"[Provider]\nName=open-meteo\nBaseURL={service.url}\nTimeoutSec=3\n"
        f"[Observations]\nBaseURL={service.url}\n[Accuracy]\nCorrectTemperature=yes\n"))
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    own = wait_for(lambda: daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"],
                   timeout=10, what="the first forecast")
    assert own["correction"] is None, "no pairs yet: nothing corrected"
    with_month_of_pairs(daemon, place_id, month_of_pairs(time.time(), {"open-meteo": 2.0}))

    forecast = wait_for(lambda: daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"]
                        .get("correction") and daemon.client().call("GetForecast", {"id": place_id})
                        ["parameters"]["forecast"], timeout=10, what="the corrected forecast")
    values = forecast["correction"]["values"]
    hours = {hour["time"]: hour for hour in forecast["hourly"]}
    owned = {hour["time"]: hour["temperature"] for hour in own["hourly"]}
    corrected = [value for value in values if value["value"] == "hour"]
    assert len(corrected) >= 30, values
    for value in corrected:
        assert abs(value["bias"] - 2.0) < 1e-9 and value["pairs"] >= 24, value
        assert value["provider"] == owned[value["time"]]
        assert abs(hours[value["time"]]["temperature"] - (value["provider"] - 2.0)) < 1e-9
    # An hour not listed is the provider's own.
    listed = {value["time"] for value in corrected}
    assert all(hours[time_]["temperature"] == owned[time_] for time_ in hours if time_ not in listed)

    hourly = daemon.ctl("hourly", "Washington", check=True).stdout
    assert "°*" in hourly and "* open-meteo: temperatures corrected by its measured bias at " in hourly, hourly
    now = json.loads(daemon.ctl("now", "Washington", "--json", check=True).stdout)
    assert now["forecast"]["correction"]["values"], now
    line = daemon.ctl("now", "Washington", "--format", "{temp}", check=True).stdout
    assert line.strip().endswith("*"), line
    bare = daemon.ctl("now", "Washington", "--format", "{temp:value}", check=True).stdout
    assert not bare.strip().endswith("*"), bare


def test_correct_temperature_is_off_by_default(daemon_factory, service):
    import time
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"],
             timeout=10, what="the first forecast")
    with_month_of_pairs(daemon, place_id, month_of_pairs(time.time(), {"open-meteo": 2.0}))
    wait_for(lambda: accuracy(daemon, place_id)[0]["scores"], timeout=10, what="the scores")
    forecast = daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"]
    assert forecast["correction"] is None
    assert "*" not in daemon.ctl("hourly", "Washington", check=True).stdout
