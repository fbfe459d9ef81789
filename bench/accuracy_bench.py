#!/usr/bin/env python3
"""Accuracy-records benchmark (issue 33, "Cost and bounds"): raind with 100
saved places, each with a month of what its forecasts said beside what was
observed (docs/ACCURACY.md), as a month of four providers leaves them: the
serving provider's sample every hour at each lead time (+6, +24, +48 h), the
three others' four times a day, and an observed hour for every hour of the 30
days. The records are written here in the format raind writes
(`accuracy/<id>.json`, docs/FILES.md), with temperatures that follow a daily
cycle and each provider's own error, so raind reads, checks and scores them
as it would its own.

Figures, each beside its yardstick measured in the same run:
  - the records on disk, per place and in all;
  - start to READY=1 with the records there, against the same start without
    them (records are read when first needed, so it must not grow) and
    /bin/true's start to exit;
  - raind's memory after start, after every place's scores were asked once
    (every record read and kept), against after start;
  - GetAccuracy for one place: the first call (its file read, checked and
    scored), median over the 100 places, and again (scored from memory),
    median of 200, against GetStatus on the same connection (median of 200);
  - GetAccuracy for every place in one call.

`python3 bench/accuracy_bench.py BIN_DIR [--write docs/PERFORMANCE.md]`; with `--places`, prints
`raindctl accuracy` for three places (the US, Germany, Norway) with such records instead."""
import json
import math
import pathlib
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from daemon_bench import rss_kib, write_section  # noqa: E402
from growth_bench import cached, environment, places  # noqa: E402
from raindtest import FIXTURES, Varlink, hours_since, moved_in_time  # noqa: E402

PLACES = 100
DAYS = 30
LEADS = [6, 24, 48]
SERVING = "open-meteo"
# The others, with their error: (bias °C, noise °C).
PROVIDERS = {SERVING: (0.4, 1.2), "metno": (-0.2, 1.0), "brightsky": (0.0, 1.4), "pirateweather": (1.1, 1.6)}
RUNS = 200


