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
