"""Helpers for driving the real raind and raindctl binaries in tests."""
import json
import os
import pathlib
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from idl_check import check_reply

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("RAIND_BIN_DIR", ROOT / ".build" / "debug"))
RAIND = str(BIN / "raind")
RAINDCTL = str(BIN / "raindctl")


def wait_for(predicate, timeout=5.0, interval=0.01, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def read_replies(sock, count=None):
    """Reads `sock` until raind closes it or, with `count`, until `count`
    replies (NUL-terminated messages) came; returns the bytes read. With
    `count`, raind closing the connection first fails the test."""
    received = bytearray()
    replies = 0
    while count is None or replies < count:
        chunk = sock.recv(1 << 20)
        if not chunk:
            assert count is None, f"raind closed the connection after {replies} of {count} replies"
            break
        received += chunk
        replies += chunk.count(b"\0")
    return bytes(received)


def parse_replies(data):
    """The replies in what `read_replies` returned, parsed."""
    return [json.loads(part) for part in data.split(b"\0")[:-1]]


class Varlink:
    """A minimal Varlink client over a Unix socket (NUL-framed JSON). `check`: hold every
    reply of `call` to the IDL (idl_check); the benchmarks turn it off, as it is not the
    daemon's time."""

    def __init__(self, path, timeout=10.0, check=True):
        self.check = check
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.buffer = b""

    def close(self):
        self.sock.close()

    def send_raw(self, data: bytes):
        self.sock.sendall(data)

    def send(self, method, parameters=None, more=False, oneway=False):
        message = {"method": method}
        if parameters is not None:
            message["parameters"] = parameters
        if more:
            message["more"] = True
        if oneway:
            message["oneway"] = True
        self.send_raw(json.dumps(message).encode() + b"\0")

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("raind closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, parameters=None):
        if not method.startswith(("io.", "org.")):
            method = "io.raind.Weather." + method
        self.send(method, parameters)
        reply = self.receive()
        if self.check:
            check_reply(method, reply)
        return reply


class Daemon:
    """A real raind on a temporary socket with temporary XDG directories."""

    def __init__(self, base: pathlib.Path, config: str | None = None, extra_env=None, args=()):
        self.base = base
        self.runtime = base / "run"
        self.state_home = base / "state"
        self.config_home = base / "config"
        self.cache_home = base / "cache"
        for d in (self.runtime, self.state_home, self.config_home, self.cache_home):
            d.mkdir(parents=True, exist_ok=True)
        self.write_config(self.loopback_only(config or ""))
        self.socket = self.runtime / "raind" / "raind.sock"
        self.state_file = self.state_home / "raind" / "state.json"
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(base),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "XDG_STATE_HOME": str(self.state_home),
            "XDG_CONFIG_HOME": str(self.config_home),
            "XDG_CACHE_HOME": str(self.cache_home),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            # No system bus unless a test brings its own: the machine's logind and GeoClue stay out.
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/raind-test-bus",
            # The place data of this tree, never one a package installed on the machine.
            "RAIND_DATA_DIR": str(ROOT / "data"),
        }
        if extra_env:
            self.env.update(extra_env)
        self.args = list(args)
        self.process = None
        self.log_path = base / "raind.log"

    @staticmethod
    def loopback_only(config):
        """Tests never reach the internet: without a BaseURL of their own, the
        provider and geocoder are a closed port on loopback."""
        if "BaseURL=" not in config:
            config += "\n[Provider]\nBaseURL=http://127.0.0.1:9\n"
        # One provider unless the test chooses: the suite's fake servers speak
        # Open-Meteo, and Name=auto would ask each place's national service first.
        if "Name=" not in config and "Providers=" not in config:
            config += "\n[Provider]\nName=open-meteo\n"
        # No official alert service unless the test chooses one: the suite's
        # views and counts are of the forecast provider alone.
        if "[Alerts]" not in config:
            config += "\n[Alerts]\nEnabled=no\nBaseURL=http://127.0.0.1:9\n"
        # No air quality unless the test asks: the suite's request counts are of forecasts.
        if "[Air]" not in config:
            config += "\n[Air]\nEnabled=no\nBaseURL=http://127.0.0.1:9\n"
        # No observation source unless the test asks: the suite's request counts are of forecasts.
        if "[Observations]" not in config:
            config += "\n[Observations]\nEnabled=no\nBaseURL=http://127.0.0.1:9\n"
        if "GeocoderURL=" not in config:
            config += "\n[Places]\nGeocoderURL=http://127.0.0.1:9\n"
        return config

    def write_config(self, text, name="raind.conf"):
        directory = self.config_home / "raind"
        if name != "raind.conf":
            directory = directory / "raind.conf.d"
        directory.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text)

    def start(self, wait=True, command=None):
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            command or [RAIND, *self.args], env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )
        if wait:
            wait_for(self.answers, what=f"raind to answer on {self.socket} (log: {self.read_log()})")
        return self

    def answers(self):
        if self.process and self.process.poll() is not None:
            raise AssertionError(f"raind exited with {self.process.returncode}: {self.read_log()}")
        try:
            client = Varlink(self.socket, timeout=1)
        except OSError:
            return False
        client.close()
        return True

    def read_log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def client(self):
        return Varlink(self.socket)

    def ctl(self, *args, check=False, timeout=20, env=None):
        run_env = dict(self.env)
        run_env["RAIND_SOCKET"] = str(self.socket)
        if env:
            run_env.update(env)
        result = subprocess.run(
            [RAINDCTL, *args], env=run_env, capture_output=True, text=True, timeout=timeout
        )
        if check and result.returncode != 0:
            raise AssertionError(f"raindctl {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return result

    def stop(self, sig=signal.SIGTERM, timeout=5):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError(f"raind did not stop within {timeout}s after {sig!r}")
        if getattr(self, "log", None):
            self.log.close()
        return self.process.returncode if self.process else None

    def state(self):
        return json.loads(self.state_file.read_text())

    def connections(self):
        """How many connections raind holds open on its socket, as the kernel
        lists them (/proc/net/unix names each accepted socket by the socket's
        path; the listener is the one flagged as accepting): a client that
        closed counts until raind has seen it go and closed its side."""
        held = 0
        with open("/proc/net/unix") as table:
            next(table)
            for line in table:
                fields = line.split()
                if len(fields) == 8 and fields[7] == str(self.socket) and not int(fields[3], 16) & 0x10000:
                    held += 1
        return held

    def wait_for_signal_taken(self, sig, timeout=5.0):
        """Waits until raind has taken `sig` (sent to it) off its pending
        signals: its loop read it and runs the handler before anything that
        arrives after this returns."""
        mask = 1 << (sig - 1)

        def taken():
            for line in open(f"/proc/{self.process.pid}/status"):
                if line.startswith(("ShdPnd:", "SigPnd:")) and int(line.split()[1], 16) & mask:
                    return False
            return True
        wait_for(taken, timeout=timeout, what=f"raind to take signal {sig}")

    def cache_file(self, place_id):
        """Where raind caches a place's forecast (docs/FILES.md)."""
        return self.cache_home / "raind" / "forecasts" / f"{place_id}.json"


FIXTURES = ROOT / "Tests" / "Fixtures"
FIXTURE_SERVER = ROOT / "tests" / "fixture_server" / "fixture_server.py"
sys.path.insert(0, str(FIXTURE_SERVER.parent))
from fixture_server import hours_since, moved_in_time  # noqa: E402,F401

# When the recorded answers the tests serve most were made (the time of their
# current block). Served from Tests/Fixtures, they are served as if made now
# (their times moved by whole hours): raind takes a forecast whose times have
# all passed for outdated, and the tests run on any day.
RECORDED_AT = {
    "openmeteo-forecast-paris-unixtime.json": 1768466700,
    "pirateweather-forecast-boston-si.json": 1768936020,
    "metno-forecast-oslo-dst.json": 1774699200,
    # The NWS's answers by the time each was generated (the plain names mix
    # a 2019 forecast with a 2022 grid); Bright Sky's by its current_weather.
    "nws-forecast-sumatra-fl.1-hourly.json": 1571098374,
    "nws-forecast-sumatra-fl.2-grid.json": 1643944541,
    "nws-forecast-sumatra-fl.3-periods.json": 1570992164,
    "nws-forecast-sumatra-fl-2022.1-hourly.json": 1643945530,
    "nws-forecast-sumatra-fl-2022.2-grid.json": 1643944541,
    "nws-forecast-sumatra-fl-2022.3-periods.json": 1643945530,
    "brightsky-forecast-berlin-8-days.1-weather.json": 1758202200,
    "brightsky-forecast-berlin-8-days.2-current.json": 1758202200,
    "brightsky-forecast-berlin-24-hours.1-weather.json": 1758202200,
    "brightsky-forecast-berlin-24-hours.2-current.json": 1758202200,
}


class FixtureServer:
    """The fixture HTTP server on 127.0.0.1 (or on a test host inside a network
    namespace the test made), standing in for a weather provider. `present`:
    files to serve as if recorded now, by name, each with the Unix time it
    was recorded at; by default `RECORDED_AT` when serving Tests/Fixtures."""

    def __init__(self, routes=(), directory=FIXTURES, host="127.0.0.1", netns=None, present=None):
        self.netns = netns
        if present is None:
            present = RECORDED_AT if pathlib.Path(directory) == FIXTURES else {}
        prefix_args = ["ip", "netns", "exec", netns] if netns else []
        args = prefix_args + [sys.executable, str(FIXTURE_SERVER), str(directory), "--host", host]
        for prefix, name in routes:
            args += ["--route", f"{prefix}={name}"]
        for name, moment in present.items():
            args += ["--present", f"{name}={moment}"]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        assert line.startswith("PORT "), line
        self.port = int(line.split()[1])
        self.url = f"http://{host}:{self.port}"

    def _request(self, method, path, body=None):
        data = json.dumps(body) if body is not None else None
        code = (
            "import sys,urllib.request;"
            "d=sys.argv[3].encode() if len(sys.argv)>3 else None;"
            "r=urllib.request.Request(sys.argv[1],data=d,method=sys.argv[2]);"
            "sys.stdout.write(urllib.request.urlopen(r,timeout=5).read().decode())")
        command = [sys.executable, "-c", code, self.url + path, method] + ([data] if data else [])
        if self.netns:
            command = ["ip", "netns", "exec", self.netns] + command
        out = subprocess.run(command, capture_output=True, text=True, timeout=10, check=True).stdout
        return json.loads(out or "{}")

    def stats(self):
        return self._request("GET", "/_stats")

    def count(self, prefix="/"):
        return sum(n for path, n in self.stats()["paths"].items() if path.startswith(prefix))

    def reset(self):
        self._request("POST", "/_reset", {})

    def script(self, **fields):
        self._request("POST", "/_mode", fields)

    def held(self, gate="default"):
        """How many requests wait at `gate` (scripted with mode="hold")."""
        return self.stats()["held"].get(gate, 0)

    def release(self, gate="default"):
        """Answers the requests held at `gate`, and lets later ones through."""
        self._request("POST", "/_release", {"gate": gate})

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)


