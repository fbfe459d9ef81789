"""Start-up, configuration, systemd integration and shutdown of the real raind."""
import os
import signal
import socket
import subprocess
import time

import pytest

from raindtest import RAIND, Daemon, Varlink, wait_for


class NotifyListener:
    """Plays the service manager's NOTIFY_SOCKET: collects sd_notify datagrams."""

    def __init__(self, path):
        self.path = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.1)
        self.messages = []

    def collect(self):
        while True:
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except (socket.timeout, BlockingIOError):
                return self.messages

    def wait_for(self, needle, timeout=5):
        return wait_for(lambda: any(needle in m for m in self.collect()), timeout=timeout,
                        what=f"{needle!r} on NOTIFY_SOCKET (got {self.messages})")


def test_ready_and_stopping_are_sent_to_notify_socket(daemon_factory, tmp_path):
    listener = NotifyListener(tmp_path / "notify.sock")
    daemon = daemon_factory(extra_env={"NOTIFY_SOCKET": listener.path}, start=False)
    daemon.start(wait=False)
    listener.wait_for("READY=1")
    ready = next(m for m in listener.messages if "READY=1" in m)
    assert "STATUS=0 places, online" in ready
    # READY=1 means the socket serves.
    assert "status" in daemon.client().call("GetStatus")["parameters"]
    assert daemon.stop() == 0
    listener.wait_for("STOPPING=1")


def test_socket_activation_serves_passed_socket_and_leaves_it(daemon_factory, tmp_path):
    path = tmp_path / "activated.sock"
    daemon = daemon_factory(start=False)
    daemon.socket = path
    # systemd-socket-activate gives the child only the variables named with -E.
    passed = [arg for key in daemon.env for arg in ("-E", key)]
    daemon.start(command=["systemd-socket-activate", "-l", str(path), "--fdname=varlink", *passed, RAIND])
    client = daemon.client()
    assert "status" in client.call("GetStatus")["parameters"]
    client.call("AddLocation", {"latitude": 1.0, "longitude": 2.0, "name": "Activated"})
    client.close()
    # systemd-socket-activate execs raind in place, so the signal reaches raind itself.
    assert daemon.stop() == 0
    assert path.exists(), "an activated socket belongs to the service manager and is not unlinked"
    assert "Activated" in daemon.state_file.read_text()


def test_sigterm_exits_zero_and_removes_own_socket(daemon):
    assert daemon.stop(signal.SIGTERM) == 0
    assert not daemon.socket.exists()


def test_sigint_exits_zero(daemon):
    assert daemon.stop(signal.SIGINT) == 0


def test_second_instance_on_same_socket_refuses_to_start(daemon, tmp_path):
    second = Daemon(tmp_path)
    result = subprocess.run([RAIND], env=second.env, capture_output=True, text=True, timeout=10)
    assert result.returncode == 1
    assert "another raind already answers at" in result.stderr
    assert "status" in daemon.client().call("GetStatus")["parameters"], "the first keeps serving"


def test_stale_socket_file_is_replaced(daemon_factory, tmp_path):
    first = daemon_factory()
    first.stop(signal.SIGKILL)
    assert first.socket.exists(), "a killed raind leaves its socket behind"
    second = daemon_factory()
    assert "status" in second.client().call("GetStatus")["parameters"]
    assert "removing stale socket" in second.read_log()


def test_socket_directory_and_file_modes(daemon):
    assert oct(os.stat(daemon.socket.parent).st_mode & 0o777) == "0o700"
    assert oct(os.stat(daemon.socket).st_mode & 0o777) == "0o600"


def test_configuration_error_refuses_start_naming_file_line_value(daemon_factory, tmp_path):
    daemon = daemon_factory(start=False, config="[Refresh]\nIntervalMinutes=often\nColour=red\n")
    result = subprocess.run([RAIND], env=daemon.env, capture_output=True, text=True, timeout=10)
    conf = daemon.config_home / "raind" / "raind.conf"
    assert result.returncode == 1
    assert f"{conf}:2: error: [Refresh] IntervalMinutes=often is not valid: expected whole minutes from 5 to 1440" in result.stderr
    assert f"{conf}:3: warning: unknown key Colour=" in result.stderr
    assert "raind --check-config" in result.stderr


def test_check_config_reports_dropins_in_lexical_order(daemon_factory):
    daemon = daemon_factory(start=False, config="[Refresh]\nIntervalMinutes=10\n")
    daemon.write_config("[Refresh]\nIntervalMinutes=20\n", name="20-b.conf")
    daemon.write_config("[Refresh]\nDailyBudget=lots\n", name="10-a.conf")
    result = subprocess.run([RAIND, "--check-config"], env=daemon.env, capture_output=True, text=True)
    assert result.returncode == 1
    assert "10-a.conf:2: error: [Refresh] DailyBudget=lots" in result.stderr
    daemon.write_config("[Refresh]\nDailyBudget=50\n", name="10-a.conf")
    ok = subprocess.run([RAIND, "--check-config"], env=daemon.env, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    files = ok.stdout.split("configuration OK: ")[1].strip().split(", ")
    assert [os.path.basename(f) for f in files] == ["raind.conf", "10-a.conf", "20-b.conf"]


def test_config_socket_path_is_used(daemon_factory, tmp_path):
    path = tmp_path / "custom" / "r.sock"
    daemon = daemon_factory(start=False, config=f"[Socket]\nPath={path}\n")
    daemon.socket = path
    daemon.start()
    assert "status" in daemon.client().call("GetStatus")["parameters"]


def test_usage_errors_exit_64(tmp_path):
    for args in (["--bogus"], ["--socket"], ["--socket", "relative"], ["--log-level", "loud"]):
        result = subprocess.run([RAIND, *args], capture_output=True, text=True)
        assert result.returncode == 64, args
        assert result.stderr.startswith("raind: ")
    assert "Usage: raind" in subprocess.run([RAIND, "--help"], capture_output=True, text=True).stdout


def test_logs_carry_journald_priority_prefixes(daemon):
    daemon.stop()
    lines = [l for l in daemon.read_log().splitlines() if l]
    assert lines and all(l.startswith("<") and l[2] == ">" for l in lines), lines


def test_a_restart_serves_every_cached_place_at_once_and_asks_for_none(weather_daemon, fixture_server):
    # Only the selected place's cache file is read before READY=1; the others'
    # are read right after it, before anything can be fetched or asked for.
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
    wait_for(lambda: fixture_server.count("/v1/forecast") >= 2, what="both forecasts")
    wait_for(lambda: all(daemon.cache_file(place).exists() for place in ("paris-fr", "london-gb")),
             what="both cache files")
    status = daemon.client().call("GetStatus")["parameters"]["status"]
    asked = status["requestsToday"]
    assert daemon.stop() == 0
    # Whatever is asked from now on never answers: a request at start would stay counted.
    fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="stall")
    daemon.start()
    client = daemon.client()
    for place in ("paris-fr", "london-gb"):
        reply = client.call("GetForecast", {"id": place})["parameters"]
        assert reply["forecast"]["current"] is not None, place
        assert reply["stale"] is False, place
    status = client.call("GetStatus")["parameters"]["status"]
    assert status["requestsToday"] == asked, "fresh cached places are not asked for again at start"
    client.close()
