"""Growth has limits (issue 24): a forecast's size is bounded whatever a
provider sends, absurd values are refused, saved places are capped."""
import json
import os
import subprocess
import time

import pytest

from raindtest import FIXTURES, RAIND, FixtureServer, change_until_no_subscriber, read_until_closed, slow_subscriber, wait_for

PARIS = ("48.8534,2.3488", "Paris")


def open_meteo_answer(rows, temperature=None):
    """Paris's recorded Open-Meteo answer moved to now, its hourly table
    stretched to `rows` rows of time and temperature (3.6 MB at 300,000)."""
    answer = json.loads((FIXTURES / "openmeteo-forecast-paris-unixtime.json").read_text())
    hour = int(time.time()) // 3600 * 3600
    shift = hour - answer["hourly"]["time"][0]
    answer["current"]["time"] = int(time.time()) // 900 * 900
    answer["daily"]["time"] = [t + shift for t in answer["daily"]["time"]]
    for key in ("sunrise", "sunset"):
        answer["daily"][key] = [t + shift for t in answer["daily"][key]]
    answer["hourly"] = {
        "time": [hour + 3600 * n for n in range(rows)],
        "temperature_2m": [temperature if temperature is not None and n == 1 else n % 10 for n in range(rows)],
    }
    return json.dumps(answer, separators=(",", ":"))


@pytest.fixture
def answer_server(tmp_path):
    servers = []

    def make(text):
        directory = tmp_path / "answers"
        directory.mkdir(exist_ok=True)
        (directory / "forecast.json").write_text(text)
        server = FixtureServer(routes=[("/v1/forecast", "forecast.json")], directory=directory)
        servers.append(server)
        return server
    yield make
    for server in servers:
        server.stop()


def rss_peak_kib(daemon):
    status = pathlib_read(f"/proc/{daemon.process.pid}/status")
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))


def pathlib_read(path):
    with open(path) as handle:
        return handle.read()


