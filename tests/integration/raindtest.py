"""Helpers for driving the real raind and raindctl binaries in tests."""
import json
import os
import pathlib
import signal
import socket
import subprocess
import time

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


class Varlink:
    """A minimal Varlink client over a Unix socket (NUL-framed JSON)."""

    def __init__(self, path, timeout=10.0):
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
        return self.receive()


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
        if config is not None:
            self.write_config(config)
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
        }
        if extra_env:
            self.env.update(extra_env)
        self.args = list(args)
        self.process = None
        self.log_path = base / "raind.log"

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
