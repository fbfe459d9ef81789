"""Adding places by name, by coordinates and by position, through the real daemon."""
import re
import json

import pytest

from raindtest import Fake, PrivateBus, Subscriber, has_dbus_fakes

needs_dbus = pytest.mark.skipif(not has_dbus_fakes(), reason="needs dbus-daemon, python3-dbus and python3-gi")


def test_add_by_name_picks_the_place_people_mean(daemon):
    assert "Added Paris, Ile-de-France, France as paris-fr" in daemon.ctl("add", "Paris", check=True).stdout
    assert "as zurich-ch" in daemon.ctl("add", "zurich", check=True).stdout
    assert "as portland-us" in daemon.ctl("add", "Portland, OR", check=True).stdout
    assert "as london-ca" in daemon.ctl("add", "London, Canada", check=True).stdout
    location = daemon.state()["locations"][0]
    assert location["source"]["kind"] == "geonames" and location["timeZone"]


def test_ambiguous_name_lists_what_tells_candidates_apart(daemon):
    result = daemon.ctl("add", "Springfield")
    assert result.returncode == 1
    assert "could mean several places" in result.stderr
    assert "Missouri" in result.stderr and "Massachusetts" in result.stderr and "pop." in result.stderr
    reply = daemon.client().call("AddLocation", {"query": "Springfield"})
    assert reply["error"] == "io.raind.Weather.AmbiguousPlace"
    assert len(reply["parameters"]["candidates"]) >= 2
    # Re-running with what tells them apart works.
    assert "Massachusetts" in daemon.ctl("add", "Springfield, MA", check=True).stdout


def test_unknown_name_suggests_near_spellings(daemon):
    result = daemon.ctl("add", "Amsterdm")
    assert result.returncode == 1
    assert "did you mean Amsterdam" in result.stderr and "--coords" in result.stderr
    reply = daemon.client().call("AddLocation", {"query": "Amsterdm"})
    assert reply["error"] == "io.raind.Weather.PlaceNotFound"
    assert reply["parameters"]["suggestions"][0]["name"] == "Amsterdam"


def _geocoder(fixture):
    from raindtest import FixtureServer
    return FixtureServer(routes=[("/v1/search", fixture)])


def test_name_missing_from_data_is_asked_online(daemon_factory):
    server = _geocoder("openmeteo-geocoding-lonneker.json")
    try:
        daemon = daemon_factory(config=f"[Places]\nGeocoderURL={server.url}\n")
        out = daemon.ctl("add", "Lonneker", check=True).stdout
        assert "Added Lonneker, Overijssel, The Netherlands as lonneker-nl" in out
        location = daemon.state()["locations"][0]
        assert location["source"] == {"kind": "geocoder", "provider": "open-meteo", "id": "2751582"}
        assert server.count("/v1/search") == 1
    finally:
        server.stop()


def test_online_answer_under_another_name_is_not_saved(daemon_factory, fixture_server):
    # The fixture server answers every search with Enschede (and its airport).
    daemon = daemon_factory(config=f"[Places]\nGeocoderURL={fixture_server.url}\n")
    reply = daemon.client().call("AddLocation", {"query": "Lonneker"})
    assert reply["error"] == "io.raind.Weather.PlaceNotFound"
    assert [s["name"] for s in reply["parameters"]["suggestions"]] == ["Enschede"]
    assert daemon.client().call("ListLocations")["parameters"]["locations"] == []


def test_online_answer_with_only_a_continent_is_not_found(daemon_factory):
    server = _geocoder("openmeteo-geocoding-xyzzyville.json")
    try:
        daemon = daemon_factory(config=f"[Places]\nGeocoderURL={server.url}\n")
        result = daemon.ctl("add", "Xyzzyville")
        assert result.returncode == 1
        assert "no place called 'Xyzzyville' is known, here or online" in result.stderr
        assert "Antarctica" not in result.stderr
    finally:
        server.stop()