def test_a_huge_answer_is_cut_to_the_horizon_in_memory_on_disk_and_on_the_wire(daemon_factory, answer_server):
    body = open_meteo_answer(300_000)
    assert 3_000_000 < len(body) < 4 * 1024 * 1024, "under the body limit: only the horizon can bound it"
    server = answer_server(body)
    daemon = daemon_factory(config=f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=10\n")
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    wait_for(lambda: daemon.cache_file("paris-fr").exists(), timeout=20, what="the forecast cached")
    reply = daemon.client().call("GetForecast")["parameters"]
    assert len(reply["forecast"]["hourly"]) == 384, "16 days of hours kept"
    wire = len(json.dumps(reply, separators=(",", ":")))
    cache = daemon.cache_file("paris-fr").stat().st_size
    peak = rss_peak_kib(daemon)
    print(f"answer {len(body)} bytes; GetForecast reply {wire} bytes; cache file {cache} bytes; raind VmHWM {peak} KiB")
    assert wire < 150_000 and cache < 150_000
    assert peak < 64 * 1024, "parsing builds at most ForecastHorizon.arrayElements of each array"
    log = daemon.read_log()
    assert "open-meteo sent more than raind keeps: 2048 hours (raind keeps 384)" in log
    assert daemon.stop() == 0


def test_an_absurd_value_is_refused_not_sent_on_the_wire(daemon_factory, answer_server):
    server = answer_server(open_meteo_answer(48, temperature=1e308))
    daemon = daemon_factory(config=f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=10\n")
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    refresh = daemon.ctl("refresh")
    assert refresh.returncode != 0
    assert "open-meteo sent an unusable forecast" in refresh.stderr and "no temperature" in refresh.stderr
    assert not daemon.cache_file("paris-fr").exists()
    assert "1e+308" not in daemon.ctl("now", "--json").stdout
    assert daemon.stop() == 0


def saved_places(count):
    return [{"id": f"place-{n}", "name": f"Place {n:04d}", "latitude": 40 + (n // 100) * 0.1,
             "longitude": (n % 100) * 0.1, "source": {"kind": "coordinates"}} for n in range(count)]


def test_saved_places_are_capped_with_an_error_that_says_what_to_do(daemon_factory):
    daemon = daemon_factory(start=False)
    daemon.state_file.parent.mkdir(parents=True, exist_ok=True)
    daemon.state_file.write_text(json.dumps({"version": 1, "locations": saved_places(249), "selected": "place-0",
                                             "settings": {"units": "si"}}))
    daemon.start()
    client = daemon.client()
    client.check = True
    last = client.call("AddLocation", {"latitude": -30.0, "longitude": 20.0, "name": "The last"})
    assert last["parameters"]["added"] is True
    refused = client.call("AddLocation", {"latitude": -31.0, "longitude": 20.0, "name": "One more"})
    assert refused["error"] == "io.raind.Weather.TooManyLocations"
    assert refused["parameters"]["limit"] == 250
    assert "remove one" in refused["parameters"]["message"]
    again = client.call("AddLocation", {"latitude": -30.0, "longitude": 20.0, "name": "The last"})
    assert again["parameters"]["added"] is False, "a place saved already is answered as usual"
    result = daemon.ctl("add", "--coords", "-32,20", "--name", "Another")
    assert result.returncode != 0 and "as many as raind keeps" in result.stderr, result.stderr
    assert len(daemon.state()["locations"]) == 250
    daemon.ctl("remove", "place-5", check=True)
    daemon.ctl("add", "--coords", "-32,20", "--name", "Another", check=True)
    assert daemon.stop() == 0


def test_a_redirect_to_another_server_is_refused(weather_daemon, fixture_server):
    other = FixtureServer(routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json")])
    try:
        daemon = weather_daemon()
        fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="redirect", to=other.url)
        daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
        refresh = daemon.ctl("refresh")
        assert refresh.returncode != 0
        assert f"was redirected to another server ({other.url})" in refresh.stderr, refresh.stderr
        assert not daemon.cache_file("paris-fr").exists(), "its answer is not taken"
        assert daemon.stop() == 0
    finally:
        other.stop()


@pytest.mark.parametrize("base_url", ["http://127.0.0.1:9", "http://no-such-host.invalid"], ids=["refused", "dns"])
def test_requests_that_never_reached_a_provider_count_nothing(daemon_factory, base_url):
    daemon = daemon_factory(config=f"[Provider]\nName=open-meteo\nBaseURL={base_url}\nConnectTimeoutSec=3\n")
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    for _ in range(3):
        refresh = daemon.ctl("refresh")
        assert refresh.returncode != 0
        assert ("could not connect" if "127.0.0.1" in base_url else "could not resolve") in refresh.stderr
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["requestsToday"] == 0 and status["callsToday"] == 0, status
    counted = {p["name"]: (p["requestsToday"], p["callsToday"]) for p in status["providers"]}
    assert counted == {"open-meteo": (0, 0)}, counted
    assert daemon.stop() == 0


def test_state_and_cache_files_that_are_symbolic_links_are_not_followed(daemon_factory, tmp_path):
    daemon = daemon_factory(start=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "someone-elses.json"
    original = json.dumps({"version": 1, "locations": saved_places(1), "selected": "place-0",
                           "settings": {"units": "si"}})
    target.write_text(original)
    daemon.state_file.parent.mkdir(parents=True, exist_ok=True)
    daemon.state_file.symlink_to(target)
    cache = daemon.cache_file("place-0")
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache_target = elsewhere / "cache-target.json"
    cache_target.write_text("{}")
    cache.symlink_to(cache_target)
    daemon.start()
    assert json.loads(daemon.ctl("list", "--json", check=True).stdout)["locations"] == [], "the link was not read"
    kept = list(daemon.state_file.parent.glob("state.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].is_symlink(), "the link itself is moved aside"
    assert "a symbolic link, which raind does not follow" in daemon.read_log()
    assert target.read_text() == original and cache_target.read_text() == "{}", "what they point at is untouched"
    assert daemon.stop() == 0


def test_a_state_or_cache_directory_others_can_write_is_refused_and_a_link_to_a_private_one_is_used(
        daemon_factory, tmp_path):
    daemon = daemon_factory(start=False)
    state = daemon.state_file.parent
    state.mkdir(parents=True)
    original = json.dumps({"version": 1, "locations": saved_places(1), "selected": "place-0",
                           "settings": {"units": "si"}})
    daemon.state_file.write_text(original)
    for directory, mode, role, who in ((state, 0o770, "state", "its group"),
                                       (daemon.cache_home / "raind", 0o1777, "cache", "every user")):
        directory.mkdir(parents=True, exist_ok=True)
        directory.chmod(mode)
        result = subprocess.run([RAIND], env=daemon.env, capture_output=True, text=True, timeout=10)
        assert result.returncode != 0, result.stderr
        assert (f"the {role} directory {directory} is not raind's own: it can be written by {who} "
                f"(mode {mode:o})") in result.stderr, result.stderr
        assert "chmod go-w" in result.stderr
        directory.chmod(0o700)
    assert daemon.state_file.read_text() == original, "nothing was read or written"
    # systemd's DynamicUser layout: the state directory is a link to a private one.
    private = tmp_path / "private" / "raind"
    private.parent.mkdir()
    state.rename(private)
    state.symlink_to(private)
    daemon.start()
    assert [p["id"] for p in json.loads(daemon.ctl("list", "--json", check=True).stdout)["locations"]] == ["place-0"]
    assert daemon.stop() == 0


@pytest.mark.parametrize("mode", [0o644, 0o600])
def test_a_key_file_others_can_read_is_warned_about(daemon_factory, fixture_server, tmp_path, mode):
    key = tmp_path / "api-key"
    key.write_text("k3y-for-tests\n")
    key.chmod(mode)
    daemon = daemon_factory(
        config=f"[Provider]\nName=pirateweather\nBaseURL={fixture_server.url}\nApiKeyFile={key}\n")
    warned = f"the API key file {key} can be read by every user of this machine (mode 0644); make it private"
    if mode == 0o644:
        wait_for(lambda: warned in daemon.read_log(), what="the warning")
        assert "<4>" in daemon.read_log()
    else:
        assert "can be read by every user" not in daemon.read_log()
    assert "k3y-for-tests" not in daemon.read_log()
    assert daemon.stop() == 0


def test_reloads_that_change_the_provider_refetch_a_place_once_per_freshness_window(daemon_factory):
    import signal
    server = FixtureServer(routes=[
        ("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"),
        ("/weatherapi/locationforecast/", "metno-forecast-oslo-dst.json"),
    ])
    try:
        configs = [f"[Provider]\nName={name}\nBaseURL={server.url}\nTimeoutSec=3\n" for name in ("open-meteo", "metno")]
        daemon = daemon_factory(config=configs[0])
        daemon.ctl("add", "--coords", "59.91,10.75", "--name", "Oslo", check=True)
        wait_for(lambda: daemon.cache_file("oslo-no").exists(), what="the first forecast")
        for n in range(1, 21):
            daemon.write_config(daemon.loopback_only(configs[n % 2]))
            daemon.process.send_signal(signal.SIGHUP)
            wait_for(lambda: daemon.read_log().count("configuration reloaded") == n, what=f"reload {n}")
        wait_for(lambda: json.loads(daemon.cache_file("oslo-no").read_text())["forecast"]["provider"] == "metno",
                 what="the place fetched from the new provider")
        requests = server.count("/v1/forecast") + server.count("/weatherapi/")
        assert requests == 2, f"20 reloads cost {requests} requests: the first fetch and one for the new provider"
        assert daemon.stop() == 0
    finally:
        server.stop()


def test_a_dropped_subscriber_that_reads_late_still_gets_subscriber_too_slow(daemon_factory):
    """Issue 24, point 6: the dropped subscriber read its backlog and then
    end-of-file, never SubscriberTooSlow: the idle timer closed the
    connection under its last words. They now wait for SlowClientTimeoutSec=."""
    daemon = daemon_factory(config="[Socket]\nIdleTimeoutSec=1\nSlowClientTimeoutSec=30\n", args=["--log-level", "debug"])
    slow = slow_subscriber(daemon)
    change_until_no_subscriber(daemon)
    # The subscriber comes back to reading only once the idle check has passed over it (it logs so).
    wait_for(lambda: "while its last words are unread; left to [Socket] SlowClientTimeoutSec=" in daemon.read_log(),
             what="the idle check to pass over the dropped subscriber", timeout=15)
    messages = read_until_closed(slow)
    assert messages and messages[-1].get("error") == "io.raind.Weather.SubscriberTooSlow", messages[-1:]
    assert daemon.stop() == 0