class Subscriber:
    """`raindctl subscribe --json` in the background, read line by line."""

    def __init__(self, daemon, events=None):
        self.daemon = daemon
        args = [RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--json"]
        if events:
            args += ["--events", ",".join(events)]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=daemon.env)
        self.queue = queue.Queue()

        def pump():
            for line in self.process.stdout:
                event = json.loads(line)
                # What raindctl prints with --json is the reply's parameters, unchanged;
                # a mismatch is raised in the test's thread by next().
                try:
                    check_reply("io.raind.Weather.Subscribe", {"parameters": event})
                except AssertionError as mismatch:
                    event = mismatch
                self.queue.put(event)
        threading.Thread(target=pump, daemon=True).start()
        self.snapshot = self.next()
        assert self.snapshot["event"] == "Snapshot"

    def next(self, timeout=10):
        try:
            event = self.queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no event within {timeout}s")
        if isinstance(event, AssertionError):
            raise event
        return event

    def until(self, name, timeout=10):
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            event = self.next(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(event["event"])
            if event["event"] == name:
                return event
        raise AssertionError(f"no {name} within {timeout}s (saw {seen})")

    def drain(self):
        """The events received and not yet read, without waiting for more."""
        events = []
        while True:
            try:
                events.append(self.queue.get_nowait())
            except queue.Empty:
                return events

    def events_before_now(self):
        """The events published before raind handles this call, in order. A
        change of units is the marker: raind publishes its SettingsChanged
        after the events of everything it did before (the subscriber must take
        SettingsChanged). The units are left changed."""
        client = self.daemon.client()
        units = client.call("GetStatus")["parameters"]["status"]["units"]
        client.call("SetSettings", {"units": "uk" if units != "uk" else "si"})
        client.close()
        events = []
        while (event := self.next())["event"] != "SettingsChanged":
            events.append(event)
        return events

    def stop(self):
        self.process.terminate()
        self.process.wait()


def has_dbus_fakes():
    """Whether the D-Bus fakes can run: dbus-daemon, and Debian's Python with
    python3-dbus and python3-gi (tests/fakes/README.md)."""
    return bool(shutil.which("dbus-daemon")) and subprocess.run(
        ["/usr/bin/python3", "-c", "import dbus, gi"], capture_output=True).returncode == 0


class PrivateBus:
    """A private dbus-daemon playing the system bus, allowing everything."""

    def __init__(self):
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="raind-bus-"))
        socket_path = self.directory / "bus"
        self.address = f"unix:path={socket_path}"
        config = self.directory / "bus.conf"
        config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>{self.address}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
