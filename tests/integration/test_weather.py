"""Weather from a provider: the real raind against the fixture HTTP server."""
import re
import json
import os
import subprocess
import time

import pytest

from raindtest import FIXTURES, Subscriber, wait_for

PARIS = ("48.8534,2.3488", "Paris")


def add_paris(daemon):
    return daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)


def test_added_place_is_fetched_published_and_cached(weather_daemon, fixture_server):
    daemon = weather_daemon()
    sub = Subscriber(daemon)
    add_paris(daemon)
    started = sub.until("RefreshStarted")
    assert started["ids"] == ["paris-fr"]
    updated = sub.until("WeatherUpdated")
    assert updated["id"] == "paris-fr"
    forecast = updated["forecast"]
    assert forecast["provider"] == "open-meteo"
    assert len(forecast["hourly"]) == 48 and len(forecast["daily"]) == 7
    assert fixture_server.count("/v1/forecast") == 1
    headers = fixture_server.stats()["last_headers"]["/v1/forecast"]
    assert headers["user-agent"].startswith("raind/") and "gzip" in headers["accept-encoding"]
    cache = daemon.cache_file("paris-fr")
    assert json.loads(cache.read_text())["forecast"]["fetchedAt"] == forecast["fetchedAt"]
    reply = daemon.client().call("GetForecast")["parameters"]
    assert reply["stale"] is False and reply["ageSeconds"] < 5
    assert reply["forecast"]["current"]["temperature"] == forecast["current"]["temperature"]
    sub.stop()


def test_cached_forecast_is_served_at_start_without_network(weather_daemon, fixture_server, daemon_factory):
    daemon = weather_daemon()
    add_paris(daemon)
    wait_for(lambda: (daemon.cache_file("paris-fr")).exists())
    before = daemon.client().call("GetForecast")["parameters"]["forecast"]
    daemon.stop()
    fixture_server.stop()
    again = daemon_factory(config=(daemon.config_home / "raind" / "raind.conf").read_text())
    reply = again.client().call("GetForecast")["parameters"]
    assert reply["forecast"] == before, "the cache is loaded before the socket serves"
    now = again.ctl("now", check=True).stdout
    assert "Paris" in now and "Updated" in now


def test_corrupt_cache_is_discarded_and_refetched(weather_daemon, fixture_server, daemon_factory):
    daemon = weather_daemon()
    add_paris(daemon)
    cache = daemon.cache_file("paris-fr")
    wait_for(cache.exists)
    daemon.stop()
    cache.write_text('{"version": 1, "forecast": {')
    fixture_server.reset()
    again = daemon_factory(config=(daemon.config_home / "raind" / "raind.conf").read_text())
    wait_for(lambda: fixture_server.count("/v1/forecast") == 1, what="a new fetch")
    assert "corrupt" in again.read_log()
    wait_for(lambda: json.loads(cache.read_text()).get("forecast") is not None)


def test_cache_of_the_previous_version_is_fetched_anew(weather_daemon, fixture_server, daemon_factory):
    daemon = weather_daemon()
    add_paris(daemon)
    cache = daemon.cache_file("paris-fr")
    wait_for(cache.exists)
    daemon.stop()
    # Version 1 read hourly rain at the end of its hour and had no attribution.
    old = json.loads(cache.read_text())
    old["version"] = 1
    del old["forecast"]["attribution"]
    cache.write_text(json.dumps(old))
    fixture_server.reset()
    again = daemon_factory(config=(daemon.config_home / "raind" / "raind.conf").read_text())
    wait_for(lambda: fixture_server.count("/v1/forecast") == 1, what="a new fetch")
    assert "not version 2" in again.read_log()
    wait_for(lambda: json.loads(cache.read_text()).get("version") == 2)
    assert json.loads(cache.read_text())["forecast"]["attribution"]["url"] == "https://open-meteo.com/"