def test_online_answer_with_two_equal_villages_is_ambiguous(daemon_factory):
    server = _geocoder("openmeteo-geocoding-oosterend.json")
    try:
        daemon = daemon_factory(config=f"[Places]\nGeocoderURL={server.url}\n")
        reply = daemon.client().call("AddLocation", {"query": "Oosterend"})
        assert reply["error"] == "io.raind.Weather.AmbiguousPlace"
        assert {c["region"] for c in reply["parameters"]["candidates"]} == {"North Holland", "Friesland"}
    finally:
        server.stop()


def test_typo_that_is_also_an_obscure_other_name_asks(daemon):
    reply = daemon.client().call("AddLocation", {"query": "Parsi"})
    assert reply["error"] == "io.raind.Weather.AmbiguousPlace"
    names = [c["name"] for c in reply["parameters"]["candidates"]]
    assert "Barshi" in names and "Paris" in names


def test_online_geocoder_refusal_shows_its_reason(daemon_factory, fixture_server):
    reason = "Hourly API request limit exceeded. Please try again in the next hour."
    fixture_server.script(path_prefix="/v1/search", mode="status", status=429, reason=reason, count=-1)
    daemon = daemon_factory(config=f"[Places]\nGeocoderURL={fixture_server.url}\n")
    result = daemon.ctl("add", "Lonneker")
    assert result.returncode == 1
    assert "HTTP 429" in result.stderr and reason in result.stderr, result.stderr


def test_online_geocoder_unreachable_still_answers_clearly(daemon):
    result = daemon.ctl("add", "Lonneker")
    assert result.returncode == 1
    assert "no place called 'Lonneker' is known" in result.stderr
    assert "online geocoder could not be asked" in result.stderr


def test_online_geocoder_can_be_turned_off(daemon_factory, fixture_server):
    daemon = daemon_factory(config=f"[Places]\nGeocoderURL={fixture_server.url}\nOnlineGeocoder=no\n")
    assert daemon.ctl("add", "Lonneker").returncode == 1
    assert fixture_server.count("/v1/search") == 0


def test_coordinates_without_name_are_named_as_people_name_them(daemon):
    out = daemon.ctl("add", "--coords", "35.6812,139.7671", check=True).stdout
    assert "Added Tokyo, Japan" in out, "Tokyo Station is in Tokyo, not Chūō"
    assert "Added New York City" in daemon.ctl("add", "--coords", "40.758,-73.9855", check=True).stdout
    assert "Tonga" in daemon.ctl("add", "--coords", "-21.14,-175.2", check=True).stdout, "near the antimeridian"
    out = daemon.ctl("add", "--coords", "0,-150", check=True).stdout
    assert "Added 0.0, -150.0" in out, "far from any place: named by its coordinates"


def test_search_lists_candidates_best_first(daemon):
    out = daemon.ctl("search", "sao paulo", check=True).stdout.splitlines()
    assert out[0].startswith("São Paulo") and "BR" in out[0] and "geonames:" in out[0]
    data = json.loads(daemon.ctl("search", "Cologne", "--json", check=True).stdout)
    assert data["candidates"][0]["name"] == "Köln"
    assert daemon.ctl("search").returncode == 64


