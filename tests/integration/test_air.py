"""Air quality, UV and pollen: the real raind against the fixture server's
air-quality answer (a made one of Paris in a particle episode), beside the
forecast, counted in Open-Meteo's calls, cached, and failing on its own."""
import json
import os
import shutil
import subprocess

import pytest

from raindtest import RECORDED_AT, ROOT, FakeNotifications, FixtureServer, PrivateBus, Subscriber, wait_for

PARIS = ("48.8534,2.3488", "Paris")
AIR = "openmeteo-airquality-paris-poor.json"


@pytest.fixture
def air_server():
    present = dict(RECORDED_AT)
    # Made for the hour of the Paris forecast's recording: both served as if made now.
    present[AIR] = RECORDED_AT["openmeteo-forecast-paris-unixtime.json"]
    server = FixtureServer(
        routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"), ("/v1/air-quality", AIR)],
        present=present)
    yield server
    server.stop()


@pytest.fixture
def air_daemon(daemon_factory, air_server):
    def make(extra=""):
        config = (
            f"[Provider]\nName=open-meteo\nBaseURL={air_server.url}\nTimeoutSec=3\n"
            f"[Air]\nBaseURL={air_server.url}\n" + extra)
        return daemon_factory(config=config)
    return make


def add_paris(daemon):
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)


def served_air(daemon):
    forecast = daemon.client().call("GetForecast")["parameters"].get("forecast") or {}
    return forecast.get("air")


def test_air_is_fetched_beside_the_forecast_shown_and_counted(air_daemon, air_server):
    daemon = air_daemon()
    add_paris(daemon)
    wait_for(lambda: served_air(daemon) is not None, what="the air served with the forecast")
    assert air_server.count("/v1/air-quality") == 1
    assert air_server.count("/v1/forecast") == 1
    target = next(t for t in air_server.stats()["targets"] if t.startswith("/v1/air-quality"))
    assert "latitude=48.85&longitude=2.35" in target
    assert "current=european_aqi,european_aqi_pm2_5" in target and "birch_pollen" in target
    assert "hourly=european_aqi,uv_index" in target and "forecast_hours=48" in target

    reply = daemon.client().call("GetForecast")
    air = reply["parameters"]["forecast"]["air"]
    assert (air["index"], air["aqi"], air["category"], air["level"], air["dominant"]) == (
        "european", 74, "poor", 4, "pm25")
    assert air["pollen"][0] == {"kind": "alder", "grains": 4.2}
    assert len(air["hourly"]) == 48 and air["problem"] is None

    # Open-Meteo counts the forecast as 3.1 calls and the air (19 variables, 2 days) as 1.9.
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["requestsToday"] == 2
    assert status["callsToday"] == pytest.approx(5.0)

    now = daemon.ctl("now", check=True).stdout
    assert "Air             Poor (European AQI 74), mostly PM2.5" in now
    assert "Pollen          alder 4 grains/m³" in now
    assert "Air quality by Open-Meteo.com (CC BY 4.0), CAMS data © ECMWF" in now
    hourly = daemon.ctl("hourly", check=True).stdout
    assert "AQI" in hourly.splitlines()[1]
    bar = json.loads(daemon.ctl("now", "--format", "waybar", check=True).stdout)
    assert "aqi-poor" in bar["class"]
    line = daemon.ctl("now", "--format", "{aqi} {aqi_category} {pm25} {pollen}", check=True).stdout
    assert line.strip() == "74 Poor 41 µg/m³ alder 4"
    cached = json.loads((daemon.cache_home / "raind" / "air" / "paris-fr.json").read_text())
    assert cached["air"]["aqi"] == 74
    # A transcript for the record: `now` at a place with poor air.
    if os.environ.get("RAIND_AIR_TRANSCRIPT"):
        with open(os.environ["RAIND_AIR_TRANSCRIPT"], "w") as out:
            out.write("$ raindctl now\n" + now + "\n$ raindctl hourly\n" + hourly)


