#!/usr/bin/env python3
"""Daemon benchmarks: raind's resident memory over the place data's life, and
raindctl's start-to-exit time. Each figure is printed next to a yardstick
measured in the same run, and the table is written to docs/PERFORMANCE.md
("## Daemon" section). Run through bench/run."""
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
IDLE_WAIT = float(os.environ.get("RAIND_BENCH_IDLE_WAIT", "65"))


def rss_kib(pid):
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"):
            fields[key] = int(value.split()[0])
    return fields


def call(path, method, parameters=None):
    s = socket.socket(socket.AF_UNIX)
    s.connect(str(path))
    s.sendall(json.dumps({"method": "io.raind.Weather." + method, "parameters": parameters or {}}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        data += s.recv(65536)
    s.close()
    return json.loads(data[:-1])


def timed_runs(command, env, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main():
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-bench-"))
    env = {"PATH": os.environ["PATH"], "HOME": str(base), "XDG_RUNTIME_DIR": str(base / "run"),
           "XDG_STATE_HOME": str(base / "state"), "XDG_CONFIG_HOME": str(base / "config"),
           "XDG_CACHE_HOME": str(base / "cache"), "LANG": "C.UTF-8"}
    (base / "run").mkdir()
    (base / "config" / "raind").mkdir(parents=True)
    # No traffic leaves loopback: the provider is a closed local port.
    (base / "config" / "raind" / "raind.conf").write_text(
        "[Provider]\nBaseURL=http://127.0.0.1:9\n[Places]\nGeocoderURL=http://127.0.0.1:9\n")
    sock = base / "run" / "raind" / "raind.sock"
    daemon = subprocess.Popen([str(BIN / "raind")], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not sock.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)
        started = rss_kib(daemon.pid)
        for query in ("Paris", "zurich", "Portland, OR", "London, Canada", "sao paulo", "Springfild"):
            call(sock, "SearchPlaces", {"query": query})
        searched = rss_kib(daemon.pid)
        print(f"waiting {IDLE_WAIT:.0f} s for the place data to be released…", file=sys.stderr)
        time.sleep(IDLE_WAIT)
        later = rss_kib(daemon.pid)

        client_env = dict(env, RAIND_SOCKET=str(sock))
        runs = 200
        ctl = timed_runs([str(BIN / "raindctl"), "status", "--json"], client_env, runs)
        true_ms = timed_runs(["/bin/true"], client_env, runs)
        help_ms = timed_runs([str(BIN / "raindctl"), "--version"], client_env, runs)
    finally:
        daemon.terminate()
        daemon.wait()

    def mib(kib):
        return f"{kib / 1024:.1f} MiB"

    rows = [
        ("raind RSS after start (idle, place data not opened)", mib(started["VmRSS"]), "yardstick", "1.00×"),
        ("raind RSS after 6 searches", mib(searched["VmRSS"]), mib(started["VmRSS"]),
         f"{searched['VmRSS'] / started['VmRSS']:.2f}×"),
        (f"raind RSS {IDLE_WAIT:.0f} s later (pages released)", mib(later["VmRSS"]), mib(started["VmRSS"]),
         f"{later['VmRSS'] / started['VmRSS']:.2f}×"),
        ("raindctl status --json, start to exit (median of 200)", f"{ctl:.2f} ms", f"/bin/true {true_ms:.2f} ms",
         f"{ctl / true_ms:.1f}×"),
        ("raindctl --version, start to exit (median of 200)", f"{help_ms:.2f} ms", f"/bin/true {true_ms:.2f} ms",
         f"{help_ms / true_ms:.1f}×"),
    ]
    lines = [
        "## Daemon",
        "",
        "`bench/run` (release build). raind runs with temporary directories and no network;",
        "memory is the whole process's VmRSS from `/proc/PID/status`.",
        "",
        "| figure | measured | yardstick (same run) | ratio |",
        "| --- | --- | --- | --- |",
    ] + [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows] + [
        "",
        f"RssAnon / RssFile: start {started['RssAnon']} / {started['RssFile']} KiB, after searches "
        f"{searched['RssAnon']} / {searched['RssFile']} KiB, later {later['RssAnon']} / {later['RssFile']} KiB.",
    ]
    for line in lines:
        print(line)
    write_section(ROOT / "docs" / "PERFORMANCE.md", "## Daemon", lines)


def write_section(path, heading, lines):
    text = path.read_text().splitlines() if path.exists() else ["# Performance", ""]
    out, index, replaced = [], 0, False
    while index < len(text):
        if text[index] == heading:
            out += lines + [""]
            replaced = True
            index += 1
            while index < len(text) and not text[index].startswith("## "):
                index += 1
            continue
        out.append(text[index])
        index += 1
    if not replaced:
        out += ([""] if out and out[-1] else []) + lines + [""]
    path.write_text("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
