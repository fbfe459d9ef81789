"""Hostile edges (issue 9): nothing in raind's own files traps it, provider
texts never carry the key out, control codes never reach a terminal."""
import json
import os
import pathlib
import socket
import subprocess
import threading

import pytest

from raindtest import FIXTURES, RAINDCTL, Subscriber, Varlink, hours_since, moved_in_time, wait_for

PARIS = {"id": "paris-fr", "name": "Paris", "latitude": 48.8534, "longitude": 2.3488,
         "source": {"kind": "coordinates"}}


def write_state(daemon, locations, settings=None, version=1, selected="paris-fr"):
    daemon.state_file.parent.mkdir(parents=True, exist_ok=True)
    daemon.state_file.write_text(json.dumps({
        "version": version, "locations": locations, "selected": selected,
        "settings": settings or {"units": "si"}}))


def cached_forecast(**changes):
    forecast = json.loads((FIXTURES / "Golden" / "openmeteo-paris.forecast.json").read_text())
    # As if fetched now: a forecast whose times have all passed is stale however new.
    recorded = forecast["fetchedAt"]
    forecast = moved_in_time(forecast, hours_since(recorded), recorded)
    forecast.update(changes)
    return {"version": 2, "latitude": PARIS["latitude"], "longitude": PARIS["longitude"],
            "etag": None, "lastModified": None, "forecast": forecast}


