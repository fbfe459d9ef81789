#!/usr/bin/env python3
"""SetSettings latency with its fsyncs (issue 8, "Throw-away files ... A
SetSettings with its fsyncs still answers in <= 1 ms on a normal disk").

Measures, in the same run and on the same file system as raind's state:
  - GetStatus round trip on one connection (the call without a write),
  - the yardstick: Python doing what a durable state write needs (write a
    temporary file, fsync it, rename it, fsync the directory),
  - SetSettings round trip (a changed setting, so every call writes state.json
    with both fsyncs),
and, with strace when it is installed, the fsync calls raind makes for one
refresh (the forecast cache and the call counter must make none) and for one
SetSettings (two: the file and its directory).

    python3 bench/disk_bench.py [BIN_DIR] [CALLS]
"""
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
CALLS = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from raindtest import FixtureServer, Varlink  # noqa: E402


def timed(function, count):
    times = []
    for index in range(count):
        started = time.perf_counter()
        function(index)
        times.append(time.perf_counter() - started)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def durable_write(directory, index):
    path = directory / "yardstick.json"
    temporary = directory / f"yardstick.json.tmp.{os.getpid()}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, json.dumps({"version": 1, "settings": {"units": "si", "refreshMinutes": 5 + index % 2}}).encode())
    os.fsync(fd)
    os.close(fd)
    os.rename(temporary, path)
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    os.fsync(dfd)
    os.close(dfd)


def fsyncs_during(pid, action):
    """fsync/fdatasync calls of raind while `action` runs, with the file each was on."""
    if not shutil.which("strace"):
        return None
    log = tempfile.mktemp(prefix="raind-strace-")
    tracer = subprocess.Popen(["strace", "-f", "-y", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2",
                               "-p", str(pid), "-o", log], stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # strace attaches asynchronously; a benchmark may wait, a test may not
    action()
    time.sleep(0.2)
    tracer.terminate()
    tracer.wait()
    lines = pathlib.Path(log).read_text().splitlines()
    os.unlink(log)
    return [line for line in lines if "fsync" in line or "rename" in line]


def main():
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-disk-bench-", dir=os.environ.get("RAIND_BENCH_DIR")))
    server = FixtureServer(routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json")])
    env = {"PATH": os.environ["PATH"], "HOME": str(base), "XDG_RUNTIME_DIR": str(base / "run"),
           "XDG_STATE_HOME": str(base / "state"), "XDG_CONFIG_HOME": str(base / "config"),
           "XDG_CACHE_HOME": str(base / "cache"), "LANG": "C.UTF-8",
           "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"}
    (base / "run").mkdir()
    (base / "config" / "raind").mkdir(parents=True)
    (base / "config" / "raind" / "raind.conf").write_text(
        f"[Provider]\nBaseURL={server.url}\n[Places]\nGeocoderURL=http://127.0.0.1:9\n")
    sock = base / "run" / "raind" / "raind.sock"
    daemon = subprocess.Popen([str(BIN / "raind")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(500):
            if sock.exists():
                break
            time.sleep(0.01)
        client = Varlink(sock, check=False)
        client.call("AddLocation", {"latitude": 48.8534, "longitude": 2.3488, "name": "Paris"})
        state_dir = base / "state" / "raind"
        for _ in range(500):
            if (base / "cache" / "raind" / "forecasts" / "paris-fr.json").exists():
                break
            time.sleep(0.01)
        status = timed(lambda i: client.call("GetStatus"), CALLS)
        yardstick = timed(lambda i: durable_write(state_dir, i), CALLS)
        settings = timed(lambda i: client.call("SetSettings", {"refreshMinutes": 5 + i % 2}), CALLS)
        print(f"file system of the state: {subprocess.run(['stat', '-f', '-c', '%T', str(state_dir)], capture_output=True, text=True).stdout.strip()}")
        print(f"{'what':<46} {'median ms':>10} {'p99 ms':>8}")
        print(f"{'GetStatus round trip':<46} {status[0]:>10.3f} {status[1]:>8.3f}")
        print(f"{'yardstick: write+fsync+rename+fsync(dir), Python':<46} {yardstick[0]:>10.3f} {yardstick[1]:>8.3f}")
        print(f"{'SetSettings round trip (state.json, 2 fsyncs)':<46} {settings[0]:>10.3f} {settings[1]:>8.3f}")
        print(f"SetSettings / (GetStatus + yardstick) = {settings[0] / (status[0] + yardstick[0]):.2f}")
        refresh = fsyncs_during(daemon.pid, lambda: Varlink(sock, check=False).call("Refresh", {"all": True}))
        if refresh is not None:
            server.reset()
            # A refresh within a minute of the last is answered from the cache; force one by a second place.
            refresh = fsyncs_during(daemon.pid, lambda: client.call(
                "AddLocation", {"latitude": 51.5085, "longitude": -0.1257, "name": "London"}) and time.sleep(1))
            one_setting = fsyncs_during(daemon.pid, lambda: client.call("SetSettings", {"units": "ca"}))
            cache_fsyncs = [line for line in refresh if "fsync" in line and "/cache/" in line]
            print(f"strace, one place added and fetched: {len([l for l in refresh if 'fsync' in l])} fsyncs, "
                  f"{len(cache_fsyncs)} on cache files; renames: {len([l for l in refresh if 'rename' in l])}")
            print(f"strace, one SetSettings: {len([l for l in one_setting if 'fsync' in l])} fsyncs")
            for line in refresh + one_setting:
                print("    " + line)
    finally:
        daemon.terminate()
        daemon.wait()
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