def test_not_modified_keeps_data_and_counts_as_fresh(weather_daemon, fixture_server, daemon_factory):
    daemon = weather_daemon()
    add_paris(daemon)
    cache = daemon.cache_file("paris-fr")
    wait_for(cache.exists)
    daemon.stop()
    # Make the cached data an hour old: stale at the next start.
    stored = json.loads(cache.read_text())
    stored["forecast"]["fetchedAt"] -= 3600
    cache.write_text(json.dumps(stored))
    assert stored["etag"], "the ETag is kept for conditional requests"
    fixture_server.reset()
    again = daemon_factory(config=(daemon.config_home / "raind" / "raind.conf").read_text())
    wait_for(lambda: fixture_server.count("/v1/forecast") == 1)
    assert fixture_server.stats()["last_headers"]["/v1/forecast"]["if-none-match"] == stored["etag"]
    reply = wait_for(lambda: (r := again.client().call("GetForecast")["parameters"])["ageSeconds"] < 60 and r)
    assert reply["stale"] is False
    assert reply["forecast"]["hourly"] == stored["forecast"]["hourly"]


def test_refresh_burst_costs_one_request(weather_daemon, fixture_server):
    daemon = weather_daemon()
    add_paris(daemon)
    wait_for(lambda: fixture_server.count() == 1)
    watch = Subscriber(daemon, events=["RefreshStarted", "SettingsChanged"])
    subscribers = [Subscriber(daemon) for _ in range(10)]
    for _ in range(5):
        assert daemon.ctl("refresh", check=True).stdout.strip() == "Updated: paris-fr"
    assert "RefreshStarted" not in [event["event"] for event in watch.events_before_now()]
    assert fixture_server.count() == 1
    watch.stop()
    for sub in subscribers:
        sub.stop()


def test_refresh_joins_a_request_under_way(weather_daemon, fixture_server):
    fixture_server.script(path_prefix="/v1/forecast", mode="slow-headers", delay=1, count=1)
    daemon = weather_daemon()
    add_paris(daemon)  # starts the slow fetch
    results = [subprocess.Popen([*daemon_ctl(daemon), "refresh"], stdout=subprocess.PIPE, text=True)
               for _ in range(3)]
    outputs = [p.communicate(timeout=10)[0] for p in results]
    assert all("Updated: paris-fr" in out for out in outputs), outputs
    assert fixture_server.count() == 1


def daemon_ctl(daemon):
    from raindtest import RAINDCTL
    return [RAINDCTL, "--socket", str(daemon.socket)]


def test_status_answers_while_a_request_stalls(weather_daemon, fixture_server):
    fixture_server.script(path_prefix="/v1/forecast", mode="stall", count=1)
    daemon = weather_daemon()
    sub = Subscriber(daemon)
    add_paris(daemon)
    sub.until("RefreshStarted")
    client = daemon.client()
    for _ in range(10):
        assert "status" in client.call("GetStatus")["parameters"]
    # All ten answered while the request was still stalled: it has not failed yet.
    assert not any(event["event"] == "RefreshFailed" for event in sub.drain())
    failed = sub.until("RefreshFailed", timeout=15)
    assert "timed out" in failed["failure"]["message"] or "timeout" in failed["failure"]["message"].lower()
    sub.stop()


@pytest.mark.parametrize("script, expected", [
    ({"mode": "status", "status": 500}, "failed (HTTP 500)"),
    ({"mode": "status", "status": 503, "retry_after": 120}, "wait 120 s"),
    ({"mode": "status", "status": 404}, "BaseURL="),
    ({"mode": "malformed"}, "answered with a web page (a captive portal?)"),
    ({"mode": "truncated"}, ""),
    ({"mode": "huge", "size": 6_000_000}, "larger"),
    ({"mode": "reset"}, ""),
], ids=["500", "503-retry-after", "404", "malformed", "truncated", "huge", "reset"])
def test_provider_failures_reach_the_user_and_cached_data_survives(weather_daemon, fixture_server, script, expected):
    daemon = weather_daemon()
    add_paris(daemon)
    wait_for(lambda: (daemon.cache_file("paris-fr")).exists())
    good = daemon.client().call("GetForecast")["parameters"]["forecast"]
    fixture_server.script(path_prefix="/v1/forecast", count=-1, **script)
    sub = Subscriber(daemon, events=["RefreshFailed"])
    # A second place has no data, so a refresh of it always asks the provider.
    daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
    failed = sub.until("RefreshFailed", timeout=15)
    assert failed["id"] == "london-gb"
    assert failed["failure"]["error"] == "ProviderError"
    assert expected in failed["failure"]["message"], failed
    result = daemon.ctl("refresh", "london-gb")
    assert result.returncode == 1 and result.stderr.startswith("raindctl: "), result
    assert daemon.client().call("GetForecast")["parameters"]["forecast"] == good, "cached data is kept"
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["lastError"]["error"] == "ProviderError"
    assert "status" in daemon.client().call("GetStatus")["parameters"]
    sub.stop()


