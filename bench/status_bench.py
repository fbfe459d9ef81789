#!/usr/bin/env python3
"""`raindctl status` as a real user's: 10 places, each with a forecast, its
official alert service (with alerts) and air quality cached, raind started
on them; start to exit and peak resident memory against `mpc status` (MPD
with an empty library on a local socket), measured in the same run; and
raind's own memory 0.5 s after a start on those files against MPD's after its start.

    python3 bench/status_bench.py BIN [NAME=RAINDCTL...]

BIN holds the raind and raindctl measured; every further RAINDCTL (another
build's: `main=/path/to/raindctl`) is measured against the same raind,
alternating with the first run by run, so builds compare in one run. raind runs on CPU 0, the
clients on CPU 1 (`taskset`, as the other benchmarks). Prints a table; run
by bench/run; writes the "## raindctl status" section of docs/PERFORMANCE.md."""
import json
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "integration"))
sys.path.insert(0, str(ROOT / "bench"))
from daemon_bench import build_peak_rss, drop_cached_pages, rss_kib, start_mpd, write_section  # noqa: E402
from raindtest import FIXTURES, RECORDED_AT, FixtureServer, Varlink  # noqa: E402

SERVER_CPU, CLIENT_CPU = "0", "1"
RUNS = int(os.environ.get("RAIND_BENCH_RUNS", "300"))
PEAK_RUNS = 20
FORECAST = "openmeteo-forecast-paris-unixtime.json"
AIR = "openmeteo-airquality-paris-poor.json"
# Ten places in the United States, added by position: the NWS is each one's alert service.
PLACES = [(45.52, -122.68), (40.71, -74.0), (41.88, -87.63), (29.76, -95.37), (33.45, -112.07),
          (39.74, -104.99), (47.61, -122.33), (25.76, -80.19), (42.36, -71.06), (36.17, -115.14)]


def alert_feed(now):
    """Three alerts as the NWS's /alerts/active writes them: one in effect, one upcoming, one over."""
    def iso(moment):
        return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(moment))

    def feature(identifier, event, severity, onset, ends):
        return {"id": f"https://api.weather.gov/alerts/{identifier}", "type": "Feature", "geometry": None,
                "properties": {
                    "id": identifier, "areaDesc": "Bench County", "sent": iso(onset - 3600),
                    "effective": iso(onset - 3600), "onset": iso(onset), "expires": iso(ends), "ends": iso(ends),
                    "status": "Actual", "messageType": "Alert", "category": "Met", "severity": severity,
                    "certainty": "Likely", "urgency": "Expected", "event": event,
                    "headline": f"{event} issued for the bench", "description": f"{event} in the bench area.",
                    "instruction": "Stay where the bench is.", "response": "Prepare", "references": []}}
    return {"type": "FeatureCollection", "features": [
        feature("BENCH-1", "Flood Warning", "Severe", now - 3600, now + 3 * 3600),
        feature("BENCH-2", "Wind Advisory", "Moderate", now + 2 * 3600, now + 5 * 3600),
        feature("BENCH-0", "Heat Advisory", "Minor", now - 7200, now - 60)]}


def call(path, method, parameters=None):
    client = Varlink(path, timeout=None, check=False)
    try:
        return client.call(method, parameters)
    finally:
        client.close()


