#!/usr/bin/env python3
"""Varlink call throughput: raind answering GetStatus, next to a C NUL-framed
echo server (bench/yardstick/echo_server.c) that sends one reply per request,
padded to the size of raind's reply. Both are driven by the same C client
(bench/yardstick/varlink_client.c); the server runs on one CPU and the client
on another (taskset). Writes the "## Varlink calls" section of
docs/PERFORMANCE.md with a "before" column: the build named by
RAIND_BENCH_BASELINE (an earlier commit's raind, measured in the same run),
or else the figures the section held. Run through bench/run."""
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from daemon_bench import write_section

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
SECONDS = float(os.environ.get("RAIND_BENCH_SECONDS", "2"))
SERVER_CPU, CLIENT_CPU = os.environ.get("RAIND_BENCH_CPUS", "0,1").split(",")
ROUNDS = int(os.environ.get("RAIND_BENCH_ROUNDS", "3"))
# Optional: another raind binary (an earlier commit's release build) measured in the same run.
BASELINE = os.environ.get("RAIND_BENCH_BASELINE")
BASELINE_LABEL = os.environ.get("RAIND_BENCH_BASELINE_LABEL", BASELINE or "")
HEADING = "## Varlink calls"
CALL = json.dumps({"method": "io.raind.Weather.GetStatus", "parameters": {}}, separators=(",", ":"))
# (figure, connections, calls in flight per connection)
SHAPES = [
    ("GetStatus pipelined on one connection (64 in flight)", 1, 64),
    ("GetStatus over 64 connections, one call in flight each", 64, 1),
    ("GetStatus, one connection, one call in flight", 1, 1),
]


def compile_yardsticks(out):
    for name in ("varlink_client", "echo_server"):
        subprocess.run(["cc", "-O2", "-o", str(out / name), str(ROOT / "bench" / "yardstick" / f"{name}.c")],
                       check=True)


def wait_for(path):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(str(path))
            s.close()
            return
        except OSError:
            time.sleep(0.01)
    raise SystemExit(f"no server on {path}")


def reply_size(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(str(path))
    s.sendall(CALL.encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        data += s.recv(65536)
    s.close()
    return len(data)


def drive(client, path, connections, depth):
    out = subprocess.run(["taskset", "-c", CLIENT_CPU, str(client), str(path), str(connections), str(depth),
                          str(SECONDS), CALL], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"the benchmark client failed on {path}: {out.stderr.strip()}")
    return float(out.stdout.split()[0])


def previous_figures(path):
    """figure -> calls/s of the last run, from the section this script wrote before."""
    figures, inside = {}, False
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.startswith("## "):
            inside = line == HEADING
        elif inside and line.startswith("| GetStatus"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if re.match(r"[\d,]+ calls/s", cells[1]):
                figures[cells[0]] = cells[1]
    return figures


def start_raind(binary, base, name):
    home = base / name
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_RUNTIME_DIR": str(home / "run"),
           "XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "LANG": "C.UTF-8"}
    (home / "run").mkdir(parents=True)
    (home / "config" / "raind").mkdir(parents=True)
    # No traffic leaves loopback: the provider is a closed local port.
    (home / "config" / "raind" / "raind.conf").write_text(
        "[Provider]\nBaseURL=http://127.0.0.1:9\n[Places]\nGeocoderURL=http://127.0.0.1:9\n[Socket]\nMaxClients=128\n")
    process = subprocess.Popen(["taskset", "-c", SERVER_CPU, str(binary)], env=env, stderr=subprocess.DEVNULL)
    sock = home / "run" / "raind" / "raind.sock"
    wait_for(sock)
    return process, sock


def main():
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-varlink-bench-"))
    compile_yardsticks(base)
    servers = {}  # name -> (process, socket)
    try:
        servers["raind"] = start_raind(BIN / "raind", base, "raind")
        if BASELINE:
            servers["baseline"] = start_raind(BASELINE, base, "baseline")
        size = reply_size(servers["raind"][1])
        echo_sock = base / "echo.sock"
        echo = subprocess.Popen(["taskset", "-c", SERVER_CPU, str(base / "echo_server"), str(echo_sock), str(size)])
        servers["echo"] = (echo, echo_sock)
        wait_for(echo_sock)
        # Rounds interleave the servers, so a burst of load elsewhere on the
        # machine hits them alike; each figure is the best of its rounds.
        best = {}
        for _ in range(ROUNDS):
            for figure, connections, depth in SHAPES:
                for name, (_, sock) in servers.items():
                    rate = drive(base / "varlink_client", sock, connections, depth)
                    best[(name, figure)] = max(best.get((name, figure), 0), rate)
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait()
        shutil.rmtree(base, ignore_errors=True)

    document = ROOT / "docs" / "PERFORMANCE.md"
    previous = previous_figures(document)
    rows = []
    for figure, _, _ in SHAPES:
        rate, echo_rate = best[("raind", figure)], best[("echo", figure)]
        before = f"{best[('baseline', figure)]:,.0f} calls/s" if BASELINE else previous.get(figure, "–")
        rows.append(f"| {figure} | {rate:,.0f} calls/s | {before} | echo server {echo_rate:,.0f} "
                    f"calls/s | {rate / echo_rate:.2f}× |")
    before_note = (f"\"before\" is `{BASELINE_LABEL}`, built and measured in the same run"
                   if BASELINE else "\"before\" is the figure this section held before the run")
    lines = [
        HEADING,
        "",
        "`bench/run` (release build): `bench/varlink_bench.py` drives raind and a C NUL-framed echo",
        "server (`bench/yardstick/echo_server.c`, one reply per request, padded to raind's",
        f"{size}-byte GetStatus reply) with the same C client (`bench/yardstick/varlink_client.c`),",
        f"best of {ROUNDS} interleaved rounds of {SECONDS:.0f} s after 0.3 s of warm-up; the servers run on",
        f"CPU {SERVER_CPU}, the client on CPU {CLIENT_CPU} (`taskset`). {before_note}.",
        "",
        "| figure | raind | before | yardstick (same run) | ratio |",
        "| --- | --- | --- | --- | --- |",
    ] + rows
    for line in lines:
        print(line)
    write_section(document, HEADING, lines)


if __name__ == "__main__":
    main()
