"""'Became active' triggers end to end: resume from suspend (logind on a
private bus), network changes (a network namespace the test makes), and a
trigger storm that must cost at most one upstream request per place."""
import json
import os
import signal
import subprocess

import pytest

from raindtest import RAIND, FakeLogind, FixtureServer, PrivateBus, Subscriber, has_dbus_fakes, wait_for

needs_dbus = pytest.mark.skipif(not has_dbus_fakes(), reason="needs dbus-daemon, python3-dbus and python3-gi")
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root")

PARIS = ("48.8534,2.3488", "Paris")
LONDON = ("51.5085,-0.1257", "London")


def age_cached_forecast(daemon, latitude, seconds):
    """Makes the cached forecast at `latitude` look `seconds` older, as if
    fetched that long ago: the test needs stale data, not a minute's wait."""
    for path in daemon.cache_home.rglob("*.json"):
        try:
            cached = json.loads(path.read_text())
        except ValueError:
            continue
        if isinstance(cached, dict) and "forecast" in cached and abs(cached.get("latitude", 0) - latitude) < 0.01:
            cached["forecast"]["fetchedAt"] -= seconds
            path.write_text(json.dumps(cached))
            return
    raise AssertionError(f"no cached forecast at latitude {latitude} under {daemon.cache_home}")


@needs_dbus
def test_resume_and_trigger_storm_cost_one_request_per_stale_place(weather_daemon, fixture_server):
    bus = PrivateBus()
    logind = FakeLogind(bus)
    try:
        config = "[Refresh]\nStaleAfterMinutes=1\n"
        env = {"DBUS_SYSTEM_BUS_ADDRESS": bus.address}
        # At debug level raind logs when it watches logind and each sleep and resume it sees.
        daemon = weather_daemon(extra_config=config, extra_env=env, args=("--log-level", "debug"))
        for coords, name in (PARIS, LONDON):
            daemon.ctl("add", "--coords", coords, "--name", name, check=True)
        wait_for(lambda: all(daemon.client().call("GetForecast", {"id": place})["parameters"]["forecast"]
                             for place in ("paris-fr", "london-gb")), what="both forecasts")
        assert fixture_server.count() == 2
        # Paris was fetched 50 s ago, London just now: both fresh at start (a
        # place stale at start is fetched then), Paris stale some seconds later.
        daemon.stop()
        age_cached_forecast(daemon, 48.8534, 50)
        daemon.start()
        watch = Subscriber(daemon, events=["RefreshStarted", "SettingsChanged"])

        def paris_stale():
            return daemon.client().call("GetForecast", {"id": "paris-fr"})["parameters"]["stale"]
        # Signals sent before raind's match is in place would be lost: its session
        # lookup goes out after the match, so once it logs the session the match holds.
        wait_for(lambda: daemon.read_log().count("watching login session") == 2, what="raind to watch logind")
        assert not paris_stale() and fixture_server.count() == 2, "nothing was stale at start"
        wait_for(paris_stale, timeout=30, interval=0.2, what="Paris to become stale")
        # Going to sleep is no reason to fetch.
        logind.send("sleep true")
        wait_for(lambda: "the machine is going to sleep" in daemon.read_log(), what="raind to see the sleep")
        assert "RefreshStarted" not in [event["event"] for event in watch.events_before_now()]
        logind.send("sleep false")  # resume
        wait_for(lambda: not paris_stale(), what="Paris refreshed after resume")
        assert fixture_server.count() == 3, "one request for the stale place, none for the fresh one"
        watch.stop()
        sub = Subscriber(daemon, events=["RefreshStarted", "SettingsChanged"])

        # The storm: resume again, SIGUSR1, ten subscribers attaching, five refresh commands.
        logind.send("sleep false")
        daemon.process.send_signal(signal.SIGUSR1)
        subscribers = [Subscriber(daemon) for _ in range(10)]
        for _ in range(5):
            daemon.ctl("refresh", "--all", check=True)
        # Once raind has handled every trigger, what they started has been published.
        wait_for(lambda: daemon.read_log().count("resumed from suspend") == 2, what="raind to see the second resume")
        daemon.wait_for_signal_taken(signal.SIGUSR1)
        started = [event for event in sub.events_before_now() if event["event"] == "RefreshStarted"]
        assert started == [], "a storm right after a refresh starts no request"
        assert fixture_server.count() == 3, "a storm right after a refresh costs nothing"
        for s in subscribers:
            s.stop()
        sub.stop()
    finally:
        logind.stop()
        bus.stop()


