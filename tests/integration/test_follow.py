"""The place that follows you: `raindctl add --current --follow` against a
fake GeoClue2 that moves (tests/fakes/fake_geoclue.py) and, without GeoClue,
a fake timedated whose time zone changes (tests/fakes/fake_timedated.py), on a
private dbus-daemon playing the system bus."""
import json

import pytest

from raindtest import Fake, PrivateBus, Subscriber, has_dbus_fakes

pytestmark = pytest.mark.skipif(not has_dbus_fakes(), reason="needs dbus-daemon, python3-dbus and python3-gi")


def test_a_following_place_moves_to_another_town_and_not_within_one(weather_daemon, fixture_server):
    bus = PrivateBus()
    geoclue = Fake(bus, "fake_geoclue.py", "--latitude", "52.2215", "--longitude", "6.8937")
    try:
        daemon = weather_daemon(extra_env={"DBUS_SYSTEM_BUS_ADDRESS": bus.address})
        sub = Subscriber(daemon, events=["LocationChanged", "WeatherUpdated"])
        added = daemon.ctl("add", "--current", "--follow", check=True).stdout
        assert "Added Enschede" in added and "it follows you" in added, added
        place = json.loads(daemon.ctl("list", "--json", check=True).stdout)["locations"][0]
        assert place["follows"] is True and place["id"] == "enschede-nl"
        assert "(follows you)" in daemon.ctl("list", check=True).stdout
        assert sub.until("WeatherUpdated")["id"] == "enschede-nl"
        # The one-shot lookup, then the watch: a client of its own with thresholds of a few km and minutes.
        assert geoclue.until("thresholds 3000 300")[-1] == "start raind 4"
        requests = fixture_server.count("/v1/forecast")

        geoclue.send("move 52.2230 6.8960")  # 200 m: the same town
        geoclue.send("move 52.2658 6.7931")  # Hengelo
        changed = sub.until("LocationChanged")
        assert changed["location"]["name"] == "Hengelo" and changed["location"]["id"] == "enschede-nl"
        assert changed["location"]["follows"] is True
        assert abs(changed["location"]["latitude"] - 52.2658) < 1e-6
        updated = sub.until("WeatherUpdated")
        assert updated["id"] == "enschede-nl"
        assert fixture_server.count("/v1/forecast") == requests + 1, "one fetch for the new town, none for the small move"
        state = daemon.state()
        assert state["locations"][0]["name"] == "Hengelo" and state["locations"][0]["follows"] is True
        sub.stop()

        # The flag survives a restart and the place keeps following.
        daemon.stop()
        daemon.start()
        sub = Subscriber(daemon, events=["LocationChanged"])
        geoclue.send("move 52.3567 6.6625")  # Almelo
        assert sub.until("LocationChanged")["location"]["name"] == "Almelo"
        sub.stop()
    finally:
        geoclue.stop()
        bus.stop()


def test_without_geoclue_the_following_place_follows_the_time_zone(weather_daemon):
    bus = PrivateBus()
    timedated = Fake(bus, "fake_timedated.py", "--timezone", "Europe/Amsterdam")
    try:
        daemon = weather_daemon(extra_env={"DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": "Europe/Amsterdam"})
        sub = Subscriber(daemon, events=["LocationChanged"])
        added = json.loads(daemon.ctl("add", "--current", "--follow", "--json", check=True).stdout)
        assert added["location"]["timeZone"] == "Europe/Amsterdam" and added["approximate"] is True
        assert added["location"]["follows"] is True
        timedated.send("timezone Europe/Berlin")
        changed = sub.until("LocationChanged")
        assert changed["location"]["name"] == "Berlin" and changed["location"]["timeZone"] == "Europe/Berlin"
        assert changed["location"]["source"] == {"kind": "current", "approximate": True}
        sub.stop()
    finally:
        timedated.stop()
        bus.stop()


def test_follow_goes_with_current_only(daemon):
    assert daemon.ctl("add", "Paris", "--follow").returncode == 64
    refused = daemon.ctl("add", "--current", "--follow", "--name", "Me")
    assert refused.returncode == 64 and "named after the town" in refused.stderr
    reply = daemon.client().call("io.raind.Weather.AddLocation", {"query": "Paris", "follow": True})
    assert reply["error"] == "org.varlink.service.InvalidParameter"