class Raind:
    def __init__(self, base, binary, url):
        self.base, self.binary = base, binary
        self.env = {"PATH": os.environ["PATH"], "HOME": str(base), "XDG_RUNTIME_DIR": str(base / "run"),
                    "XDG_STATE_HOME": str(base / "state"), "XDG_CONFIG_HOME": str(base / "config"),
                    "XDG_CACHE_HOME": str(base / "cache"), "LANG": "C.UTF-8", "TZ": "UTC",
                    "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/raind-bench-bus",
                    "RAIND_DATA_DIR": str(ROOT / "data")}
        (base / "run").mkdir(exist_ok=True)
        (base / "config" / "raind").mkdir(parents=True, exist_ok=True)
        # No traffic leaves loopback: forecasts, alerts and air from the fixture server.
        (base / "config" / "raind" / "raind.conf").write_text(
            f"[Provider]\nName=open-meteo\nBaseURL={url}\nTimeoutSec=3\n[Alerts]\nBaseURL={url}\n"
            f"[Air]\nBaseURL={url}\n[Observations]\nBaseURL={url}\n[Places]\nGeocoderURL=http://127.0.0.1:9\n")
        self.socket = base / "run" / "raind" / "raind.sock"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(["taskset", "-c", SERVER_CPU, str(self.binary)], env=self.env,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(self.socket))
                return
            except OSError:
                time.sleep(0.01)
            finally:
                probe.close()
        raise SystemExit("status_bench: raind did not answer")

    def stop(self):
        self.process.terminate()
        self.process.wait()


def complete(path, place_id):
    """The place's forecast as a user sees it: fetched, its alert service polled, its air fetched."""
    reply = call(path, "GetForecast", {"id": place_id})
    forecast = (reply.get("parameters") or {}).get("forecast") or {}
    service = forecast.get("alertService") or {}
    return bool(forecast and service.get("checkedAt") and forecast.get("air"))


