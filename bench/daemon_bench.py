#!/usr/bin/env python3
"""Daemon benchmarks, each figure next to a yardstick measured in the same
run, written to docs/PERFORMANCE.md ("## Daemon" section):

  - start to READY=1 (sd_notify, NOTIFY_SOCKET) with 10 places saved, against
    /bin/true's start to exit;
  - resident memory with 10 places over the place data's life (after start,
    after searches, after the idle timer released the pages);
  - wake-ups while idle: context switches of every raind thread over a quiet
    window, after the refreshes and the place-data timer are done;
  - a typo search ("pariss", "sprngfield") over the socket against a GetStatus
    round trip on the same connection;
  - 1,000 subscribes in a burst (1,000 connections, each Subscribe with
    more=true and its snapshot read): raind's CPU time against 1,000
    connections making one GetStatus each;
  - raindctl status against mpc status (MPD on a local socket, both median
    of 200) and /bin/true;
  - raindctl status's peak resident memory (ru_maxrss, through the small
    launcher bench/yardstick/peak_rss.c) against mpc status's, and raindctl
    --version's against /bin/true's.

The weather comes from the fixture HTTP server on loopback. Run through bench/run."""
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "release"
# The quiet window starts 100 s after the searches: the place data is released
# 60 s after the last one, and the services raind cannot reach here (no network
# but loopback) had their first retry 60-66 s after start, after which libcurl
# closes its idle connections 30 s later; their back-off then doubles, so the
# next retry falls after the window. The schedule printed below shows it.
IDLE_WAIT = float(os.environ.get("RAIND_BENCH_IDLE_WAIT", "100"))
QUIET_WINDOW = float(os.environ.get("RAIND_BENCH_QUIET_WINDOW", "60"))
SUBSCRIBERS = 1000
RUNS = 200
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from raindtest import FixtureServer, Varlink  # noqa: E402

# Ten places spread over the world (latitude, longitude), added by position.
PLACES = [(48.857, 2.352), (52.22, 6.89), (40.71, -74.0), (35.68, 139.69), (-33.87, 151.21),
          (55.75, 37.62), (-23.55, -46.63), (19.43, -99.13), (28.61, 77.21), (69.65, 18.96)]


def rss_kib(pid):
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"):
            fields[key] = int(value.split()[0])
    return fields


def cpu_ns(pid):
    """CPU time of every thread of the process, from /proc/PID/task/*/schedstat (nanoseconds)."""
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def context_switches(pid):
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def call(path, method, parameters=None):
    client = Varlink(path, timeout=None, check=False)
    try:
        return client.call(method, parameters)
    finally:
        client.close()


