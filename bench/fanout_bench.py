#!/usr/bin/env python3
"""Fan-out of one event to 1,000 subscribers: raind against a C broadcast
server (bench/yardstick/broadcast_server.c) that writes the same bytes,
padded to the size of raind's event, to every subscriber. Both are driven by
the same C client (bench/yardstick/fanout_client.c): 1,000 connections each
Subscribe (more=true) and read their snapshot, then a control connection
sends SetSettings, changing the units back and forth, which publishes
SettingsChanged to every subscriber; each round is timed from sending the
trigger until every subscriber has read the event. The server runs on one
CPU and the client on another (taskset), state on tmpfs (RAIND_BENCH_DIR,
/dev/shm by default) so the state file's two fsyncs cost microseconds, not a
virtual disk's milliseconds. Writes the "## Fan-out to subscribers" section
of docs/PERFORMANCE.md, with a "before" column when RAIND_BENCH_BASELINE names
an earlier raind binary, measured in the same run. Run through bench/run."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from daemon_bench import write_section
from varlink_bench import wait_for

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
SERVER_CPU, CLIENT_CPU = os.environ.get("RAIND_BENCH_CPUS", "0,1").split(",")
ROUNDS = int(os.environ.get("RAIND_BENCH_ROUNDS", "3"))
EVENTS = int(os.environ.get("RAIND_BENCH_EVENTS", "200"))
SUBSCRIBERS = int(os.environ.get("RAIND_BENCH_SUBSCRIBERS", "1000"))
HEADING = "## Fan-out to subscribers"
# Optional: another raind binary (an earlier commit's release build) measured in the same run.
BASELINE = os.environ.get("RAIND_BENCH_BASELINE")
BASELINE_LABEL = os.environ.get("RAIND_BENCH_BASELINE_LABEL", BASELINE or "")
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from raindtest import Varlink  # noqa: E402


def compact(message):
    return json.dumps(message, separators=(",", ":"))


SUBSCRIBE = compact({"method": "io.raind.Weather.Subscribe", "more": True})
TRIGGERS = [compact({"method": "io.raind.Weather.SetSettings", "parameters": {"units": units}})
            for units in ("si", "us")]


def cpu_ns(pid):
    """CPU time of every thread of the process, from /proc/PID/task/*/schedstat (nanoseconds)."""
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def start_raind(base, binary=None, name="raind"):
    home = base / name
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_RUNTIME_DIR": str(home / "run"),
           "XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "LANG": "C.UTF-8"}
    (home / "run").mkdir(parents=True)
    (home / "config" / "raind").mkdir(parents=True)
    # No place is saved, so nothing else is published; no traffic leaves loopback.
    (home / "config" / "raind" / "raind.conf").write_text(
        "[Provider]\nBaseURL=http://127.0.0.1:9\n[Places]\nGeocoderURL=http://127.0.0.1:9\n"
        f"[Socket]\nMaxClients={SUBSCRIBERS * 2 + 100}\n")
    process = subprocess.Popen(["taskset", "-c", SERVER_CPU, str(binary or BIN / "raind")], env=env,
                               stderr=subprocess.DEVNULL)
    sock = home / "run" / "raind" / "raind.sock"
    wait_for(sock)
    return process, sock


def frame_sizes(path):
    """Bytes of raind's snapshot, of its SettingsChanged event and of the SetSettings reply, framed."""
    control = Varlink(path, timeout=10, check=False)
    # The rounds start from "us", so their first trigger is a change.
    control.call("SetSettings", {"units": "us"})
    subscriber = Varlink(path, timeout=10, check=False)
    subscriber.send("io.raind.Weather.Subscribe", more=True)
    snapshot = subscriber.receive()
    control.send("io.raind.Weather.SetSettings", {"units": "si"})
    reply = control.receive()
    event = subscriber.receive()
    assert event.get("parameters", {}).get("event") == "SettingsChanged", event
    control.call("SetSettings", {"units": "us"})
    subscriber.receive()
    subscriber.close()
    control.close()
    return tuple(len(compact(message).encode()) + 1 for message in (snapshot, event, reply))


def open_descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def drive(client, path, pid, subscribers):
    """One run of the client: (median ms, p90 ms, trigger round trip ms, bytes per event, server CPU µs per event)."""
    descriptors = open_descriptors(pid)
    process = subprocess.Popen(
        ["taskset", "-c", CLIENT_CPU, str(client), str(path), str(subscribers), str(EVENTS), SUBSCRIBE] + TRIGGERS,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if process.stdout.readline().strip() != "subscribed":
            raise SystemExit(f"the fan-out client failed to subscribe on {path}")
        before = cpu_ns(pid)
        process.stdin.write("\n")
        process.stdin.flush()
        line = process.stdout.readline().split()
        spent = cpu_ns(pid) - before
    finally:
        process.stdin.close()
        code = process.wait()
    if code != 0 or len(line) != 5:
        raise SystemExit(f"the fan-out client failed on {path} (exit {code})")
    # The server closes its ends of the 1,000 connections before the next server is measured:
    # that work, on the same CPU, would otherwise land in the next one's figures.
    deadline = time.monotonic() + 30
    while open_descriptors(pid) > descriptors and time.monotonic() < deadline:
        time.sleep(0.01)
    median, p90, control, size, triggers = (float(value) for value in line)
    return median, p90, control, size, spent / 1000 / triggers


def main():
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-fanout-bench-", dir=os.environ.get("RAIND_BENCH_DIR",
                                                                                          "/dev/shm")))
    for name in ("fanout_client", "broadcast_server"):
        subprocess.run(["cc", "-O2", "-o", str(base / name), str(ROOT / "bench" / "yardstick" / f"{name}.c")],
                       check=True)
    servers = {}
    try:
        servers["raind"] = start_raind(base)
        snapshot_size, event_size, reply_size = frame_sizes(servers["raind"][1])
        if BASELINE:
            servers["baseline"] = start_raind(base, BASELINE, "baseline")
            frame_sizes(servers["baseline"][1])
        broadcast_sock = base / "broadcast.sock"
        broadcast = subprocess.Popen(["taskset", "-c", SERVER_CPU, str(base / "broadcast_server"), str(broadcast_sock),
                                      str(event_size), str(snapshot_size), str(reply_size)])
        servers["broadcast"] = (broadcast, broadcast_sock)
        wait_for(broadcast_sock)
        # Rounds interleave the servers, so load elsewhere on the machine hits them alike;
        # each figure is the best (lowest) of its rounds.
        best = {}
        names = list(servers)
        for round_number in range(ROUNDS):
            # Each round starts with another server, so none always runs after the same one.
            shift = round_number % len(names)
            for subscribers in (SUBSCRIBERS, 0):
                for name in names[shift:] + names[:shift]:
                    process, sock = servers[name]
                    figures = drive(base / "fanout_client", sock, process.pid, subscribers)
                    key = (name, subscribers)
                    best[key] = tuple(min(a, b) for a, b in zip(best[key], figures)) if key in best else figures
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait()
        shutil.rmtree(base, ignore_errors=True)

    raind, yardstick = best[("raind", SUBSCRIBERS)], best[("broadcast", SUBSCRIBERS)]
    alone, yardstick_alone = best[("raind", 0)], best[("broadcast", 0)]
    before, before_alone = (best[("baseline", SUBSCRIBERS)], best[("baseline", 0)]) if BASELINE else (None, None)

    figures = [
        (f"one event to {SUBSCRIBERS:,} subscribers, trigger to the last one's read: median of {EVENTS}",
         lambda f: f[0], lambda v: f"{v:.2f} ms", 2),
        ("the same, 90th percentile", lambda f: f[1], lambda v: f"{v:.2f} ms", 2),
        ("server CPU time per event, per subscriber", lambda f: f[4] / SUBSCRIBERS, lambda v: f"{v:.2f} µs", 2),
    ]
    rows = []
    for figure, pick, text, digits in figures:
        cells = [figure, text(pick(raind))] + ([text(pick(before))] if BASELINE else [])
        cells += [f"broadcast server {text(pick(yardstick))}", f"{pick(raind) / pick(yardstick):.{digits}f}×"]
        rows.append(cells)
    cells = ["the trigger alone (SetSettings, no subscriber): round trip, median", f"{alone[2]:.3f} ms"]
    cells += [f"{before_alone[2]:.3f} ms"] if BASELINE else []
    cells += [f"broadcast server {yardstick_alone[2]:.3f} ms", f"{alone[2] / yardstick_alone[2]:.1f}×"]
    rows.append(cells)
    before_note = (f" \"before\" is `{BASELINE_LABEL}`, built and measured in the same run." if BASELINE else "")
    lines = [
        HEADING,
        "",
        f"`bench/run` (release build): `bench/fanout_bench.py`. {SUBSCRIBERS:,} connections each call Subscribe",
        "(more=true) and read the snapshot; then a control connection sends SetSettings, changing the units back",
        f"and forth, and raind publishes SettingsChanged ({event_size:.0f} bytes framed) to every subscriber. Each of",
        f"{EVENTS} rounds (after 10 of warm-up) is timed from sending the trigger until every subscriber has read",
        "the event. The yardstick is a C broadcast server (`bench/yardstick/broadcast_server.c`: on a trigger, the",
        "same bytes, padded to raind's event, written to every subscriber with non-blocking writes, edge-triggered",
        "epoll, then the answer), driven by the same C client (`bench/yardstick/fanout_client.c`). Servers on",
        f"CPU {SERVER_CPU}, the client on CPU {CLIENT_CPU} (`taskset`), best of {ROUNDS} interleaved runs; raind's state",
        "on tmpfs, so its trigger's state write (two fsyncs) costs what the last row shows. CPU time is the",
        "server's (`/proc/PID/task/*/schedstat`) over the triggers only." + before_note,
        "",
        "| figure | raind | " + ("before | " if BASELINE else "") + "yardstick (same run) | ratio |",
        "| --- | --- | " + ("--- | " if BASELINE else "") + "--- | --- |",
    ] + ["| " + " | ".join(cells) + " |" for cells in rows]
    for line in lines:
        print(line)
    write_section(ROOT / "docs" / "PERFORMANCE.md", HEADING, lines)


if __name__ == "__main__":
    main()