def test_rate_limit_retry_after_is_honoured(weather_daemon, fixture_server):
    fixture_server.script(path_prefix="/v1/forecast", mode="status", status=429, retry_after=300, count=-1)
    daemon = weather_daemon()
    sub = Subscriber(daemon, events=["RefreshFailed"])
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    assert failed["failure"]["httpStatus"] == 429
    assert failed["failure"]["retryAfter"] - time.time() == pytest.approx(300, abs=5)
    calls = fixture_server.count()
    result = daemon.ctl("refresh")
    assert result.returncode == 1 and "429" in result.stderr
    assert fixture_server.count() == calls, "no request before Retry-After, even when a person asks"
    sub.stop()


def test_open_meteo_rate_limit_reason_is_shown_and_sets_the_wait(weather_daemon, fixture_server):
    reason = "Minutely API request limit exceeded. Please try again in one minute."
    fixture_server.script(path_prefix="/v1/forecast", mode="status", status=429, reason=reason, count=-1)
    daemon = weather_daemon()
    sub = Subscriber(daemon, events=["RefreshFailed"])
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    assert failed["failure"]["httpStatus"] == 429 and reason in failed["failure"]["message"], failed
    # No Retry-After: the reason names the per-minute limit, so raind waits a minute.
    assert failed["failure"]["retryAfter"] - time.time() == pytest.approx(60, abs=5)
    assert reason in daemon.client().call("GetStatus")["parameters"]["status"]["lastError"]["message"]
    calls = fixture_server.count()
    result = daemon.ctl("refresh")
    assert result.returncode == 1 and reason in result.stderr
    assert fixture_server.count() == calls
    sub.stop()


def test_open_meteo_bad_request_reason_is_shown(weather_daemon, fixture_server):
    reason = "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly"
    fixture_server.script(path_prefix="/v1/forecast", mode="status", status=400, reason=reason, count=-1)
    daemon = weather_daemon()
    sub = Subscriber(daemon, events=["RefreshFailed"])
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    assert failed["failure"]["httpStatus"] == 400 and reason in failed["failure"]["message"], failed
    # A row past 80 columns continues under its value; read it as one line.
    status = re.sub(r"\n +", " ", daemon.ctl("status").stdout)
    assert reason in status, status
    sub.stop()


def test_unauthorized_stops_requests_until_any_reload(weather_daemon, fixture_server):
    fixture_server.script(path_prefix="/v1/forecast", mode="status", status=401, count=-1)
    daemon = weather_daemon()
    sub = Subscriber(daemon, events=["RefreshFailed"])
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    message = failed["failure"]["message"]
    # open-meteo takes no key: the refusal must not send the person looking for one.
    assert "needs no API key" in message and "key is wrong" not in message and "reload" in message
    calls = fixture_server.count()
    daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
    assert daemon.ctl("refresh", "--all").returncode == 1
    assert fixture_server.count() == calls, "a refusal stops requests"
    # A reload gives another chance even when nothing changed (docs/CONFIGURATION.md).
    fixture_server.reset()
    daemon.process.send_signal(1)  # SIGHUP
    wait_for(lambda: daemon.read_log().count("configuration reloaded") == 1)
    wait_for(lambda: fixture_server.count() >= 1, what="requests after an unchanged reload")
    sub.stop()


