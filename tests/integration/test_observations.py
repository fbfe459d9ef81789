"""Observations through the real daemon: each place's verifying station is
found and polled at `[Observations] BaseURL=`, here the fixture server
answering as the NWS with recorded answers (a /points lookup, the stations
of a grid cell near Washington DC, Reagan National's latest observation);
two places near one station share its request; the status shows what it
costs; `raindctl now` shows the observation beside the forecast."""
import shutil

import pytest

from raindtest import FIXTURES, RECORDED_AT, FixtureServer, wait_for

FORECAST = "openmeteo-forecast-paris-unixtime.json"
OBSERVATIONS = FIXTURES / "observations"


@pytest.fixture
def service(tmp_path):
    directory = tmp_path / "answers"
    directory.mkdir()
    shutil.copy(FIXTURES / FORECAST, directory / FORECAST)
    # The recorded /points answer names another cell (TAE 58,65): any cell's path serves the list near DC.
    shutil.copy(FIXTURES / "nws-lookup-sumatra-fl.json", directory / "points.json")
    shutil.copy(OBSERVATIONS / "nws-gridpoints-stations-lwx-97-71.json", directory / "stations.json")
    shutil.copy(OBSERVATIONS / "nws-station-observations-latest-kdca.json", directory / "kdca.json")
    server = FixtureServer(
        routes=[("/v1/forecast", FORECAST), ("/points/", "points.json"), ("/gridpoints/", "stations.json"),
                ("/stations/KDCA/observations/latest", "kdca.json")],
        directory=directory, present={FORECAST: RECORDED_AT[FORECAST]})
    yield server
    server.stop()


def start(daemon_factory, server):
    return daemon_factory(config=(
        f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
        f"[Observations]\nBaseURL={server.url}\n"))


def observed(daemon, place_id):
    return daemon.client().call("GetForecast", {"id": place_id})["parameters"]["observed"]


def test_two_places_near_one_station_share_its_request(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    daemon.ctl("add", "--coords", "38.88,-77.1", "--name", "Arlington", check=True)
    ids = [place["id"] for place in daemon.client().call("ListLocations")["parameters"]["locations"]]
    assert len(ids) == 2

    def both():
        got = [observed(daemon, place_id) for place_id in ids]
        return got if all(one and one.get("observation") for one in got) else None
    got = wait_for(both, timeout=10, what="both places' observations")
    for place in got:
        assert place["source"] == "nws" and place["station"]["id"] == "KDCA" and place["problem"] is None
        assert place["distanceMetres"] < 25000 and place["heightDifferenceMetres"] is None
        observation = place["observation"]
        assert observation["temperature"] == -1 and observation["dewPoint"] == -7
        assert observation["weather"] == [{"kind": "snow", "intensity": "light", "showers": False}]
        assert observation["time"] == 1770413400
    # One lookup per place, one station list for the cell both lie in, one poll for both.
    targets = service.stats()["targets"]
    assert sum(n for t, n in targets.items() if t.startswith("/points/")) == 2, targets
    assert {t: n for t, n in targets.items() if t.startswith("/gridpoints/")} == {
        "/gridpoints/TAE/58,65/stations": 1}, targets
    assert {t: n for t, n in targets.items() if t.startswith("/stations/")} == {
        "/stations/KDCA/observations/latest": 1}, targets

    status = daemon.client().call("GetStatus")["parameters"]["status"]
    [nws] = status["observationSources"]
    assert nws["name"] == "nws" and nws["stations"] == ["KDCA"] and sorted(nws["places"]) == sorted(ids)
    assert nws["pollingSeconds"] == 3600 and nws["requestsPerDay"] == 24
    assert nws["requestsToday"] == 4 and nws["dailyBudget"] == 50 and nws["failures"] == 0
    assert sorted(place["id"] for place in status["placeObservations"]) == sorted(ids)
    # Rows wrapped at 80 columns, read as one line.
    shown = " ".join(daemon.ctl("status", check=True).stdout.split())
    assert "Observations: nws: 1 station every 1 h 0 min for 2 places, about 24 requests a day; 4 of 50 today" \
        in shown, shown
    assert "washington-us: Washington/Reagan National Airport, DC (nws), 5 km away" in shown, shown
    assert "arlington-us: Washington/Reagan National Airport, DC (nws), 7 km away" in shown, shown


def test_a_restart_looks_for_no_station_again_and_polls_none_before_its_hour(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: (observed(daemon, place_id) or {}).get("observation"), timeout=10, what="the observation")
    daemon.stop()
    daemon.start()
    # Served at once from the cache, before anything could be asked.
    place = observed(daemon, place_id)
    assert place["station"]["id"] == "KDCA" and place["observation"]["temperature"] == -1, place
    # A place added now is looked for; the station both share is not polled again within its hour.
    daemon.ctl("add", "--coords", "38.88,-77.1", "--name", "Arlington", check=True)
    added = [p["id"] for p in daemon.client().call("ListLocations")["parameters"]["locations"] if p["id"] != place_id]
    wait_for(lambda: (observed(daemon, added[0]) or {}).get("observation"), timeout=10, what="the new place's")
    targets = service.stats()["targets"]
    assert sum(n for t, n in targets.items() if t.startswith("/points/")) == 2, targets
    assert {t: n for t, n in targets.items() if t.startswith("/stations/")} == {
        "/stations/KDCA/observations/latest": 1}, targets


def test_now_shows_the_latest_observation_beside_the_forecast(daemon_factory, service):
    daemon = start(daemon_factory, service)
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    daemon.ctl("units", "si", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: (observed(daemon, place_id) or {}).get("observation"), timeout=10, what="the observation")
    wait_for(lambda: daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"],
             what="the forecast")
    shown = " ".join(daemon.ctl("now", check=True).stdout.split())
    assert "Observed at Washington/Reagan National Airport, DC" in shown, shown
    assert "days ago: -1 °C, light snow" in shown, shown
    assert "Observations from the U.S. National Weather Service (public domain) https://www.weather.gov/" in shown, shown


def test_a_place_no_station_represents_says_so(daemon_factory, service):
    daemon = start(daemon_factory, service)
    # Tokyo: no NWS, and the fixture server's METAR box answer is a 404.
    daemon.ctl("add", "--coords", "35.68,139.69", "--name", "Tokyo", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    place = wait_for(lambda: observed(daemon, place_id), timeout=10, what="the search's end")
    assert place["station"] is None and place["observation"] is None and place["problem"], place
    assert not any(t.startswith("/stations/") for t in service.stats()["targets"])


def test_with_observations_disabled_no_source_is_asked(daemon_factory, service):
    daemon = daemon_factory(config=(
        f"[Provider]\nName=open-meteo\nBaseURL={service.url}\nTimeoutSec=3\n"
        f"[Observations]\nEnabled=no\nBaseURL={service.url}\n"))
    daemon.ctl("add", "--coords", "38.89,-77.04", "--name", "Washington", check=True)
    place_id = daemon.client().call("ListLocations")["parameters"]["locations"][0]["id"]
    wait_for(lambda: daemon.client().call("GetForecast", {"id": place_id})["parameters"]["forecast"],
             what="the forecast")
    assert daemon.client().call("GetForecast", {"id": place_id})["parameters"]["observed"] is None
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["observationSources"] == [] and status["placeObservations"] == [], status
    targets = service.stats()["targets"]
    assert not any(t.startswith(("/points/", "/gridpoints/", "/stations/")) for t in targets), targets
