"""systemd lifecycle and freshness: watchdog, reload, idle wake-ups, budget, shutdown."""
import json
import signal
import time

import pytest

from raindtest import Subscriber, wait_for
from test_lifecycle import NotifyListener

PARIS = "48.8534,2.3488"


def proc_status(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def context_switches(pid):
    return proc_status(pid, "voluntary_ctxt_switches") + proc_status(pid, "nonvoluntary_ctxt_switches")


def quiet(pid, window=1.0):
    """Whether `pid` went through `window` seconds without a context switch."""
    before = context_switches(pid)
    time.sleep(window)
    return context_switches(pid) == before


def test_watchdog_pings_come_from_the_loop(daemon_factory, tmp_path):
    listener = NotifyListener(tmp_path / "notify.sock")
    daemon = daemon_factory(start=False, extra_env={"NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"})
    daemon.start(wait=False)
    listener.wait_for("READY=1")
    time.sleep(1.1)
    pings = [m for m in listener.collect() if "WATCHDOG=1" in m]
    assert 3 <= len(pings) <= 8, f"expected a ping about every 200 ms, got {len(pings)} in 1.1 s"
    # A stopped loop stops pinging.
    daemon.process.send_signal(signal.SIGSTOP)
    listener.collect()
    listener.messages.clear()
    time.sleep(0.6)
    assert not [m for m in listener.collect() if "WATCHDOG=1" in m]
    daemon.process.send_signal(signal.SIGCONT)


def test_reload_sends_reloading_then_ready_and_keeps_state_and_clients(daemon_factory, tmp_path):
    listener = NotifyListener(tmp_path / "notify.sock")
    daemon = daemon_factory(start=False, extra_env={"NOTIFY_SOCKET": listener.path})
    daemon.start(wait=False)
    listener.wait_for("READY=1")
    daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
    sub = Subscriber(daemon, events=["SettingsChanged"])
    listener.messages.clear()
    daemon.write_config(daemon.loopback_only("[Refresh]\nIntervalMinutes=45\n"))
    daemon.process.send_signal(signal.SIGHUP)
    listener.wait_for("READY=1")
    reloading = next(m for m in listener.messages if "RELOADING=1" in m)
    assert "MONOTONIC_USEC=" in reloading
    assert listener.messages.index(reloading) < next(i for i, m in enumerate(listener.messages) if "READY=1" in m)
    status = json.loads(daemon.ctl("status", "--json", check=True).stdout)
    assert status["refreshMinutes"] == 45 and status["locations"] == 1
    # The interval in force changed: the subscriber is told, with the status that says it.
    assert sub.until("SettingsChanged")["status"]["refreshMinutes"] == 45
    daemon.ctl("units", "uk", check=True)
    assert sub.until("SettingsChanged")["settings"]["units"] == "uk", "the subscriber survived the reload"
    # A broken configuration is refused and the old one stays.
    daemon.write_config("[Refresh]\nIntervalMinutes=never\n")
    daemon.process.send_signal(signal.SIGHUP)
    wait_for(lambda: "configuration not reloaded" in daemon.read_log())
    assert json.loads(daemon.ctl("status", "--json").stdout)["refreshMinutes"] == 45
    sub.stop()


def test_status_line_for_systemctl(weather_daemon, fixture_server, tmp_path):
    listener = NotifyListener(tmp_path / "notify.sock")
    daemon = weather_daemon(start=False, extra_env={"NOTIFY_SOCKET": listener.path})
    daemon.start(wait=False)
    listener.wait_for("READY=1")
    daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
    listener.wait_for("STATUS=1 place, updated just now, online")


def test_sigterm_with_a_request_in_flight_exits_zero_without_waiting_for_it(weather_daemon, fixture_server):
    fixture_server.script(path_prefix="/v1/forecast", mode="stall", count=1)
    daemon = weather_daemon()
    sub = Subscriber(daemon, events=["RefreshStarted"])
    daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
    sub.until("RefreshStarted")
    assert daemon.stop(signal.SIGTERM) == 0
    # It did not wait for the stalled transfer to time out (TimeoutSec=3): that would be logged.
    assert "refreshing paris-fr failed" not in daemon.read_log()
    assert json.loads(daemon.state_file.read_text())["locations"][0]["name"] == "Paris"
    sub.stop()


def test_daily_budget_is_enforced_reported_and_kept_across_restarts(weather_daemon, fixture_server, daemon_factory):
    # Open-Meteo counts raind's request (31 variables) as 3.1 calls: 10 calls allow 3 requests, of
    # which the other places leave the one the selected place (Paris, every 1440 min) still needs today.
    daemon = weather_daemon(extra_config="[Refresh]\nDailyBudget=10\nIntervalMinutes=1440\n")
    for coords, name in ((PARIS, "Paris"), ("51.5085,-0.1257", "London")):
        daemon.ctl("add", "--coords", coords, "--name", name, check=True)
    wait_for(lambda: fixture_server.count() == 2)
    daemon.ctl("add", "--coords", "52.37,4.89", "--name", "Amsterdam", check=True)
    result = daemon.ctl("refresh", "amsterdam-nl")
    assert result.returncode == 1, result
    assert "what is left of the daily budget of 10 upstream calls is kept for the selected place" in result.stderr
    reply = daemon.client().call("Refresh", {"id": "amsterdam-nl"})
    assert reply["error"] == "io.raind.Weather.QuotaExhausted"
    assert reply["parameters"]["period"] == "day"
    assert reply["parameters"]["calls"] == 6.2 and reply["parameters"]["budget"] == 10
    status = json.loads(daemon.ctl("status", "--json").stdout)
    assert status["requestsToday"] == 2 and status["callsToday"] == 6.2 and status["dailyBudget"] == 10
    assert status["requestsThisMonth"] == 2 and status["callsThisMonth"] == 6.2 and status["monthlyBudget"] is None
    assert "6.2 of 10 today (2 requests)" in daemon.ctl("status").stdout
    assert fixture_server.count() == 2
    # A restart does not renew the budget.
    daemon.stop()
    again = daemon_factory(config=(daemon.config_home / "raind" / "raind.conf").read_text())
    assert json.loads(again.ctl("status", "--json").stdout)["callsToday"] == 6.2
    assert again.ctl("refresh", "amsterdam-nl").returncode == 1
    assert fixture_server.count() == 2


def test_idle_daemon_makes_no_wakeups_beyond_the_watchdog(weather_daemon, fixture_server, tmp_path, record_property):
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    pid = daemon.process.pid
    wait_for(lambda: quiet(pid), timeout=10, what="raind to finish the start-up work")
    before = context_switches(pid)
    time.sleep(10)
    after = context_switches(pid)
    record_property("idle_context_switches_10s", after - before)
    print(f"idle context switches over 10 s (no watchdog): {after - before}")
    assert after - before <= 2, f"{after - before} wake-ups in 10 s of idle"


def test_pirateweather_budget_is_monthly_and_spread_over_the_month(weather_daemon, fixture_server):
    daemon = weather_daemon(provider="pirateweather")
    status = json.loads(daemon.ctl("status", "--json").stdout)
    # 10,000 calls a month (the free plan); 10,000 / 31 = 322 a day, so the month's quota lasts 31 days.
    assert status["monthlyBudget"] == 10000 and status["dailyBudget"] == 322
    assert "0 of 10,000 this month" in daemon.ctl("status").stdout


def test_budget_file_from_before_monthly_counting_still_counts_its_day(weather_daemon):
    daemon = weather_daemon(start=False)
    day = time.time() // 86400 * 86400
    (daemon.cache_home / "raind").mkdir(parents=True, exist_ok=True)
    (daemon.cache_home / "raind" / "budget.json").write_text(json.dumps({"day": day, "calls": 5}))
    daemon.start()
    status = json.loads(daemon.ctl("status", "--json").stdout)
    assert status["requestsToday"] == 5 and status["callsToday"] == 5
    assert status["requestsThisMonth"] == 0, "the month was not counted before; it starts from zero"



def test_status_total_is_the_one_providers_own_book(weather_daemon, fixture_server):
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", PARIS, "--name", "Paris", check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    status = json.loads(daemon.ctl("status", "--json").stdout)
    assert status["totalAddsUp"] is True
    [provider] = status["providers"]
    for field in ("requestsToday", "callsToday", "dailyBudget", "requestsThisMonth", "callsThisMonth",
                  "monthlyBudget"):
        assert status[field] == provider[field], field
    assert "3.1 of 1,500 today (1 request)" in daemon.ctl("status").stdout