def write_cache(daemon, place_id, content):
    path = daemon.cache_file(place_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


@pytest.mark.parametrize("case", ["latitude-1e300", "longitude-500", "refresh-minutes-1e12", "id-traversal"])
def test_invalid_state_values_are_reported_and_dropped_not_a_trap(daemon_factory, case):
    daemon = daemon_factory(start=False)
    london = {"id": "london-gb", "name": "London", "latitude": 51.5, "longitude": -0.12}
    settings = {"units": "si"}
    bad = dict(PARIS)
    if case == "latitude-1e300":
        bad["latitude"] = 1e300
    elif case == "longitude-500":
        bad["longitude"] = 500.25
    elif case == "id-traversal":
        bad["id"] = "../../escaped"
    if case == "refresh-minutes-1e12":
        settings["refreshMinutes"] = 10**12
    locations = [bad, london]
    write_state(daemon, locations, settings, selected=bad["id"])
    original = daemon.state_file.read_text()
    daemon.start()
    listed = json.loads(daemon.ctl("list", "--json", check=True).stdout)
    ids = [l["id"] for l in listed["locations"]]
    if case == "refresh-minutes-1e12":
        assert ids == ["london-gb", "paris-fr"]
        assert daemon.state()["settings"]["refreshMinutes"] is None
    else:
        assert ids == ["london-gb"], "the invalid place is dropped, the valid one kept"
    kept = list(daemon.state_file.parent.glob("state.json.invalid-*"))
    assert len(kept) == 1 and kept[0].read_text() == original, "the original is kept beside the repaired file"
    assert "<3>" in daemon.read_log() and str(kept[0]) in daemon.read_log()
    # It keeps serving and changing; nothing was written outside raind's directories.
    daemon.ctl("add", "--coords", "1,1", "--name", "Somewhere", check=True)
    assert not (daemon.base / "escaped").exists() and not (daemon.base / "escaped.json").exists()
    assert not list(daemon.base.rglob("escaped*"))
    assert daemon.stop() == 0


def test_state_version_zero_is_invalid_not_newer(daemon_factory):
    daemon = daemon_factory(start=False)
    write_state(daemon, [PARIS], version=0)
    daemon.start()
    log = daemon.read_log()
    assert "version 0 is invalid" in log and "newer raind" not in log
    assert len(list(daemon.state_file.parent.glob("state.json.corrupt-*"))) == 1


@pytest.mark.parametrize("fetched_at", [1e308, -5, "future"])
def test_cache_with_impossible_or_future_fetch_time_is_refetched(weather_daemon, fixture_server, fetched_at):
    daemon = weather_daemon(start=False)
    write_state(daemon, [PARIS])
    import time
    when = time.time() + 86400 * 365 if fetched_at == "future" else fetched_at
    write_cache(daemon, "paris-fr", cached_forecast(fetchedAt=when))
    daemon.start()
    # Fetched at start because the cached copy is unusable or counts as stale.
    wait_for(lambda: fixture_server.count("/v1/forecast") >= 1, what="a fetch at start")
    wait_for(lambda: json.loads(daemon.cache_file("paris-fr").read_text())["forecast"]["fetchedAt"] <= time.time())
    forecast = daemon.client().call("GetForecast")["parameters"]
    assert 0 <= forecast["ageSeconds"] < 60
    assert daemon.stop() == 0


def test_place_with_the_id_budget_does_not_share_the_call_counter(weather_daemon, fixture_server):
    daemon = weather_daemon(start=False)
    write_state(daemon, [dict(PARIS, id="budget", name="Budget")], selected="budget")
    daemon.start()
    wait_for(lambda: daemon.cache_file("budget").exists(), what="the forecast of 'Budget' cached")
    counter = json.loads((daemon.cache_home / "raind" / "budget.json").read_text())
    assert counter["requests"] == 1, "the call counter survives a place called Budget"
    assert json.loads(daemon.ctl("status", "--json").stdout)["requestsToday"] == 1


def test_legacy_cache_file_is_moved_into_forecasts(weather_daemon, fixture_server):
    daemon = weather_daemon(start=False)
    write_state(daemon, [PARIS])
    legacy = daemon.cache_home / "raind" / "paris-fr.json"
    legacy.parent.mkdir(parents=True, exist_ok=True)
    import time
    legacy.write_text(json.dumps(cached_forecast(fetchedAt=time.time() - 60)))
    daemon.start()
    assert daemon.client().call("GetForecast")["parameters"]["stale"] is False
    assert daemon.cache_file("paris-fr").exists() and not legacy.exists()
    assert fixture_server.count("/v1/forecast") == 0, "a moved cache file costs no request"


def test_leftover_temporary_files_are_removed_at_start(daemon_factory):
    daemon = daemon_factory(start=False)
    write_state(daemon, [PARIS])
    leftovers = [daemon.state_file.parent / "state.json.tmp.4242",
                 daemon.cache_home / "raind" / "budget.json.tmp.77",
                 daemon.cache_file("paris-fr").parent / "paris-fr.json.tmp.9"]
    keep = daemon.state_file.parent / "notes.tmp.txt"
    for path in leftovers + [keep]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half written")
    daemon.start()
    assert not [p for p in leftovers if p.exists()]
    assert keep.exists(), "only raind's own temporary names are removed"


def test_fifos_in_place_of_files_never_block_raind(weather_daemon, fixture_server):
    daemon = weather_daemon(start=False)
    daemon.state_file.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(daemon.state_file)
    cache = daemon.cache_file("paris-fr")
    cache.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(daemon.cache_home / "raind" / "budget.json")
    dropin = daemon.config_home / "raind" / "raind.conf.d"
    dropin.mkdir(parents=True, exist_ok=True)
    os.mkfifo(dropin / "50-fifo.conf")
    # A FIFO drop-in is a configuration error: raind says so and does not start.
    result = subprocess.run([daemon.args[0]] if daemon.args else [os.path.join(os.path.dirname(RAINDCTL), "raind")],
                            env=daemon.env, capture_output=True, text=True, timeout=10)
    assert result.returncode != 0 and "not a regular file" in result.stderr
    os.unlink(dropin / "50-fifo.conf")
    daemon.start()
    assert len(list(daemon.state_file.parent.glob("state.json.corrupt-*"))) == 1
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    wait_for(lambda: cache.exists(), what="the forecast cached despite the FIFO budget file")
    assert daemon.stop() == 0


def test_crlf_and_byte_order_mark_in_configuration_are_accepted(daemon_factory):
    daemon = daemon_factory(start=False)
    path = daemon.config_home / "raind" / "raind.conf"
    text = daemon.loopback_only("[Refresh]\nIntervalMinutes=45\nDailyBudget=77\n")
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    daemon.start()
    assert "error" not in daemon.read_log()
    assert json.loads(daemon.ctl("status", "--json", check=True).stdout)["dailyBudget"] == 77


def test_provider_delays_are_capped_at_six_hours(weather_daemon, fixture_server):
    import time
    fixture_server.script(path_prefix="/v1/forecast", mode="status", status=429, retry_after=250_000_000_000, count=-1)
    daemon = weather_daemon()
    sub = Subscriber(daemon, events=["RefreshFailed"])
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    failed = sub.until("RefreshFailed")
    assert failed["failure"]["retryAfter"] - time.time() <= 6 * 3600 + 5
    sub.stop()
    fixture_server.reset()
    other = weather_daemon(base=daemon.base / "second")
    fixture_server.script(path_prefix="/v1/forecast", mode="normal", max_age=2_000_000_000, count=-1)
    other.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    wait_for(lambda: json.loads(other.ctl("status", "--json").stdout).get("nextRefresh"), what="a next refresh")
    wait_for(lambda: json.loads(other.ctl("status", "--json").stdout).get("lastRefresh"), what="a fetch")
    status = json.loads(other.ctl("status", "--json").stdout)
    # Six hours, plus the jitter of up to 10 % of the 30-minute interval.
    assert status["nextRefresh"] - time.time() <= 6 * 3600 + 180 + 5


@pytest.mark.parametrize("status", [200, 400, 429, 503, 403])
def test_a_provider_echoing_the_key_never_gets_it_out(daemon_factory, fixture_server, tmp_path, status):
    key = "k3y+S3kret=abc123XYZ"
    encoded = "k3y%2BS3kret%3Dabc123XYZ"
    (tmp_path / "api-key").write_text(key + "\n")
    fixture_server.script(path_prefix="/forecast/", mode="echo", status=status, count=-1)
    daemon = daemon_factory(config=(
        f"[Provider]\nName=pirateweather\nBaseURL={fixture_server.url}\nApiKeyFile={tmp_path / 'api-key'}\n"
        "TimeoutSec=3\n"), args=["--log-level", "debug"])
    sub = Subscriber(daemon, events=["RefreshFailed"])
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    failed = sub.until("RefreshFailed")
    assert fixture_server.count("/forecast/") >= 1
    assert encoded in json.dumps(fixture_server.stats()["paths"]), "the server did receive the key"
    reply = daemon.client().call("Refresh", {"id": "paris-fr"})
    status_reply = daemon.client().call("GetStatus")
    sub.stop()
    texts = {
        "RefreshFailed": json.dumps(failed),
        "Refresh reply": json.dumps(reply),
        "GetStatus.lastError": json.dumps(status_reply["parameters"]["status"].get("lastError")),
        "log": daemon.read_log(),
        "raindctl status": daemon.ctl("status").stdout + daemon.ctl("status").stderr,
    }
    for where, text in texts.items():
        for secret in (key, encoded, encoded.lower(), "S3kret"):
            assert secret not in text, f"the key reached {where}: {text[:400]}"
    if status == 200:
        # The body's error text is shown, with the echoed key cut out.
        assert "<redacted>" in texts["RefreshFailed"], texts["RefreshFailed"]


def test_control_characters_from_a_client_are_refused(daemon):
    for name in ("Evil\x1b]0;pwned\x07", "Over\rwrite", "Bell\x07"):
        reply = daemon.client().call("AddLocation", {"latitude": 1, "longitude": 1, "name": name})
        assert reply["error"] == "org.varlink.service.InvalidParameter", reply
        assert reply["parameters"]["parameter"] == "name"
    reply = daemon.client().call("SearchPlaces", {"query": "Par\x1b[2Jis"})
    assert reply["error"] == "org.varlink.service.InvalidParameter"


def test_control_characters_from_the_online_geocoder_are_replaced(daemon_factory, tmp_path):
    from raindtest import FixtureServer
    hostile = tmp_path / "fixtures"
    hostile.mkdir()
    data = json.loads((FIXTURES / "openmeteo-geocoding-enschede.json").read_text())
    for result in data["results"]:
        # The name must match what was asked (online answers are accepted only then);
        # the control codes ride in the fields around it.
        result["name"] = "Zzqqxxnowhere"
        result["admin1"] = "Re\x1bgion\x07\r"
        result["country"] = "Coun\x1b[31mtry"
    (hostile / "geo.json").write_text(json.dumps(data))
    server = FixtureServer(routes=[("/v1/search", "geo.json")], directory=hostile)
    try:
        daemon = daemon_factory(config=f"[Places]\nGeocoderURL={server.url}\n")
        daemon.ctl("add", "Zzqqxxnowhere", check=True)
        names = [l["name"] + l["region"] for l in daemon.state()["locations"]]
        assert names and all("\x1b" not in n and "\x07" not in n and "\r" not in n for n in names), names
    finally:
        server.stop()


class FakeDaemon:
    """A Varlink server on a temporary socket that answers every call with a
    reply full of control codes: what a compromised or buggy raind could send."""

    def __init__(self, path):
        self.path = str(path)
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(4)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        evil = "Pa\x1b]0;title\x07ris\x1b[2J\r\x9b"
        location = {"id": "paris-fr", "name": evil, "region": evil, "country": evil, "countryCode": "FR",
                    "latitude": 1.0, "longitude": 1.0, "timeZone": "", "source": {"kind": "coordinates"}}
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            buffer = b""
            while b"\0" not in buffer:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                buffer += chunk
            reply = {"parameters": {"locations": [location], "selected": "paris-fr"}}
            if b"RemoveLocation" in buffer:
                reply = {"error": "io.raind.Weather.ProviderError", "parameters": {"message": evil}}
            connection.sendall(json.dumps(reply).encode() + b"\0")
            connection.close()


def test_raindctl_strips_control_characters_from_what_the_daemon_sends(tmp_path):
    FakeDaemon(tmp_path / "fake.sock")
    env = dict(os.environ, RAIND_SOCKET=str(tmp_path / "fake.sock"))
    listed = subprocess.run([RAINDCTL, "list"], env=env, capture_output=True, timeout=10)
    removed = subprocess.run([RAINDCTL, "remove", "paris-fr"], env=env, capture_output=True, timeout=10)
    assert b"paris-fr" in listed.stdout and b"Pa]0;titleris" in listed.stdout, listed
    for output in (listed.stdout, listed.stderr, removed.stdout, removed.stderr):
        for code in (b"\x1b", b"\x07", b"\r", "\x9b".encode()):
            assert code not in output, output