def test_cached_air_is_served_after_a_restart_without_asking_again(air_daemon, air_server, daemon_factory):
    daemon = air_daemon()
    add_paris(daemon)
    wait_for(lambda: served_air(daemon) is not None)
    config = (daemon.config_home / "raind" / "raind.conf").read_text()
    daemon.stop()
    again = daemon_factory(config=config)
    wait_for(lambda: served_air(again) is not None, what="the cached air")
    assert air_server.count("/v1/air-quality") == 1, "the cached air is an hour fresh: no request"


@pytest.mark.parametrize("kind", ["link", "fifo", "directory", "large"])
def test_an_air_cache_file_that_is_no_file_raind_wrote_is_refused_with_a_warning(
        air_daemon, air_server, daemon_factory, tmp_path, kind):
    daemon = air_daemon()
    add_paris(daemon)
    wait_for(lambda: served_air(daemon) is not None)
    config = (daemon.config_home / "raind" / "raind.conf").read_text()
    daemon.stop()
    cached = daemon.cache_home / "raind" / "air" / "paris-fr.json"
    original = cached.read_text()
    target = tmp_path / "elsewhere.json"
    cached.unlink()
    if kind == "link":
        # A good copy elsewhere: a link to it is still not followed.
        target.write_text(original)
        cached.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(cached)
    elif kind == "directory":
        cached.mkdir()
    else:
        cached.write_text(original[:-1] + " " * (2 << 20) + "}")
    again = daemon_factory(config=config)
    wait_for(lambda: "air cache file" in again.read_log(), what="a warning naming the air cache file")
    wait_for(lambda: air_server.count("/v1/air-quality") == 2, what="the air asked again, the file not used")
    wait_for(lambda: served_air(again) is not None, what="the air served once fetched")
    if kind == "link":
        assert "a symbolic link" in again.read_log()
        assert target.read_text() == original, "what the link points at is untouched"
    assert again.stop() == 0


def test_a_failing_air_service_leaves_the_forecast_alone(air_daemon, air_server):
    air_server.script(path_prefix="/v1/air-quality", count=-1, mode="status", status=503)
    daemon = air_daemon()
    sub = Subscriber(daemon)
    add_paris(daemon)
    sub.until("WeatherUpdated")
    wait_for(lambda: "air quality: HTTP 503" in daemon.read_log(), what="the air's failure logged")
    reply = daemon.client().call("GetForecast")["parameters"]
    assert reply["stale"] is False and reply["forecast"]["air"] is None
    now = daemon.ctl("now", check=True).stdout
    assert "Paris" in now and "Air " not in now
    sub.stop()


def test_air_off_asks_nothing(air_daemon, air_server):
    daemon = air_daemon("[Air]\nEnabled=no\n")
    add_paris(daemon)
    wait_for(lambda: air_server.count("/v1/forecast") == 1)
    daemon.ctl("refresh", check=True)
    assert air_server.count("/v1/air-quality") == 0
    assert served_air(daemon) is None


def test_a_broken_air_answer_is_refused_and_the_last_good_one_kept(air_daemon, air_server):
    daemon = air_daemon()
    add_paris(daemon)
    wait_for(lambda: served_air(daemon) is not None)
    daemon.stop()
    cache = daemon.cache_home / "raind" / "air" / "paris-fr.json"
    cached = json.loads(cache.read_text())
    cached["air"]["aqi"] = 99999
    cache.write_text(json.dumps(cached))
    air_server.script(path_prefix="/v1/air-quality", count=-1, mode="malformed")
    again = type(daemon)(daemon.base, config=(daemon.config_home / "raind" / "raind.conf").read_text())
    again.start()
    try:
        wait_for(lambda: "air cache" in again.read_log() or "corrupt" in again.read_log(), what="the cache refused")
        wait_for(lambda: "cannot use" in again.read_log(), what="the broken answer refused")
        assert served_air(again) is None
        assert again.client().call("GetForecast")["parameters"]["forecast"]["current"] is not None
    finally:
        again.stop()


@pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (Debian package)")
def test_poor_air_notifies_once_with_the_indexs_advice_and_closes_when_it_clears(
        daemon_factory, air_server):
    bus = PrivateBus()
    server = FakeNotifications(bus)
    try:
        config = (
            f"[Provider]\nName=open-meteo\nBaseURL={air_server.url}\nTimeoutSec=3\n"
            f"[Air]\nBaseURL={air_server.url}\n[Notifications]\nRainSoon=no\n")
        daemon = daemon_factory(config=config, extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        add_paris(daemon)
        shown = server.next()
        assert shown["call"] == "Notify" and shown["replaces_id"] == 0
        assert shown["summary"] == "Air quality at Paris: Poor (European AQI 74)"
        assert shown["body"].startswith("Consider reducing intense activities outdoors if you experience symptoms")
        assert "CAMS data © ECMWF" in shown["body"]
        # The advice and the credit on lines of their own.
        assert "particularly outdoors.\nAir quality by Open-Meteo.com" in shown["body"], shown["body"]
        record = daemon.cache_home / "raind" / "notifications.json"

        def recorded():
            episodes = json.loads(record.read_text()).get("air") if record.exists() else None
            return bool(episodes) and episodes[0]["notification"] == shown["id"]
        wait_for(recorded, what="the episode recorded with the server's id")

        # Restarted and fetched anew, the air is still poor: the same episode, nothing shown.
        daemon.stop()
        (daemon.cache_home / "raind" / "air" / "paris-fr.json").unlink()
        air_server.reset()
        daemon.start()
        wait_for(lambda: air_server.count("/v1/air-quality") == 1, what="the air fetched anew")
        wait_for(lambda: served_air(daemon) is not None)

        # Then the air clears (the Enschede recording: 44, moderate): the notification closes.
        daemon.stop()
        (daemon.cache_home / "raind" / "air" / "paris-fr.json").unlink()
        air_server.script(path_prefix="/v1/air-quality", file="openmeteo-airquality-enschede.json", count=-1)
        daemon.start()
        closed = server.next()
        assert closed == {"call": "CloseNotification", "id": shown["id"]}
        wait_for(lambda: json.loads(record.read_text()).get("air") == [], what="the episode forgotten")
    finally:
        server.stop()
        bus.stop()


@pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (Debian package)")
def test_the_air_notification_speaks_the_sessions_language_while_the_log_stays_english(
        daemon_factory, air_server, tmp_path):
    locales = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    assert "de_DE.utf8" in locales, "de_DE.UTF-8 is not generated: ./scripts/test runs localedef"
    catalogues = tmp_path / "locale" / "de" / "LC_MESSAGES"
    catalogues.mkdir(parents=True)
    subprocess.run(["msgfmt", "--check", "-o", str(catalogues / "raind.mo"), str(ROOT / "po" / "de.po")], check=True)
    bus = PrivateBus()
    server = FakeNotifications(bus)
    try:
        config = (
            f"[Provider]\nName=open-meteo\nBaseURL={air_server.url}\nTimeoutSec=3\n"
            f"[Air]\nBaseURL={air_server.url}\n[Notifications]\nRainSoon=no\n")
        daemon = daemon_factory(config=config, extra_env={
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "",
            "RAIND_LOCALE_DIR": str(tmp_path / "locale")})
        add_paris(daemon)
        shown = server.next()
        assert shown["summary"] == "Luftqualität in Paris: Schlecht (Europäischer AQI 74)", shown
        assert shown["body"].startswith("Erwägen Sie, anstrengende Aktivitäten im Freien einzuschränken"), shown
        assert shown["body"].endswith("\nLuftqualität von Open-Meteo.com (CC BY 4.0), CAMS-Daten © ECMWF "
                                      "https://open-meteo.com/"), shown
        wait_for(lambda: "notifying Air quality at Paris: Poor (European AQI 74)" in daemon.read_log(),
                 what="the log line in English")
    finally:
        server.stop()
        bus.stop()