def timed_runs(command, env, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def build_peak_rss(base):
    """bench/yardstick/peak_rss.c, built static so its own few hundred KiB are the floor of every figure."""
    out = base / "peak_rss"
    source = ROOT / "bench" / "yardstick" / "peak_rss.c"
    if subprocess.run(["cc", "-O2", "-static", "-o", str(out), str(source)], stderr=subprocess.DEVNULL).returncode:
        subprocess.run(["cc", "-O2", "-o", str(out), str(source)], check=True)
    return out


def drop_cached_pages(path):
    """Writes `path` back and drops its pages from the page cache, so the next run reads it from disk.
    Pages written in large folios are mapped a whole folio at a time; read back, in smaller ones."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def peak_rss_kib(launcher, command, env, runs):
    """Median peak resident set (KiB) of `command` over `runs` runs: the child's ru_maxrss from wait4,
    whole process. Python cannot launch it itself: a child's ru_maxrss counts the process it was
    forked from until its exec."""
    out = subprocess.run([str(launcher), str(runs)] + command, env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])


def timed_calls(client, method, parameters, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        client.call(method, parameters)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, max(times) * 1000


class Raind:
    def __init__(self, base, fixture_url):
        self.base = base
        self.env = {"PATH": os.environ["PATH"], "HOME": str(base), "XDG_RUNTIME_DIR": str(base / "run"),
                    "XDG_STATE_HOME": str(base / "state"), "XDG_CONFIG_HOME": str(base / "config"),
                    "XDG_CACHE_HOME": str(base / "cache"), "LANG": "C.UTF-8", "TZ": "UTC",
                    "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/raind-bench-bus",
                    "RAIND_DATA_DIR": str(ROOT / "data")}
        (base / "run").mkdir(exist_ok=True)
        (base / "config" / "raind").mkdir(parents=True, exist_ok=True)
        # No traffic leaves loopback: forecasts from the fixture server, the geocoder a closed port.
        (base / "config" / "raind" / "raind.conf").write_text(
            f"[Provider]\nBaseURL={fixture_url}\n[Places]\nGeocoderURL=http://127.0.0.1:9\n"
            f"[Socket]\nMaxClients={SUBSCRIBERS + 100}\n")
        self.socket = base / "run" / "raind" / "raind.sock"
        self.process = None

    def services(self, enabled):
        """Official alerts, observations and air quality on (raind's default) or off: with them
        off and the forecasts fresh, raind asks nobody at start and never opens libcurl."""
        config = self.base / "config" / "raind" / "raind.conf"
        kept = config.read_text().split("[Alerts]")[0]
        if not enabled:
            kept += "".join(f"[{section}]\nEnabled=no\n" for section in ("Alerts", "Observations", "Air"))
        config.write_text(kept)

    def start(self, record=False):
        """Starts raind and returns the milliseconds from spawning it to its READY=1. With
        `record`, raind logs at debug level and each line is kept with the time it came
        (`self.lines`: (time.monotonic(), line)), to show when it asked upstream."""
        notify_path = self.base / "notify.sock"
        if notify_path.exists():
            notify_path.unlink()
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(str(notify_path))
        notify.settimeout(10)
        env = dict(self.env, NOTIFY_SOCKET=str(notify_path))
        started = time.perf_counter()
        if record:
            self.lines = []
            self.process = subprocess.Popen([str(BIN / "raind"), "--log-level", "debug"], env=env,
                                            stderr=subprocess.PIPE, text=True)

            def keep(stream, lines):
                for line in stream:
                    lines.append((time.monotonic(), line.rstrip("\n")))
            threading.Thread(target=keep, args=(self.process.stderr, self.lines), daemon=True).start()
        else:
            self.process = subprocess.Popen([str(BIN / "raind")], env=env, stderr=subprocess.DEVNULL)
        try:
            while True:
                message = notify.recv(4096)
                if b"READY=1" in message.split(b"\n"):
                    return (time.perf_counter() - started) * 1000
        finally:
            notify.close()

    def stop(self):
        self.process.terminate()
        self.process.wait()


def schedule_rows(asked, window_start, window_length):
    """One line per second in which raind asked upstream: the time since its start, the hosts
    and how the requests ended, and whether it fell in the idle window."""
    by_second = {}
    for at, line in asked:
        url = line.split("http: GET ", 1)[1]
        host = url.split("/")[2]
        ended = "failed" if " failed: " in line else ("answered" if ": " in url.split("?")[-1] else "sent")
        by_second.setdefault(int(at), []).append(f"{host} {ended}")
    rows = []
    for second in sorted(by_second):
        inside = window_start <= second < window_start + window_length
        counts = {}
        for what in by_second[second]:
            counts[what] = counts.get(what, 0) + 1
        text = ", ".join(f"{n} × {what}" for what, n in sorted(counts.items()))
        rows.append(f"- {second} s{' (in the idle window)' if inside else ''}: {text}")
    return rows


def subscribe_burst(path, pid, method):
    """raind's CPU milliseconds for SUBSCRIBERS connections each making one call (a Subscribe with
    more=true, or a GetStatus) and reading its first reply, every connection held until all are in."""
    clients = []
    before = cpu_ns(pid)
    for _ in range(SUBSCRIBERS):
        # Blocking (no timeout): a connect to a full backlog waits rather than failing with EAGAIN.
        client = Varlink(path, timeout=None, check=False)
        client.send("io.raind.Weather." + method, more=method == "Subscribe")
        clients.append(client)
    for client in clients:
        reply = client.receive()
        assert "error" not in reply, reply
    spent = (cpu_ns(pid) - before) / 1e6
    for client in clients:
        client.close()
    # raind closes its ends before the next measurement starts.
    time.sleep(1)
    return spent


def start_mpd(base):
    """MPD on a Unix socket with an empty library and a null output, for mpc's yardstick; None without it."""
    if not (shutil.which("mpd") and shutil.which("mpc")):
        return None, None
    directory = base / "mpd"
    (directory / "music").mkdir(parents=True)
    config = directory / "mpd.conf"
    sock = directory / "socket"
    config.write_text(f'music_directory "{directory / "music"}"\ndb_file "{directory / "db"}"\n'
                      f'state_file "{directory / "state"}"\nbind_to_address "{sock}"\n'
                      'audio_output {\n type "null"\n name "null"\n}\n')
    process = subprocess.Popen(["mpd", "--no-daemon", str(config)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not sock.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return process, sock


def main():
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-bench-"))
    fixtures = FixtureServer(routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json")])
    mpd, mpd_socket = start_mpd(base)
    raind = Raind(base, fixtures.url)
    try:
        empty = []
        for _ in range(20):
            empty.append(raind.start())
            raind.stop()
        empty_ms = statistics.median(empty)
        # Ten places, each fetched once; then raind restarts with them saved and cached.
        raind.start()
        for latitude, longitude in PLACES:
            reply = call(raind.socket, "AddLocation", {"latitude": latitude, "longitude": longitude})
            assert "error" not in reply, reply
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and fixtures.count("/v1/forecast") < len(PLACES):
            time.sleep(0.05)
        raind.stop()
        ready = []
        for _ in range(20):
            ready.append(raind.start())
            raind.stop()
        ready_ms = statistics.median(ready)
        true_once = timed_runs(["/bin/true"], raind.env, 20)
        # The same start with nothing asked upstream: start-up's own memory, without libcurl.
        raind.services(False)
        quiet = []
        for _ in range(5):
            raind.start()
            time.sleep(0.5)
            quiet.append(rss_kib(raind.process.pid)["VmRSS"])
            raind.stop()
        quiet_rss = statistics.median(quiet)
        raind.services(True)

        started_at = time.monotonic()
        raind.start(record=True)
        pid = raind.process.pid
        time.sleep(0.5)
        started = rss_kib(pid)
        for query in ("Paris", "zurich", "Portland, OR", "London, Canada", "sao paulo", "Springfild"):
            call(raind.socket, "SearchPlaces", {"query": query})
        searched = rss_kib(pid)

        client = Varlink(raind.socket, timeout=None, check=False)
        status_ms, _ = timed_calls(client, "GetStatus", None, RUNS)
        typos = {query: timed_calls(client, "SearchPlaces", {"query": query}, RUNS)
                 for query in ("pariss", "sprngfield")}
        client.close()

        print(f"waiting {IDLE_WAIT:.0f} s for the place data to be released…", file=sys.stderr)
        time.sleep(IDLE_WAIT)
        later = rss_kib(pid)
        switches = context_switches(pid)
        window = time.monotonic()
        time.sleep(QUIET_WINDOW)
        wakeups = context_switches(pid) - switches
        # When raind asked upstream (air and alerts included), seconds since its start: what
        # it does against a service it cannot reach is its back-off, and the window shows it.
        asked = [(at - started_at, line) for at, line in raind.lines if "http: GET" in line]
        schedule = schedule_rows(asked, window - started_at, QUIET_WINDOW)
        print("\n".join(schedule), file=sys.stderr)

        status_burst = subscribe_burst(raind.socket, pid, "GetStatus")
        subscribe_ms = subscribe_burst(raind.socket, pid, "Subscribe")
        burst = rss_kib(pid)

        client_env = dict(raind.env, RAIND_SOCKET=str(raind.socket))
        # The servers (every raind thread, MPD) on CPU 0, the clients and Python starting them on
        # CPU 1, as the other benchmarks: unpinned, a round trip's time moves with the scheduler.
        servers = [pid] + ([mpd.pid] if mpd else [])
        for server in servers:
            subprocess.run(["taskset", "-a", "-p", "-c", "0", str(server)], stdout=subprocess.DEVNULL, check=True)
        os.sched_setaffinity(0, {1})
        ctl = timed_runs([str(BIN / "raindctl"), "status"], client_env, RUNS)
        ctl_json = timed_runs([str(BIN / "raindctl"), "status", "--json"], client_env, RUNS)
        mpc = (timed_runs(["mpc", "status"], dict(client_env, MPD_HOST=str(mpd_socket)), RUNS)
               if mpd_socket else None)
        true_ms = timed_runs(["/bin/true"], client_env, RUNS)
        help_ms = timed_runs([str(BIN / "raindctl"), "--version"], client_env, RUNS)
        launcher = build_peak_rss(base)
        # A copy, as an install writes it: its pages sit in the page cache as written. Then the
        # same file read back from disk, as after a reboot.
        installed = base / "raindctl"
        shutil.copyfile(BIN / "raindctl", installed)
        installed.chmod(0o755)
        ctl_peak = peak_rss_kib(launcher, [str(installed), "status"], client_env, 20)
        mpc_peak = (peak_rss_kib(launcher, ["mpc", "status"], dict(client_env, MPD_HOST=str(mpd_socket)), 20)
                    if mpd_socket else None)
        help_peak = peak_rss_kib(launcher, [str(installed), "--version"], client_env, 20)
        drop_cached_pages(installed)
        ctl_read_peak = peak_rss_kib(launcher, [str(installed), "status"], client_env, 20)
        true_peak = peak_rss_kib(launcher, ["/bin/true"], client_env, 20)
    finally:
        if raind.process and raind.process.poll() is None:
            raind.stop()
        fixtures.stop()
        if mpd:
            mpd.terminate()
            mpd.wait()
        shutil.rmtree(base, ignore_errors=True)

    def mib(kib):
        return f"{kib / 1024:.1f} MiB"

    rows = [
        ("start to READY=1, no place saved (median of 20)", f"{empty_ms:.1f} ms",
         f"/bin/true start to exit {true_once:.2f} ms", f"{empty_ms / true_once:.1f}×"),
        ("start to READY=1, 10 places saved and their forecasts cached (median of 20)", f"{ready_ms:.1f} ms",
         f"/bin/true start to exit {true_once:.2f} ms", f"{ready_ms / true_once:.1f}×"),
        ("raind RSS after start, 10 places (place data not opened)", mib(started["VmRSS"]), "yardstick", "1.00×"),
        ("the same with alerts, observations and air off: nothing asked, libcurl not opened (median of 5)",
         mib(quiet_rss), mib(started["VmRSS"]), f"{quiet_rss / started['VmRSS']:.2f}×"),
        ("raind RSS after 6 searches", mib(searched["VmRSS"]), mib(started["VmRSS"]),
         f"{searched['VmRSS'] / started['VmRSS']:.2f}×"),
        (f"raind RSS idle, 10 places, {IDLE_WAIT:.0f} s after the last search (pages released)",
         mib(later["VmRSS"]), mib(started["VmRSS"]), f"{later['VmRSS'] / started['VmRSS']:.2f}×"),
        (f"wake-ups while idle ({QUIET_WINDOW:.0f} s, every thread's context switches)", f"{wakeups}", "0", "–"),
    ] + [
        (f"typo search \"{query}\" over the socket: median / slowest of {RUNS}", f"{median:.3f} / {slowest:.3f} ms",
         f"GetStatus {status_ms:.3f} ms", f"{median / status_ms:.1f}×")
        for query, (median, slowest) in typos.items()
    ] + [
        (f"{SUBSCRIBERS:,} subscribes in a burst, raind CPU time", f"{subscribe_ms:.0f} ms",
         f"{SUBSCRIBERS:,} connections with one GetStatus {status_burst:.0f} ms",
         f"{subscribe_ms / status_burst:.2f}×"),
        ("raind RSS after both bursts (connections closed)", mib(burst["VmRSS"]), mib(started["VmRSS"]),
         f"{burst['VmRSS'] / started['VmRSS']:.2f}×"),
        (f"raindctl status, start to exit (median of {RUNS})", f"{ctl:.2f} ms",
         f"mpc status {mpc:.2f} ms" if mpc else "mpc not installed", f"{ctl / mpc:.2f}×" if mpc else "–"),
        (f"raindctl status --json, start to exit (median of {RUNS})", f"{ctl_json:.2f} ms",
         f"/bin/true {true_ms:.2f} ms", f"{ctl_json / true_ms:.1f}×"),
        (f"raindctl --version, start to exit (median of {RUNS})", f"{help_ms:.2f} ms", f"/bin/true {true_ms:.2f} ms",
         f"{help_ms / true_ms:.1f}×"),
        ("raindctl status, peak RSS (ru_maxrss, median of 20), its file just written", mib(ctl_peak),
         f"mpc status {mib(mpc_peak)}" if mpc_peak else "mpc not installed",
         f"{ctl_peak / mpc_peak:.2f}×" if mpc_peak else "–"),
        ("the same, raindctl's file read back from disk (its cached pages dropped first)", mib(ctl_read_peak),
         f"mpc status {mib(mpc_peak)}" if mpc_peak else "mpc not installed",
         f"{ctl_read_peak / mpc_peak:.2f}×" if mpc_peak else "–"),
        ("raindctl --version, peak RSS (ru_maxrss, median of 20)", mib(help_peak), f"/bin/true {mib(true_peak)}",
         f"{help_peak / true_peak:.1f}×"),
    ]
    lines = [
        "## Daemon",
        "",
        "`bench/run` (release build, `bench/daemon_bench.py`). raind runs with temporary directories,",
        "forecasts from the fixture HTTP server on loopback and 10 places saved (added by position",
        "and fetched once, then raind restarted); memory is the whole process's VmRSS from",
        "`/proc/PID/status`, CPU time the sum of `/proc/PID/task/*/schedstat`, wake-ups the sum of",
        "every thread's voluntary and involuntary context switches. mpc talks to an MPD with an",
        "empty library on a local socket. For the raindctl and mpc rows raind and MPD run on CPU 0,",
        "the clients on CPU 1 (`taskset`); `bench/status_bench.py` measures `status` as a user with",
        "alerts and air has it (\"raindctl status\").",
        "",
        "| figure | measured | yardstick (same run) | ratio |",
        "| --- | --- | --- | --- |",
    ] + [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows] + [
        "",
        f"RssAnon / RssFile: start {started['RssAnon']} / {started['RssFile']} KiB, after searches "
        f"{searched['RssAnon']} / {searched['RssFile']} KiB, later {later['RssAnon']} / {later['RssFile']} KiB.",
        '',
        "Start to READY=1 is mostly exec, the dynamic loader (libsystemd and its half dozen libraries;",
        "libcurl and its thirty are opened only at the first request, see docs/DECISIONS.md) and",
        "first-touch page faults; with places saved, reading the state file and the selected place's",
        "cached forecast adds the rest (the other places' are read right after READY=1, before the",
        "loop runs). What start-up no longer does is in \"Start-up\". Alerts, observations and air",
        "are on, as raind ships; none has an answer cached and none can be reached here, so raind asks",
        "them right after READY=1 and opens libcurl and its thirty libraries (most of the RSS after",
        "start, in pages shared with every program using them). The row after it is the same start",
        "with those services off: nothing asked, as this table measured start-up before they existed.",
        "A typo search spends its time in the place data's near-spelling index (see \"Places\"); the",
        "round trip adds the Python client's own time (the GetStatus column). The subscribe burst",
        "writes each subscriber the snapshot (status, places and the selected forecast, about 15 KB",
        "here), encoded once: the status behind it is built again only when something it shows",
        "changed, not for each subscriber (a snapshot found unchanged is kept at the new version).",
        "raindctl's time beyond `--version` is the call, decoding and formatting the reply,",
        "and the page faults of the code that does it; generic metadata is built by accessors rather",
        "than from mangled names, and neither executable links the concurrency runtime (Package.swift).",
        "Peak RSS is ru_maxrss through `bench/yardstick/peak_rss.c`, a static launcher whose own",
        f"pages ({mib(true_peak)}: the /bin/true figure) are every figure's floor; raindctl's copy is measured",
        "as just written and again read back from disk (\"raindctl's memory\").",
        "",
        "When raind asked upstream during the idle run, seconds after its start (its debug log). Air",
        "quality and official alerts are enabled and their services cannot be reached here (no",
        "network but loopback): each retry is a step of the back-off, every place at once.",
        "",
    ] + schedule
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
