"""The GNOME Shell extension's protocol client and view, run in plain gjs
(tests/gjs/client_driver.js), and misbehaving stand-ins for raind's socket:
what the extension's tests share."""
import json
import os
import pathlib
import queue
import socket
import subprocess
import threading
import time

from idl_check import INTERFACE
from varlink import scanner

ROOT = pathlib.Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "gjs" / "client_driver.js"
EXTENSION = ROOT / "extensions" / "gnome"


class GjsClient:
    """extensions/gnome/varlinkClient.js in a gjs process, one command and one report a line."""

    def __init__(self, env=None):
        self.process = subprocess.Popen(["gjs", "-m", str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
        self.reports = queue.Queue()
        self.seen = []
        self.pending = []

        def pump():
            for line in self.process.stdout:
                self.reports.put(json.loads(line))
        threading.Thread(target=pump, daemon=True).start()

    def send(self, **command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def until(self, predicate, timeout=15, what="a matching report"):
        """The first report not taken yet that matches (reports that do not stay for later calls)."""
        for index, report in enumerate(self.pending):
            if predicate(report):
                return self.pending.pop(index)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                report = self.reports.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(report)
            if report.get("kind") == "error" and report.get("error", {}).get("kind") == "Exception":
                raise AssertionError(f"the driver failed: {report['error']['message']}")
            if predicate(report):
                return report
            self.pending.append(report)
        raise AssertionError(f"no {what} within {timeout}s; saw {[brief(r) for r in self.seen[-8:]]}")

    def event(self, name, timeout=15):
        return self.until(lambda r: r["kind"] == "event" and r["event"]["event"] == name, timeout,
                          f"event {name}")["event"]

    def state(self, name, timeout=15):
        return self.until(lambda r: r["kind"] == "state" and r["state"] == name, timeout, f"state {name}")

    def call(self, method, parameters=None, **options):
        self.send(op="call", method=method, parameters=parameters, **options)
        return self.until(lambda r: r["kind"] in ("reply", "error") and r.get("method") == method,
                          what=f"the answer to {method}")

    def present(self, **options):
        self.send(op="present", **options)
        return self.until(lambda r: r["kind"] == "view", what="a view")

    def close(self):
        if self.process.poll() is None:
            try:
                self.send(op="quit")
                self.process.wait(timeout=5)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        stderr = self.process.stderr.read()
        return stderr


def brief(report):
    """A report shortened for a failure message."""
    if report.get("kind") == "event":
        return f"event {report['event'].get('event')}"
    if report.get("kind") == "view":
        return f"view {report['view'].get('state')} {report['view'].get('label')!r}"
    return json.dumps(report)[:300]


# What a FakeSocket behaviour returns to keep its connection open and say
# nothing more until the fake stops: a peer that accepts and never answers.
HOLD = object()


class FakeSocket:
    """A Unix socket at `path` that misbehaves as raind never should: `behaviour(connection, received)`
    is called for every connection after its first call arrived (or at once with `at_accept`);
    a behaviour returning HOLD keeps the connection silent until `stop`."""

    def __init__(self, path, behaviour, at_accept=False):
        self.path = str(path)
        self.behaviour = behaviour
        self.at_accept = at_accept
        self.connections = []
        pathlib.Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(16)
        self.accepted = 0
        self.running = True
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while self.running:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            self.connections.append(connection)
            threading.Thread(target=self._handle, args=(connection,), daemon=True).start()

    def _handle(self, connection):
        try:
            received = b""
            if not self.at_accept:
                while b"\0" not in received:
                    chunk = connection.recv(65536)
                    if not chunk:
                        return
                    received += chunk
            if self.behaviour(connection, received) is HOLD:
                self.stopped.wait()
        except OSError:
            pass

    def stop(self):
        self.running = False
        self.stopped.set()
        self.listener.close()
        for connection in self.connections:
            try:
                connection.close()
            except OSError:
                pass
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


def idl_field(path):
    """The IDL type a read path names ("Subscribe.forecast.alerts[].severity"), or an
    AssertionError saying which part of it the IDL does not have."""
    method, *parts = path.split(".")
    member = INTERFACE.members.get(method)
    assert isinstance(member, scanner._Method), f"{path}: {method} is not a method of the IDL"
    kind = member.out_type
    for part in parts:
        is_element = part.endswith("[]")
        name = part[:-2] if is_element else part
        kind = _unwrap(kind)
        assert isinstance(kind, scanner._Struct) and name in kind.fields, \
            f"{path}: the IDL has no field {name!r} there"
        kind = kind.fields[name]
        if is_element:
            kind = _unwrap(kind)
            assert isinstance(kind, scanner._Array), f"{path}: {name} is not an array in the IDL"
            kind = kind.element_type
    return kind


def _unwrap(kind):
    while True:
        if isinstance(kind, scanner._Maybe):
            kind = kind.element_type
        elif isinstance(kind, scanner._CustomType):
            kind = INTERFACE.members[kind.name].type
        else:
            return kind
