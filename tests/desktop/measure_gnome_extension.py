#!/usr/bin/env python3
"""Measures what raind's GNOME Shell extension costs (docs/DESKTOP.md): the
memory it adds to gnome-shell (Pss from /proc/PID/smaps_rollup after a
garbage collection, with the extension disabled and then enabled and its
menu opened once) and the time from reading a WeatherUpdated event to the
label set (the extension's own lastDraw, monotonic µs), over N refreshes.
Not a test: figures depend on the machine and its load.

    RAIND_BIN_DIR=.build/debug python3 tests/desktop/measure_gnome_extension.py [N]
"""
import pathlib
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "integration"))
from gnome_shell import DRIVER_UUID, UUID, GnomeShell, INDICATOR, install_extension  # noqa: E402
from raindtest import Daemon, FixtureServer  # noqa: E402


def pss_kib(pid):
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith("Pss:"):
            return int(line.split()[1])
    raise RuntimeError("no Pss")


def settled_pss(shell):
    # Collected twice, a round of the shell's main loop between (finalizers run there).
    shell.eval("imports.system.gc(); true")
    shell.eval("true")
    shell.eval("imports.system.gc(); true")
    return pss_kib(shell.process.pid)


def daemon_ctl(daemon):
    from raindtest import RAINDCTL
    return [RAINDCTL, "--socket", str(daemon.socket)]


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    base = pathlib.Path(tempfile.mkdtemp(prefix="raind-measure-"))
    server = FixtureServer(routes=[("/v1/forecast", "openmeteo-forecast-paris-unixtime.json")])
    daemon = Daemon(base / "raind", config=f"[Provider]\nName=open-meteo\nBaseURL={server.url}\n").start()
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
    install_extension(base / "shell" / "home" / ".local" / "share")
    shell = GnomeShell(base / "shell", env={"RAIND_SOCKET": str(daemon.socket)}, extensions=(DRIVER_UUID,))
    try:
        shell.start_without_indicator()
        without = settled_pss(shell)
        shell.eval(f"Main.extensionManager.enableExtension('{UUID}'); true")
        shell.wait_label(lambda s: "°" in s["label"], what="the temperature")
        shell.eval(f"{INDICATOR}.menu.open(false); {INDICATOR}.menu.close(false); true")
        with_extension = settled_pss(shell)
        print(f"gnome-shell Pss: {without} KiB without, {with_extension} KiB with the extension "
              f"(+{with_extension - without} KiB)")
        delays = []
        for index in range(count):
            place = ("london-gb", "paris-fr")[index % 2]
            daemon.ctl("set-location", place, check=True)
            shown = shell.wait_label(lambda s: s["label"].startswith(("London", "Paris")[index % 2]), what=place)
            draw = shown["lastDraw"]
            delays.append((draw["labelled"] - draw["received"]) / 1000)
        print(f"event read → label set over {count} LocationSelected events: median {statistics.median(delays):.1f} ms, "
              f"max {max(delays):.1f} ms")
        # WeatherUpdated for the selected place: a new place selected while its fetch is held, then released.
        updated = []
        for index, (coords, name) in enumerate((("40.4165,-3.7026", "Madrid"), ("41.8919,12.5113", "Rome"),
                                                ("52.5244,13.4105", "Berlin"), ("59.9127,10.7461", "Oslo"),
                                                ("38.7167,-9.1333", "Lisbon"))):
            server.script(path_prefix="/v1/forecast", mode="hold", gate=name, count=1)
            adding = subprocess.Popen([*daemon_ctl(daemon), "add", "--coords", coords, "--name", name], env=daemon.env)
            shell.wait_for(lambda: server.held(name) == 1, what="the held fetch")
            place = f"{name.lower()}-" + {"Madrid": "es", "Rome": "it", "Berlin": "de", "Oslo": "no", "Lisbon": "pt"}[name]
            daemon.ctl("set-location", place, check=True)
            shell.wait_label(lambda s: s["label"].startswith(name), what=name)
            server.release(name)
            adding.wait(timeout=30)
            shown = shell.wait_label(lambda s: s["label"].startswith(name) and "°" in s["label"] and
                                     s["lastDraw"]["cause"] == "WeatherUpdated", what=f"{name}'s weather")
            draw = shown["lastDraw"]
            updated.append((draw["labelled"] - draw["received"]) / 1000)
        print(f"WeatherUpdated read → label set over {len(updated)} events: median {statistics.median(updated):.1f} ms, "
              f"max {max(updated):.1f} ms")
    finally:
        shell.stop()
        daemon.stop()
        server.stop()


if __name__ == "__main__":
    main()