def test_unauthorized_key_is_blamed_for_a_provider_with_a_key(daemon_factory, fixture_server, tmp_path):
    key = tmp_path / "api-key"
    key.write_text("k3y-sekret-0123456789\n")
    fixture_server.script(path_prefix="/forecast/", mode="status", status=403, count=-1)
    daemon = daemon_factory(config=(
        f"[Provider]\nName=pirateweather\nBaseURL={fixture_server.url}\nApiKeyFile={key}\nTimeoutSec=3\n"))
    sub = Subscriber(daemon, events=["RefreshFailed"])
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    assert "API key is wrong" in failed["failure"]["message"]
    sub.stop()


def test_unreachable_provider_is_offline(daemon_factory):
    daemon = daemon_factory(config="[Provider]\nBaseURL=http://127.0.0.1:9\n")
    sub = Subscriber(daemon)
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    assert failed["failure"]["error"] == "Offline"
    change = sub.until("ReachabilityChanged")
    assert change["online"] is False
    assert json.loads(daemon.ctl("status", "--json").stdout)["online"] is False
    sub.stop()


def test_days_after_a_clock_change_are_served_on_local_midnights(weather_daemon, fixture_server):
    # Open-Meteo keeps the offset valid when asked (UTC+1) for the whole week;
    # raind moves the days after the change to summer time to 00:00 CEST.
    fixture_server.script(path_prefix="/v1/forecast", file="openmeteo-forecast-paris-dst.json", count=-1)
    daemon = weather_daemon()
    add_paris(daemon)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    forecast = daemon.client().call("GetForecast")["parameters"]["forecast"]
    sent = json.loads((FIXTURES / "openmeteo-forecast-paris-dst.json").read_text())["daily"]["time"]
    assert sent[2] == 1774825200  # 2026-03-30 00:00 UTC+1, i.e. 01:00 CEST
    assert [day["time"] for day in forecast["daily"]] == sent[:2] + [t - 3600 for t in sent[2:]]


def test_pirateweather_without_key_is_not_configured(weather_daemon, fixture_server):
    daemon = weather_daemon(provider="pirateweather")
    add_paris(daemon)
    result = daemon.ctl("refresh")
    assert result.returncode == 1
    assert "needs an API key" in result.stderr and "ApiKeyFile=" in result.stderr
    assert fixture_server.count() == 0


def test_pirateweather_key_is_used_but_never_shown(weather_daemon, fixture_server, tmp_path):
    secret = "sEcReT-KeY-1234567890"
    credentials = tmp_path / "credentials"
    credentials.mkdir()
    (credentials / "api-key").write_text(secret + "\n")
    daemon = weather_daemon(provider="pirateweather", extra_env={"CREDENTIALS_DIRECTORY": str(credentials)},
                            args=("--log-level", "debug"))
    sub = Subscriber(daemon)
    add_paris(daemon)
    updated = sub.until("WeatherUpdated")
    alerts = sub.until("AlertsChanged")
    assert alerts["alerts"] and alerts["alerts"][0]["title"]
    paths = fixture_server.stats()["paths"]
    assert any(secret in path for path in paths), paths
    # Now make the provider fail, so the key has every chance to leak into errors.
    fixture_server.script(path_prefix="/forecast/", mode="status", status=500, count=-1)
    daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
    sub.until("RefreshFailed")
    refresh = daemon.ctl("refresh", "london-gb")
    status = daemon.ctl("status", "--json").stdout
    events = sub.events_before_now()
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    daemon.stop()
    for text in (daemon.read_log(), json.dumps(updated), refresh.stderr, status, ps, json.dumps(events)):
        assert secret not in text
    assert "redacted" in daemon.read_log(), "request URLs are logged with the key redacted"
    sub.stop()