def test_current_position_without_geoclue_is_the_time_zone_estimate(daemon_factory):
    daemon = daemon_factory(extra_env={"TZ": "Europe/Paris", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"})
    sub = Subscriber(daemon, events=["LocationAdded", "LocationSelected"])
    out = daemon.ctl("add", "--current", check=True).stdout
    assert "Paris" in out and "(approximate position)" in out
    added = sub.until("LocationAdded")
    assert added["location"]["source"] == {"kind": "current", "approximate": True}
    assert sub.until("LocationSelected")["location"]["name"] == "Paris", "the first place is selected"
    sub.stop()


@needs_dbus
def test_add_current_uses_geoclue_at_city_accuracy(daemon_factory):
    bus = PrivateBus()
    geoclue = Fake(bus, "fake_geoclue.py", "--latitude", "52.2215", "--longitude", "6.8937")
    try:
        daemon = daemon_factory(extra_env={"DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "Asia/Tokyo"})
        out = daemon.ctl("add", "--current", check=True).stdout
        assert "Added Enschede, Overijssel, The Netherlands" in out and "approximate" not in out
        location = daemon.state()["locations"][0]
        assert location["source"] == {"kind": "current", "approximate": False}
        assert daemon.state()["selected"] == location["id"], "the first place is selected"
        assert geoclue.readline().split() == ["start", "raind", "4"], "desktop id raind, city accuracy"
    finally:
        geoclue.stop()
        bus.stop()


@needs_dbus
def test_add_current_falls_back_to_time_zone_when_geoclue_denies(daemon_factory):
    bus = PrivateBus()
    geoclue = Fake(bus, "fake_geoclue.py", "--mode", "deny")
    try:
        daemon = daemon_factory(extra_env={"DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "Asia/Tokyo"})
        out = daemon.ctl("add", "--current", check=True).stdout
        assert "Tokyo" in out and "(approximate position)" in out
        assert "GeoClue" in daemon.read_log()
    finally:
        geoclue.stop()
        bus.stop()


@needs_dbus
def test_add_current_with_bus_but_no_geoclue_uses_time_zone(daemon_factory):
    bus = PrivateBus()
    try:
        daemon = daemon_factory(extra_env={"DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "America/Chicago"})
        out = daemon.ctl("add", "--current", check=True).stdout
        assert "Chicago" in out and "(approximate position)" in out
    finally:
        bus.stop()


def test_current_position_says_why_geoclue_was_not_used_and_takes_a_name(daemon_factory):
    no_bus = {"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"}
    daemon = daemon_factory(extra_env={"TZ": "Europe/Paris", **no_bus})
    out = daemon.ctl("add", "--current", "--name", "Office", check=True).stdout
    assert "Added Office" in out and "(approximate position)" in out
    assert "GeoClue was not used" in out and "system bus" in out and "time zone (Europe/Paris)" in out, out
    utc = daemon_factory(extra_env={"TZ": "UTC", **no_bus}, base=daemon.base / "utc")
    result = utc.ctl("add", "--current")
    assert result.returncode == 1
    assert "GeoClue was not used" in result.stderr and "says nothing about where" in result.stderr, result.stderr


def test_a_name_of_its_own_is_kept_beside_a_saved_place(daemon):
    daemon.ctl("add", "Paris", check=True)
    out = daemon.ctl("add", "--coords", "48.8566,2.3522", "--name", "Home", check=True).stdout
    assert out.startswith("Added Home") and "Paris (paris-fr) is saved" in out and "both are kept" in out, out
    again = daemon.ctl("add", "--coords", "48.8567,2.3521", "--name", "home", check=True).stdout
    assert again.startswith("Already saved: Home"), again
    assert daemon.ctl("add", "--coords", "48.8566,2.3522", check=True).stdout.startswith("Already saved: ")


def test_a_name_that_adds_a_place_names_it_everywhere(daemon):
    daemon.ctl("add", "Paris", check=True)
    daemon.ctl("add", "München", check=True)
    out = daemon.ctl("set-location", "München", check=True).stdout
    assert out.startswith("Selected Munich"), out
    assert daemon.ctl("remove", "Paris", check=True).returncode == 0
    assert daemon.ctl("add", "").returncode == 64
    assert daemon.ctl("add", "  ").returncode == 64


def test_list_sorts_like_a_person_and_aligns_coordinates(daemon):
    for coords, name in (("-33.8688,151.2093", "Sydney"), ("-23.55,-46.6333", "São Paulo"), ("52.52,13.405", "berlin")):
        daemon.ctl("add", "--coords", coords, "--name", name, check=True)
    rows = daemon.ctl("list", check=True).stdout.splitlines()
    assert [row[3:].split()[0] for row in rows] == ["berlin-de", "sao-paulo-br", "sydney-au"], rows
    assert rows[1].rstrip().endswith("-23.5500, -46.6333"), rows[1]


def test_populations_read_the_same_in_search_and_errors(daemon):
    assert "pop. 2,138,551" in daemon.ctl("search", "Paris", check=True).stdout
    ambiguous = daemon.ctl("add", "Springfield")
    assert ambiguous.returncode == 1 and re.search(r"pop\. \d{1,3},\d{3}", ambiguous.stderr), ambiguous.stderr