""")
        self.process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(socket_path.exists, what="the private dbus-daemon")

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


class Fake:
    """A fake from tests/fakes on `bus` (playing the system bus), driven by
    commands on stdin, each answered on stdout (tests/fakes/fakebus.py)."""

    def __init__(self, bus, script, *args):
        self.process = subprocess.Popen(
            ["/usr/bin/python3", str(ROOT / "tests" / "fakes" / script), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": bus.address})
        line = self.process.stdout.readline()
        assert line.strip() == "ready", f"{script} did not start: {line!r}"

    def until(self, wanted):
        """Reads lines until `wanted`; returns those before it."""
        seen = []
        while True:
            line = self.process.stdout.readline()
            assert line, f"the fake exited before '{wanted}' (saw {seen})"
            assert not line.startswith("unknown command:"), line
            if line.strip() == wanted:
                return seen
            seen.append(line.strip())

    def readline(self):
        return self.process.stdout.readline()

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        self.until("ok " + command)

    def stop(self):
        self.process.stdin.close()
        self.process.terminate()
        self.process.wait()


class FakeLogind(Fake):
    """tests/fakes/fake_logind.py on a private bus, driven by commands."""

    def __init__(self, bus):
        super().__init__(bus, "fake_logind.py")


class FakeNotifications:
    """tests/fakes/fake_notifications.py on a private bus playing the session
    bus; next() reads the next call it recorded."""

    def __init__(self, bus):
        self.process = subprocess.Popen(
            ["/usr/bin/python3", str(ROOT / "tests" / "fakes" / "fake_notifications.py"), "--address", bus.address],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.strip() == "ready", line
        # Its lines, read as they come: a call that follows "ready" at once
        # may already sit in the pipe's reader, where select() cannot see it.
        self.calls = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.calls.put(json.loads(line))

    def next(self, timeout=10):
        try:
            return self.calls.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no notification call within {timeout}s") from None

    def stop(self):
        self.process.terminate()
        self.process.wait()


def slow_subscriber(daemon):
    """A subscriber past its snapshot that reads nothing more, with a small
    receive buffer, so raind's queue for it fills fast."""
    client = daemon.client()
    client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.send("io.raind.Weather.Subscribe", more=True)
    assert client.receive()["parameters"]["event"] == "Snapshot"
    return client


def change_until_no_subscriber(daemon):
    """Changes the settings, 200 calls at a time, until raind has dropped
    every subscriber: each change is an event it sends them all."""
    fast = daemon.client()
    batch = b"".join(
        json.dumps({"method": "io.raind.Weather.SetSettings", "parameters": {"refreshMinutes": 5 + i % 2}}).encode()
        + b"\0" for i in range(200))
    while fast.call("GetStatus")["parameters"]["status"]["subscribers"] > 0:
        fast.send_raw(batch)
        for _ in range(200):
            fast.receive()


def read_until_closed(client):
    """Every message `client` still receives, until raind closes it."""
    messages = []
    try:
        while True:
            messages.append(client.receive())
    except ConnectionError:
        pass
    return messages