def test_subscribe_for_people_and_bars_shows_weather_in_one_line(weather_daemon, fixture_server):
    from raindtest import RAINDCTL
    daemon = weather_daemon()
    daemon.ctl("units", "us", check=True)
    people = subprocess.Popen([RAINDCTL, "--socket", str(daemon.socket), "subscribe"],
                              stdout=subprocess.PIPE, text=True, env=daemon.env)
    bar = subprocess.Popen([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "waybar"],
                           stdout=subprocess.PIPE, text=True, env=daemon.env)
    try:
        assert "Snapshot 0 places" in people.stdout.readline()
        assert json.loads(bar.stdout.readline())["text"].startswith("no place")
        add_paris(daemon)
        line = ""
        while "WeatherUpdated" not in line:
            line = people.stdout.readline()
        assert "WeatherUpdated Paris " in line and "°" in line and "mph" in line, line
        waybar = json.loads(bar.stdout.readline())
        while "°" not in waybar["text"]:
            waybar = json.loads(bar.stdout.readline())
        assert waybar["text"].startswith("Paris ") and "ok" in waybar["class"]
        assert "Feels like" in waybar["tooltip"]
        assert "Weather data by Open-Meteo.com (CC BY 4.0) https://open-meteo.com/" in waybar["tooltip"]
    finally:
        people.terminate()
        bar.terminate()


def test_now_hourly_daily_show_the_cached_forecast(weather_daemon, fixture_server):
    daemon = weather_daemon()
    add_paris(daemon)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    now = daemon.ctl("now", check=True).stdout
    assert now.startswith("Paris, Ile-de-France, France") and "Feels like" in now and "Updated just now" in now
    credit = "Weather data by Open-Meteo.com (CC BY 4.0) https://open-meteo.com/"
    assert now.rstrip("\n").endswith(credit)
    for view in ("hourly", "daily"):
        assert daemon.ctl(view, check=True).stdout.rstrip("\n").endswith(credit)
    assert daemon.ctl("now", "london").returncode == 1
    as_json = json.loads(daemon.ctl("daily", "--json", check=True).stdout)
    assert len(as_json["forecast"]["daily"]) == 7 and as_json["stale"] is False
    assert as_json["forecast"]["attribution"] == {"text": "Weather data by Open-Meteo.com (CC BY 4.0)",
                                                  "url": "https://open-meteo.com/"}
    assert daemon.ctl("hourly", "--hours", "3", check=True).returncode == 0
    assert daemon.ctl("hourly", "--hours", "99").returncode == 64


def test_status_says_when_the_last_error_happened_and_drops_it_after_a_success(weather_daemon, fixture_server):
    daemon = weather_daemon()
    fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="status", status=500)
    sub = Subscriber(daemon, events=["RefreshFailed", "WeatherUpdated"])
    add_paris(daemon)
    sub.until("RefreshFailed")
    status = daemon.ctl("status", check=True).stdout
    assert re.search(r"Last error: +just now: .*HTTP 500", status), status
    failure = daemon.client().call("GetStatus")["parameters"]["status"]["lastError"]
    assert failure["time"] is not None
    fixture_server.reset()
    daemon.ctl("refresh", check=True)
    assert "Last error" not in daemon.ctl("status", check=True).stdout
    assert daemon.client().call("GetStatus")["parameters"]["status"]["lastError"] is None
    sub.stop()


def test_a_libcurl_that_cannot_be_loaded_fails_requests_with_advice(weather_daemon, fixture_server, tmp_path):
    """raind opens libcurl at its first request, not at start; a broken one found first on the
    library path fails that request and the next, each saying what to install, and the daemon
    keeps serving."""
    broken = tmp_path / "broken-lib"
    broken.mkdir()
    (broken / "libcurl.so.4").write_text("not a shared object\n")
    daemon = weather_daemon(extra_env={"LD_LIBRARY_PATH": str(broken)})
    sub = Subscriber(daemon, events=["RefreshFailed"])
    add_paris(daemon)
    failed = sub.until("RefreshFailed")
    assert failed["failure"]["error"] == "NotConfigured", failed
    message = failed["failure"]["message"]
    assert "libcurl could not be loaded" in message and "libcurl.so.4" in message, message
    assert "install libcurl" in message, message
    result = daemon.ctl("refresh")
    assert result.returncode == 1 and "libcurl could not be loaded" in result.stderr, result
    assert fixture_server.count("/v1/forecast") == 0
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    assert status["lastError"]["error"] == "NotConfigured"
    # Requests that never left count against no budget.
    assert status["requestsToday"] == 0 and status["callsToday"] == 0, status
    assert daemon.process.poll() is None
    sub.stop()