def timed(command, env):
    started = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main():
    bin_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
    others = [argument.partition("=") for argument in sys.argv[2:]]
    clients = [bin_dir / "raindctl"] + [pathlib.Path(path) for _, _, path in others]
    names = ["raindctl status"] + [f"raindctl status ({name})" for name, _, _ in others]
    # The clients (and Python, which starts them) on their own CPU.
    os.sched_setaffinity(0, {int(CLIENT_CPU)})
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-status-bench-"))
    answers = base / "answers"
    answers.mkdir()
    shutil.copy(FIXTURES / FORECAST, answers / FORECAST)
    shutil.copy(FIXTURES / AIR, answers / AIR)
    (answers / "nws-alerts.json").write_text(json.dumps(alert_feed(time.time())))
    fixtures = FixtureServer(
        routes=[("/v1/forecast", FORECAST), ("/v1/air-quality", AIR), ("/alerts/active", "nws-alerts.json")],
        # Both made for the hour of the Paris forecast's recording, served as if made now.
        directory=answers, present={FORECAST: RECORDED_AT[FORECAST], AIR: RECORDED_AT[FORECAST]})
    mpd, mpd_socket = start_mpd(base)
    if not mpd_socket:
        raise SystemExit("status_bench: needs mpd and mpc (apt-get install mpd mpc)")
    # The yardstick's server on the servers' CPU too.
    os.sched_setaffinity(mpd.pid, {int(SERVER_CPU)})
    raind = Raind(base, bin_dir / "raind", fixtures.url)
    try:
        raind.start()
        for latitude, longitude in PLACES:
            reply = call(raind.socket, "AddLocation", {"latitude": latitude, "longitude": longitude})
            assert "error" not in reply, reply
        ids = [place["id"] for place in call(raind.socket, "ListLocations")["parameters"]["locations"]]
        deadline = time.monotonic() + 60
        while not all(complete(raind.socket, place_id) for place_id in ids):
            if time.monotonic() > deadline:
                raise SystemExit("status_bench: the places' forecasts, alerts and air did not all arrive")
            time.sleep(0.1)
        # Started again on its cache files, as after a reboot: its memory 0.5 s after each of five
        # starts, and what it asked upstream in that time (nothing is due: every answer is cached).
        raind.stop()
        restarts, asked = [], []
        for _ in range(5):
            before = sum(fixtures.stats()["paths"].values())
            raind.start()
            time.sleep(0.5)
            restarts.append(rss_kib(raind.process.pid)["VmRSS"])
            asked.append(sum(fixtures.stats()["paths"].values()) - before)
            raind.stop()
        restart_rss = statistics.median(restarts)
        mpd_rss = rss_kib(mpd.pid)["VmRSS"]
        raind.start()
        assert all(complete(raind.socket, place_id) for place_id in ids)

        env = dict(raind.env, RAIND_SOCKET=str(raind.socket))
        mpc_env = dict(env, MPD_HOST=str(mpd_socket))
        commands = [[str(client), "status"] for client in clients] + [["mpc", "status"]]
        status_bytes = len(subprocess.run(commands[0], env=env, capture_output=True, check=True).stdout)
        for command in commands:  # warm the page cache
            subprocess.run(command, env=mpc_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times = [[] for _ in commands]
        for _ in range(RUNS):
            for index, command in enumerate(commands):
                times[index].append(timed(command, mpc_env))
        medians = [statistics.median(samples) * 1000 for samples in times]

        launcher = build_peak_rss(base)
        peaks, read_back = [], []
        for index, client in enumerate(clients):
            # A copy, as an install writes it; then the same file read back from disk.
            installed = base / f"raindctl-{index}"
            shutil.copyfile(client, installed)
            installed.chmod(0o755)
            peaks.append(peak(launcher, [str(installed), "status"], env))
            drop_cached_pages(installed)
            read_back.append(peak(launcher, [str(installed), "status"], env))
        mpc_peak = peak(launcher, ["mpc", "status"], mpc_env)
    finally:
        if raind.process and raind.process.poll() is None:
            raind.stop()
        fixtures.stop()
        mpd.terminate()
        mpd.wait()
        shutil.rmtree(base, ignore_errors=True)

    def mib(kib):
        return f"{kib / 1024:.1f} MiB"

    mpc_ms = medians[-1]
    rows = [(f"raind RSS 0.5 s after a start on these cache files (median of 5; {max(asked)} requests asked)",
             mib(restart_rss), f"MPD after its start (empty library, plugins loaded) {mib(mpd_rss)}",
             f"{restart_rss / mpd_rss:.2f}×")]
    for index, name in enumerate(names):
        rows.append((f"{name}, start to exit (median of {RUNS}, alternated)", f"{medians[index]:.2f} ms",
                     f"mpc status {mpc_ms:.2f} ms", f"{medians[index] / mpc_ms:.2f}×"))
        rows.append((f"{name}, peak RSS (median of {PEAK_RUNS}), its file just written", mib(peaks[index]),
                     f"mpc status {mib(mpc_peak)}", f"{peaks[index] / mpc_peak:.2f}×"))
        rows.append((f"{name}, peak RSS, its file read back from disk", mib(read_back[index]),
                     f"mpc status {mib(mpc_peak)}", f"{read_back[index] / mpc_peak:.2f}×"))
    lines = [
        "## raindctl status",
        "",
        f"`bench/run` (release build, `bench/status_bench.py`): raind with 10 places in the United States,",
        "each with its forecast, its official alerts (the NWS: one alert in effect, one upcoming) and its",
        "air quality fetched from the fixture server and cached, then started again on those files;",
        f"`raindctl status` prints {status_bytes:,} bytes. raind on CPU {SERVER_CPU}, the clients on CPU {CLIENT_CPU}",
        "(`taskset`); start to exit from Python's `subprocess.run`, each command in turn; peak RSS is",
        "ru_maxrss through `bench/yardstick/peak_rss.c`. mpc talks to an MPD with an empty library on a",
        "local socket. Goals (issue 31): start to exit ≤ 1.3×, peak RSS ≤ 2× `mpc status`. The first row is",
        "raind's own memory in this scene: with every answer cached, a start asks nothing upstream and does",
        "not open libcurl (\"Daemon\" measures a start that asks). A row that names a build in brackets",
        "is another raindctl given on the command line, against the same raind.",
        "",
        "| figure | measured | yardstick (same run) | ratio |",
        "| --- | --- | --- | --- |",
    ] + [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    for line in lines:
        print(line)
    write_section(ROOT / "docs" / "PERFORMANCE.md", "## raindctl status", lines)


def peak(launcher, command, env):
    out = subprocess.run([str(launcher), str(PEAK_RUNS)] + command, env=env, capture_output=True, text=True,
                         check=True)
    return int(out.stdout.split()[0])


if __name__ == "__main__":
    main()