@needs_dbus
def test_missing_logind_is_logged_once_and_other_triggers_work(weather_daemon, fixture_server):
    bus = PrivateBus()  # a bus without logind on it
    try:
        daemon = weather_daemon(extra_env={"DBUS_SYSTEM_BUS_ADDRESS": bus.address})
        daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
        wait_for(lambda: fixture_server.count() == 1)
        daemon.process.send_signal(signal.SIGUSR1)
        assert "status" in daemon.client().call("GetStatus")["parameters"]
        warnings = [line for line in daemon.read_log().splitlines() if line.startswith("<4>logind:")]
        assert len(warnings) == 1 and "no resume or session triggers" in warnings[0], warnings
    finally:
        bus.stop()


@needs_root
def test_network_loss_and_return(daemon_factory, tmp_path):
    tag = f"{os.getpid() % 10000}"
    client_ns, server_ns = f"raindc{tag}", f"rainds{tag}"
    client_if, server_if = f"rdc{tag}", f"rds{tag}"
    subnet = f"198.18.{os.getpid() % 200}"

    def ip(*args, netns=None):
        command = (["ip", "netns", "exec", netns] if netns else []) + ["ip", *args]
        subprocess.run(command, check=True, capture_output=True)

    try:
        ip("netns", "add", client_ns)
        ip("netns", "add", server_ns)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"cannot create network namespaces here: {error.stderr.decode().strip()}")
    server = None
    try:
        ip("link", "add", client_if, "netns", client_ns, "type", "veth", "peer", "name", server_if, "netns", server_ns)
        for ns, interface, host in ((client_ns, client_if, 2), (server_ns, server_if, 1)):
            ip("link", "set", "lo", "up", netns=ns)
            ip("addr", "add", f"{subnet}.{host}/24", "dev", interface, netns=ns)
            ip("link", "set", interface, "up", netns=ns)
        server = FixtureServer(routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json")],
                               host=f"{subnet}.1", netns=server_ns)
        daemon = daemon_factory(start=False, config=f"[Provider]\nBaseURL={server.url}\nTimeoutSec=3\n")
        daemon.start(command=["ip", "netns", "exec", client_ns, RAIND])
        sub = Subscriber(
            daemon, events=["WeatherUpdated", "ReachabilityChanged", "RefreshFailed", "RefreshStarted", "SettingsChanged"])
        daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
        sub.until("WeatherUpdated")
        assert server.count() == 1

        # The route goes away with the link: offline, and no requests.
        ip("link", "set", client_if, "down", netns=client_ns)
        assert sub.until("ReachabilityChanged")["online"] is False
        refused = daemon.ctl("refresh", "paris-fr")
        assert refused.returncode == 1 and "network is down" in refused.stderr
        daemon.ctl("add", "--coords", LONDON[0], "--name", LONDON[1], check=True)
        assert "RefreshStarted" not in [event["event"] for event in sub.events_before_now()]
        assert server.count() == 1, "no request while there is no route"
        assert json.loads(daemon.ctl("status", "--json").stdout)["online"] is False

        # The route comes back: online, and what is stale (London, never fetched) is fetched.
        ip("link", "set", client_if, "up", netns=client_ns)
        assert sub.until("ReachabilityChanged")["online"] is True
        updated = sub.until("WeatherUpdated")
        assert updated["id"] == "london-gb"
        assert server.count() == 2, "only the stale place; the fresh one costs nothing"
        sub.stop()
        daemon.stop()
    finally:
        if server:
            server.stop()
        for ns in (client_ns, server_ns):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
