"""Every value says where it came from: Bright Sky fills values its station
lacks from a neighbouring one (`fallback_source_ids`); raind says which values
came from where, how far and how much higher or lower in `now`, its JSON and
the bar's tooltip, and does not use a station far higher or lower at all. The
real raind and raindctl against Bright Sky's recorded Berlin answers, served
from the fixture server with a neighbour added to the current answer."""
import json

from raindtest import FIXTURES, RECORDED_AT, FixtureServer, wait_for
from test_translations import compiled

WEATHER = "brightsky-forecast-berlin-8-days.1-weather.json"
CURRENT = "brightsky-forecast-berlin-8-days.2-current.json"


def serve_berlin(tmp_path, height_difference):
    """The recorded answers, the temperature and humidity now from a station
    21 km away standing `height_difference` metres above Tempelhof's."""
    current = json.loads((FIXTURES / CURRENT).read_text())
    [own] = [source for source in current["sources"] if source["id"] == current["weather"]["source_id"]]
    current["weather"]["fallback_source_ids"].update({"temperature": 4711, "relative_humidity": 4711})
    current["sources"].append({
        "id": 4711, "observation_type": "synop", "station_name": "Nachbarstation", "distance": 21_000,
        "height": own["height"] + height_difference})
    served = tmp_path / "served"
    served.mkdir()
    (served / WEATHER).write_text((FIXTURES / WEATHER).read_text())
    (served / CURRENT).write_text(json.dumps(current))
    return FixtureServer(
        routes=[("/weather", WEATHER), ("/current_weather", CURRENT)], directory=served,
        present={WEATHER: RECORDED_AT[WEATHER], CURRENT: RECORDED_AT[CURRENT]})


def berlin(daemon_factory, server):
    daemon = daemon_factory(config=f"[Provider]\nName=brightsky\nBaseURL={server.url}\nTimeoutSec=3\n")
    daemon.ctl("add", "--coords", "52.52,13.405", "--name", "Berlin", check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"], what="Berlin's forecast")
    return daemon


def test_values_from_a_neighbouring_station_say_which_from_where_how_far_and_how_much_higher(
        daemon_factory, tmp_path):
    server = serve_berlin(tmp_path, height_difference=120)
    try:
        daemon = berlin(daemon_factory, server)
        current = daemon.client().call("GetForecast")["parameters"]["forecast"]["current"]
        assert current["sources"] == [{
            "values": ["temperature", "humidity"], "station": "Nachbarstation", "distanceMetres": 21000,
            "heightDifferenceMetres": 120}], current
        said = "Temperature, humidity from Nachbarstation, 21 km, 120 m higher"
        view = daemon.ctl("now", check=True).stdout
        assert f"\n{said}\n" in view, view
        assert json.loads(daemon.ctl("now", "--json", check=True).stdout)["forecast"]["current"]["sources"]
        tooltip = json.loads(daemon.ctl("now", "--format", "waybar", check=True).stdout)["tooltip"]
        assert said in tooltip, tooltip
        # Read in the reader's language.
        german = daemon.ctl(
            "now", env={"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "RAIND_LOCALE_DIR": compiled(tmp_path)},
            check=True).stdout
        # "Luftfeuchte", as the view's Humidity row and the DWD's glossary write it (one word for one thing).
        assert "\nTemperatur, Luftfeuchte von Nachbarstation, 21 km, 120 m höher\n" in german, german
    finally:
        server.stop()


def test_a_station_far_higher_is_not_used_for_current_conditions(daemon_factory, tmp_path):
    server = serve_berlin(tmp_path, height_difference=1250)
    try:
        daemon = berlin(daemon_factory, server)
        forecast = daemon.client().call("GetForecast")["parameters"]["forecast"]
        assert forecast["current"] is None, forecast["current"]
        view = daemon.ctl("now", check=True).stdout
        assert "Forecast for " in view and "Nachbarstation" not in view, view
        assert "current conditions not used" in daemon.read_log()
    finally:
        server.stop()
