#!/usr/bin/env python3
"""Growth benchmark (issue 24, point 4): raind with 100, 1,000 and the cap
of saved places (LocationList.maximumCount), each figure next to a yardstick
measured in the same run:

  - start-up: from exec to the socket answering, with the places in the
    state file and their forecasts cached, against /bin/true's start to exit;
  - AddLocation: one more place by coordinates (the state file written,
    the list kept sorted), median of the 20 that bring the list from
    count - 20 to count, against a GetStatus round trip on the same
    connection; then one more past the cap, which is refused;
  - the ListLocations reply's size;
  - descriptors raind holds after `raindctl refresh --all` has answered,
    and the most it held while the transfers ran (sampled).

The weather comes from the fixture HTTP server on loopback. Prints a table;
`python3 bench/growth_bench.py BIN_DIR [COUNTS...]`."""
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
COUNTS = [int(n) for n in sys.argv[2:] if n.isdigit()] or [100, 1000]
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from raindtest import FIXTURES, RECORDED_AT, FixtureServer, Varlink, hours_since, moved_in_time  # noqa: E402


def places(count):
    """`count` places on a grid over Europe, each more than 1 km from the next."""
    return [{"id": f"place-{n}", "name": f"Place {n:05d}", "region": "", "country": "", "countryCode": "",
             "latitude": 40 + (n // 100) * 0.1, "longitude": (n % 100) * 0.1, "timeZone": "",
             "source": {"kind": "coordinates"}} for n in range(count)]


def cached(place, forecast):
    return {"version": 2, "latitude": place["latitude"], "longitude": place["longitude"],
            "etag": None, "lastModified": None, "forecast": forecast}


def environment(base, fixture_url, more=""):
    """The environment of a raind living in `base`, its directories made, its
    configuration asking `fixture_url` for forecasts and no other service
    (alerts, air and observations off, no online geocoder), then `more`."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(base), "XDG_RUNTIME_DIR": str(base / "run"),
           "XDG_STATE_HOME": str(base / "state"), "XDG_CONFIG_HOME": str(base / "config"),
           "XDG_CACHE_HOME": str(base / "cache"), "LANG": "C.UTF-8", "TZ": "UTC",
           "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "RAIND_DATA_DIR": str(ROOT / "data")}
    for key in ("run", "state/raind", "config/raind", "cache/raind/forecasts"):
        (base / key).mkdir(parents=True, exist_ok=True)
    (base / "config/raind/raind.conf").write_text(
        f"[Provider]\nName=open-meteo\nBaseURL={fixture_url}\n[Alerts]\nEnabled=no\n[Air]\nEnabled=no\n"
        f"[Observations]\nEnabled=no\n[Places]\nOnlineGeocoder=no\n{more}")
    return env


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def main():
    golden = json.loads((FIXTURES / "Golden" / "openmeteo-paris.forecast.json").read_text())
    recorded = golden["fetchedAt"]
    forecast = moved_in_time(golden, hours_since(recorded), recorded)
    forecast["fetchedAt"] = time.time() - 60
    server = FixtureServer(routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json")])
    true_runs = []
    for _ in range(20):
        started = time.perf_counter()
        subprocess.run(["/bin/true"], check=True)
        true_runs.append(time.perf_counter() - started)
    rows = []
    try:
        for count in COUNTS:
            base = pathlib.Path(tempfile.mkdtemp(prefix="raind-growth-"))
            env = environment(base, server.url, "[Refresh]\nDailyBudget=1000000\n")
            # The 20 places added below bring the list to `count`.
            saved = places(count - 20)
            (base / "state/raind/state.json").write_text(json.dumps(
                {"version": 1, "locations": saved, "selected": "place-0", "settings": {"units": "si"}}))
            for place in saved:
                (base / f"cache/raind/forecasts/{place['id']}.json").write_text(json.dumps(cached(place, forecast)))
            socket_path = base / "run/raind/raind.sock"
            started = time.perf_counter()
            process = subprocess.Popen([str(BIN / "raind")], env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            while True:
                try:
                    Varlink(socket_path, timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.0005)
            start_up = time.perf_counter() - started
            client = Varlink(socket_path, timeout=30)
            adds, statuses = [], []
            for n in range(20):
                t = time.perf_counter()
                client.call("GetStatus")
                statuses.append(time.perf_counter() - t)
                t = time.perf_counter()
                reply = client.call("AddLocation", {"latitude": -30 - n * 0.1, "longitude": 20.0,
                                                     "name": f"Added {n}"})
                adds.append(time.perf_counter() - t)
            refused = client.call("AddLocation", {"latitude": 10.0, "longitude": 10.0, "name": "One more"})
            size = len(json.dumps(client.call("ListLocations"), separators=(",", ":")))
            peak = [0]
            done = threading.Event()

            def sample():
                while not done.is_set():
                    try:
                        peak[0] = max(peak[0], descriptors(process.pid))
                    except OSError:
                        pass
                    time.sleep(0.005)
            sampler = threading.Thread(target=sample)
            sampler.start()
            refresh = subprocess.run([str(BIN / "raindctl"), "refresh", "--all"], env=dict(env, RAIND_SOCKET=str(socket_path)),
                                     capture_output=True, text=True, timeout=600)
            done.set()
            sampler.join()
            after = descriptors(process.pid)
            rows.append((count, start_up, statistics.median(adds), statistics.median(statuses), size, peak[0], after,
                         refresh.returncode, refused.get("error")))
            client.close()
            process.terminate()
            process.wait(timeout=10)
            shutil.rmtree(base, ignore_errors=True)
    finally:
        server.stop()
    print(f"/bin/true start to exit: {statistics.median(true_runs) * 1000:.2f} ms (median of 20)")
    print("| places | start-up | AddLocation (median of 20) | GetStatus (same connection) | ListLocations reply "
          "| descriptors during refresh --all (peak) | after | refresh --all exit | AddLocation past the count |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for count, start_up, add, status, size, peak, after, code, error in rows:
        print(f"| {count} | {start_up * 1000:.1f} ms | {add * 1000:.2f} ms | {status * 1000:.2f} ms | {size} bytes "
              f"| {peak} | {after} | {code} | {error or 'none'} |")


if __name__ == "__main__":
    main()
