#!/usr/bin/env python3
"""Which of raind's own files and functions one action runs through: raind
under valgrind's callgrind, instrumented only while the action runs, then
every function of Sources/ that ran, by file. For reading the code's
shape (docs/ARCHITECTURE.md's walk-throughs), not for timing.

  bench/call_trace.py BIN_DIR set-location   selecting a place whose data is stale: the
                                             selection, its refresh, the answer kept
  bench/call_trace.py BIN_DIR failover       a refresh whose first provider answers 503
                                             and whose second answers

BIN_DIR holds a debug build (its object files say which source file
defines each function; valgrind runs a copy of raind without the debug
information, which it cannot read). Needs valgrind, nm and the toolchain's
swift-demangle.
Prints the files and functions, and their counts; loopback only."""
import collections
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from raindtest import Daemon, FixtureServer, Subscriber, wait_for  # noqa: E402

PARIS = ("48.857,2.352", "Paris")
OSLO = ("59.91,10.75", "Oslo")


def start(daemon, binary, out):
    stripped = out.parent / "raind"
    subprocess.run(["cp", str(binary), str(stripped)], check=True)
    subprocess.run(["strip", "--strip-debug", str(stripped)], check=True)
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
               str(stripped)]
    daemon.start(wait=False, command=command)
    wait_for(daemon.answers, timeout=120, what="raind under valgrind to answer")


def instrument(daemon, on):
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(daemon.process.pid)],
                   check=True, capture_output=True)


def set_location(daemon, server):
    for coords, name in (PARIS, OSLO):
        daemon.ctl("add", "--coords", coords, "--name", name, check=True, timeout=120)
    wait_for(lambda: server.count("/v1/forecast") >= 2, timeout=120, what="both forecasts")
    # StaleAfterMinutes=1: a minute on, Oslo's data is stale and selecting it refreshes it.
    time.sleep(62)
    watcher = Subscriber(daemon, events=["WeatherUpdated"])
    instrument(daemon, True)
    daemon.ctl("set-location", "oslo-no", check=True, timeout=120)
    watcher.until("WeatherUpdated", timeout=120)
    instrument(daemon, False)
    watcher.stop()


def failover(daemon, server):
    daemon.ctl("add", "--coords", OSLO[0], "--name", OSLO[1], check=True, timeout=120)
    wait_for(lambda: server.count("/v1/forecast") >= 1, timeout=120, what="the first forecast")
    # Data younger than a minute counts as fresh: a refresh before then asks nothing.
    time.sleep(62)
    server.script(path_prefix="/v1/forecast", count=-1, mode="status", status=503)
    instrument(daemon, True)
    daemon.ctl("refresh", timeout=120)
    instrument(daemon, False)


def defining_files(build):
    """Mangled symbol -> the source file whose object file defines it."""
    files = {}
    for obj in build.glob("Rain*.build/*.swift.o"):
        text = subprocess.run(["nm", "--defined-only", str(obj)], capture_output=True, text=True).stdout
        source = obj.parent.name.removesuffix(".build") + "/" + obj.name.removesuffix(".o")
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "Tt":
                files[parts[2]] = source
    return files


SKIPPED = ("closure", "implicit closure", "partial apply", "reabstraction", "outlined", "merged", "thunk",
           "protocol witness", "type metadata", "value witness", "lazy protocol", "associated type",
           "generic specialization", "key path", "default argument", "variable initialization",
           "one-time initialization", "unsafeMutableAddressor", "base witness", "dispatch thunk", "destroy for",
           "initializeWithCopy for", "initializeWithTake for", "assignWithCopy for", "assignWithTake for",
           "storeEnumTagSinglePayload for", "getEnumTagSinglePayload for", "@objc", "$defer")


def functions(out, build):
    """{source file: {function}} of raind's own functions that ran while instrumented."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                          check=True, capture_output=True, text=True).stdout
    ran = set()
    for line in text.splitlines():
        match = re.match(r"\s*[\d,]+(?:\s+\([^)]*\))?\s+\S*?:(\$s\S+)", line)
        if match:
            ran.add(match.group(1).split(" ")[0])
    files = defining_files(build)
    symbols = sorted(symbol for symbol in ran if symbol in files)
    names = subprocess.run(["swift-demangle", "--simplified", "--compact"], input="\n".join(symbols),
                           capture_output=True, text=True).stdout.splitlines()
    result = collections.defaultdict(set)
    for symbol, name in zip(symbols, names):
        if name.startswith(SKIPPED) or " of " in name or " #" in name:
            continue
        base = re.sub(r"\(.*", "", name).strip()
        # Accessors, deinitializers and allocators are the functions' plumbing, not steps.
        if re.search(r"\.(getter|setter|modify|read|didset|willset|unsafeMutableAddressor)$|__|deinit$", base):
            continue
        result[files[symbol]].add(base)
    return result


def main():
    binary = pathlib.Path(sys.argv[1]) / "raind"
    action = sys.argv[2]
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-trace-"))
    server = FixtureServer(routes=[
        ("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"),
        ("/weatherapi/locationforecast/", "metno-forecast-oslo-dst.json"),
    ])
    providers = "Name=open-meteo" if action == "set-location" else "Name=auto\nProviders=open-meteo metno"
    config = (f"[Provider]\n{providers}\nBaseURL={server.url}\nTimeoutSec=60\n"
              "[Refresh]\nStaleAfterMinutes=1\n")
    daemon = Daemon(base, config=config)
    out = base / "callgrind.out"
    start(daemon, binary, out)
    try:
        (set_location if action == "set-location" else failover)(daemon, server)
    finally:
        daemon.stop(timeout=60)
        server.stop()
    traced = functions(out, binary.resolve().parent)
    count = sum(len(names) for names in traced.values())
    for path in sorted(traced):
        print(f"{path}: {', '.join(sorted(traced[path]))}")
    print(f"{len(traced)} files, {count} functions")


if __name__ == "__main__":
    main()