def record(rng, now, providers=PROVIDERS, serving=SERVING, station="EHTW"):
    """A month of one place's record, as raind writes it (AccuracyRecord): `serving`'s samples every
    hour, the other `providers`' four times a day, each with its (bias, noise)."""
    end = int(now // 3600) * 3600
    start = end - DAYS * 86_400
    truth = {}
    observed = []
    for hour in range(start, end, 3600):
        day = (hour % 86_400) / 86_400
        truth[hour] = 8 + 6 * math.sin(2 * math.pi * (day - 0.375)) + rng.gauss(0, 1.5)
        observed.append({"hour": hour, "observedAt": hour - 300, "temperature": round(truth[hour], 1),
                         "rain": rng.random() < 0.15, "windSpeed": round(abs(rng.gauss(4, 2)), 1)})
    samples = []

    def sample(provider, lead, hour, issued):
        bias, noise = providers[provider]
        wet = rng.random() < 0.18
        samples.append({"provider": provider, "lead": lead, "hour": hour, "issuedAt": issued,
                        "temperature": round(truth[hour] + bias + rng.gauss(0, noise * (1 + lead / 48)), 1),
                        "rain": wet, "rainProbability": round(rng.random() * (0.9 if wet else 0.4), 2),
                        "windSpeed": round(abs(rng.gauss(4, 2.5)), 1)})
    for provider in providers:
        for lead in LEADS:
            if provider == serving:
                for hour in range(start, end, 3600):
                    sample(provider, lead, hour, hour - lead * 3600)
            else:
                # Asked four times a day: each answer gives the three hours of each lead's span.
                for issued in range(start - lead * 3600, end - lead * 3600, 6 * 3600):
                    for hour in range(issued + lead * 3600, issued + (lead + 3) * 3600, 3600):
                        if start <= hour < end:
                            sample(provider, lead, hour, issued)
    samples.sort(key=lambda s: (s["provider"], s["lead"], s["hour"]))
    return {"version": 1, "station": station, "samples": samples, "observed": observed}


def start(binary, env, base):
    """Starts raind; returns (process, milliseconds from spawn to READY=1)."""
    notify_path = base / "notify.sock"
    if notify_path.exists():
        notify_path.unlink()
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(notify_path))
    notify.settimeout(20)
    started = time.perf_counter()
    process = subprocess.Popen([str(binary)], env=dict(env, NOTIFY_SOCKET=str(notify_path)),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while b"READY=1" not in notify.recv(4096).split(b"\n"):
            pass
        return process, (time.perf_counter() - started) * 1000
    finally:
        notify.close()


def stop(process):
    process.terminate()
    process.wait(timeout=20)


def timed(client, method, parameters=None):
    started = time.perf_counter()
    reply = client.call(method, parameters)
    elapsed = (time.perf_counter() - started) * 1000
    assert "error" not in reply, reply
    return elapsed, reply


# `--places`: three places as the note shows them, each with its region's providers.
THREE = [
    ({"id": "columbus-us", "name": "Columbus", "latitude": 39.9612, "longitude": -82.9988}, "KCMH",
     "nws", {"nws": (0.6, 1.3), "open-meteo": (-0.3, 1.1), "pirateweather": (1.4, 1.5)}),
    ({"id": "berlin-de", "name": "Berlin", "latitude": 52.5244, "longitude": 13.4105}, "10384",
     "brightsky", {"brightsky": (0.2, 1.0), "open-meteo": (0.3, 1.2), "metno": (-0.5, 1.4)}),
    ({"id": "oslo-no", "name": "Oslo", "latitude": 59.9127, "longitude": 10.7461}, "ENGM",
     "metno", {"metno": (-0.1, 0.9), "open-meteo": (0.9, 1.3)}),
]


def three_places(binary, now, forecast):
    """Prints `raindctl accuracy` for a place in the US, Germany and Norway, each with a month of
    records (`record`) from its region's providers."""
    rng = random.Random(36)
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-accuracy-places-"))
    try:
        # Each place served by its region's provider, as a default install chooses.
        env = environment(base, "http://127.0.0.1:9", "[Provider]\nName=auto\n")
        saved = []
        (base / "state/raind/accuracy").mkdir(parents=True, exist_ok=True)
        for place, station, serving, providers in THREE:
            saved.append(dict(places(1)[0], **place))
            served = dict(forecast, provider=serving)
            (base / f"cache/raind/forecasts/{place['id']}.json").write_text(json.dumps(cached(saved[-1], served)))
            (base / f"state/raind/accuracy/{place['id']}.json").write_text(
                json.dumps(record(rng, now, providers, serving, station)))
        (base / "state/raind/state.json").write_text(json.dumps(
            {"version": 1, "locations": saved, "selected": saved[0]["id"], "settings": {"units": "si"}}))
        process, _ = start(binary / "raind", env, base)
        try:
            for place in saved:
                shown = subprocess.run([str(binary / "raindctl"), "accuracy", place["name"]], capture_output=True,
                                       text=True, env=dict(env, RAIND_SOCKET=str(base / "run/raind/raind.sock")))
                print(f"$ raindctl accuracy {place['name']}\n{shown.stdout}{shown.stderr}")
        finally:
            stop(process)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main():
    binary = pathlib.Path(sys.argv[1]) / "raind"
    target = sys.argv[sys.argv.index("--write") + 1] if "--write" in sys.argv else None
    rng = random.Random(33)
    now = time.time()
    golden = json.loads((FIXTURES / "Golden" / "openmeteo-paris.forecast.json").read_text())
    forecast = moved_in_time(golden, hours_since(golden["fetchedAt"]), golden["fetchedAt"])
    forecast["fetchedAt"] = now - 60
    if "--places" in sys.argv:
        return three_places(binary.parent, now, forecast)
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-accuracy-bench-"))
    # Nothing leaves loopback and nothing is asked during the measurement: the
    # forecasts are cached and fresh (the provider is a closed port); alerts, air and observations are off.
    env = environment(base, "http://127.0.0.1:9")
    saved = places(PLACES)
    (base / "state/raind/state.json").write_text(json.dumps(
        {"version": 1, "locations": saved, "selected": saved[0]["id"], "settings": {"units": "si"}}))
    for place in saved:
        (base / f"cache/raind/forecasts/{place['id']}.json").write_text(json.dumps(cached(place, forecast)))
    try:
        true_runs = []
        for _ in range(20):
            started = time.perf_counter()
            subprocess.run(["/bin/true"], check=True)
            true_runs.append((time.perf_counter() - started) * 1000)
        # Start-up without records, then with them, alternated.
        records_dir = base / "state/raind/accuracy"
        sizes = []
        records = {}
        for place in saved:
            text = json.dumps(record(rng, now), separators=(",", ":"))
            records[place["id"]] = text
            sizes.append(len(text.encode()))
        samples_per_place = len(json.loads(records[saved[0]["id"]])["samples"])
        without, with_records = [], []
        for _ in range(10):
            shutil.rmtree(records_dir, ignore_errors=True)
            process, ready = start(binary, env, base)
            without.append(ready)
            stop(process)
            records_dir.mkdir(parents=True, exist_ok=True)
            for place_id, text in records.items():
                (records_dir / f"{place_id}.json").write_text(text)
            process, ready = start(binary, env, base)
            with_records.append(ready)
            stop(process)
        process, _ = start(binary, env, base)
        socket_path = base / "run/raind/raind.sock"
        client = Varlink(socket_path, timeout=60)
        client.call("GetStatus")
        after_start = rss_kib(process.pid)
        first = []
        for place in saved:
            elapsed, reply = timed(client, "GetAccuracy", {"id": place["id"]})
            [accuracy] = reply["parameters"]["places"]
            assert not accuracy.get("fileProblem"), accuracy
            assert {score["provider"] for score in accuracy["scores"]} == set(PROVIDERS), accuracy["scores"]
            first.append(elapsed)
        after_all = rss_kib(process.pid)
        again = [timed(client, "GetAccuracy", {"id": saved[7]["id"]})[0] for _ in range(RUNS)]
        status = [timed(client, "GetStatus")[0] for _ in range(RUNS)]
        every = [timed(client, "GetAccuracy")[0] for _ in range(10)]
        reply_bytes = len(json.dumps(client.call("GetAccuracy", {"id": saved[7]["id"]}), separators=(",", ":")))
        status_bytes = len(json.dumps(client.call("GetStatus"), separators=(",", ":")))
        client.close()
        stop(process)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    def mib(kib):
        return kib / 1024
    true_ms = statistics.median(true_runs)
    status_ms = statistics.median(status)
    rows = [
        ("records on disk, per place (median)", f"{statistics.median(sizes) / 1e6:.2f} MB",
         f"{samples_per_place:,} samples, {DAYS * 24} observed hours", ""),
        ("records on disk, 100 places", f"{sum(sizes) / 1e6:.1f} MB", "", ""),
        ("start to READY=1, 100 places with their records (median of 10)", f"{statistics.median(with_records):.1f} ms",
         f"the same without records {statistics.median(without):.1f} ms",
         f"{statistics.median(with_records) / statistics.median(without):.2f}×"),
        ("", "", f"/bin/true start to exit {true_ms:.2f} ms", f"{statistics.median(with_records) / true_ms:.1f}×"),
        ("raind RSS after every place's scores were asked once (every record kept)",
         f"{mib(after_all['VmRSS']):.1f} MiB", f"after start {mib(after_start['VmRSS']):.1f} MiB",
         f"{after_all['VmRSS'] / after_start['VmRSS']:.2f}×"),
        ("GetAccuracy, one place, first call (file read, checked, scored): median over 100 places",
         f"{statistics.median(first):.2f} ms", f"GetStatus {status_ms:.3f} ms",
         f"{statistics.median(first) / status_ms:.0f}×"),
        (f"GetAccuracy, one place again (scored from memory): median of {RUNS}", f"{statistics.median(again):.2f} ms",
         f"GetStatus {status_ms:.3f} ms", f"{statistics.median(again) / status_ms:.0f}×"),
        ("GetAccuracy, every place in one call (median of 10)", f"{statistics.median(every):.1f} ms",
         f"GetStatus {status_ms:.3f} ms", f"{statistics.median(every) / status_ms:.0f}×"),
    ]
    lines = [
        "## Accuracy records",
        "",
        "`python3 bench/accuracy_bench.py .build/release --write docs/PERFORMANCE.md` (release build, run by",
        f"`bench/run`): raind with {PLACES} places saved, their forecasts cached and fresh (nothing is asked",
        "upstream), and for each a month of records as four providers leave them (docs/ACCURACY.md): the",
        "serving provider's samples every hour at +6, +24 and +48 h, the three others' four times a day, and",
        f"an observed hour for each of the {DAYS * 24} hours. The bench writes them in raind's own format;",
        "raind reads, checks and scores them as its own. The replies are "
        f"{reply_bytes:,} bytes (GetAccuracy, one place) and {status_bytes:,} (GetStatus).",
        "",
        "| figure | measured | yardstick (same run) | ratio |",
        "| --- | --- | --- | --- |",
    ] + [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows] + [
        "",
        f"RssAnon / RssFile: after start {after_start['RssAnon']} / {after_start['RssFile']} KiB, "
        f"with every record kept {after_all['RssAnon']} / {after_all['RssFile']} KiB.",
        "",
        "The bounds per place (docs/ACCURACY.md): 32 days, at most 20,000 samples and 769 observed hours, a",
        "file of at most 4 MiB read back. Records are read when first needed (a GetAccuracy, a forecast",
        "or observation to add, the daily ranking), not at start-up, and each is written at most hourly and",
        "when raind stops.",
    ]
    print("\n".join(lines))
    if target:
        write_section(pathlib.Path(target), "## Accuracy records", lines)


if __name__ == "__main__":
    main()
