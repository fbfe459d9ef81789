"""Helpers for the Plasma applet's tests: building desktop/plasma with CMake,
a private X server (Xvfb), plasmoidviewer showing the applet and reading
what it traces (RAIND_APPLET_TRACE=1), and servers that misbehave on a
Unix socket where raind's would be."""
import json
import os
import pathlib
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from raindtest import Varlink, wait_for  # noqa: E402

SOURCE = ROOT / "desktop" / "plasma"
BUILD = ROOT / "build-plasma"
PACKAGE = SOURCE / "package"
# Where the tests write screenshots (named in the report of a run).
SHOTS = BUILD / "screenshots"
TOOLS = ("cmake", "plasmoidviewer", "Xvfb", "import", "msgfmt", "xdotool")


def missing_tools():
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def build():
    """Configures (once) and builds the plugin and its unit test; returns the build directory."""
    if not (BUILD / "CMakeCache.txt").exists():
        subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(BUILD), "-DBUILD_TESTING=ON",
                        "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True, capture_output=True)
    result = subprocess.run(["cmake", "--build", str(BUILD), "-j2"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return BUILD


def catalogues(directory):
    """raind's catalogues compiled where KDE's i18nd looks for them
    (XDG_DATA_DIRS/locale/LL/LC_MESSAGES/raind.mo); returns the data directory."""
    for po in (ROOT / "po").glob("*.po"):
        target = directory / "locale" / po.stem / "LC_MESSAGES"
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(["msgfmt", "-o", str(target / "raind.mo"), str(po)], check=True)
    return directory


class Xvfb:
    def __init__(self, size="1024x768"):
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", size + "x24",
                                         "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number, "Xvfb did not start"
        self.display = ":" + number

    def screenshot(self, path, crop=None):
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["import", "-display", self.display, "-window", "root", str(path)], check=True)
        if crop:
            subprocess.run(["convert", str(path), "-crop", crop, "+repage", str(path)], check=True)
        return path

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Viewer:
    """plasmoidviewer with the applet from the source tree and the plugin
    from the build tree. `panel`: in a panel (the compact representation);
    else on a desktop, large enough for the full one."""

    def __init__(self, xvfb, home, socket_path, panel=True, env=None, applet=PACKAGE, imports=BUILD / "qml"):
        home.mkdir(parents=True, exist_ok=True)
        runtime = home / "runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "DISPLAY": xvfb.display,
            "XDG_RUNTIME_DIR": str(runtime),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_DATA_HOME": str(home / "data"),
            "RAIND_SOCKET": str(socket_path),
            "RAIND_APPLET_TRACE": "1",
            "LANG": "en_GB.UTF-8",
            "LC_ALL": "",
            "TZ": "UTC",
            "QT_QUICK_BACKEND": "software",
        }
        # A session bus of its own (plasmoidviewer registers a name on it).
        # No service directories: nothing is started on demand (KDE's activity
        # manager, kglobalaccel), which would outlive the test.
        bus_config = home / "session-bus.conf"
        bus_config.write_text(
            '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" '
            '"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
            f'<busconfig><type>session</type><listen>unix:dir={runtime}</listen><auth>EXTERNAL</auth>'
            '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>'
            '<allow own="*"/></policy></busconfig>\n')
        self.bus = subprocess.Popen(["dbus-daemon", f"--config-file={bus_config}", "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=self.env)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.stdout.readline().strip()
        if imports:
            self.env["QML2_IMPORT_PATH"] = str(imports)
        self.env.update(env or {})
        self.applet = str(applet)
        args = ["plasmoidviewer", "-a", self.applet]
        if panel:
            args += ["-c", "org.kde.panel", "-f", "horizontal", "-l", "topedge", "-s", "1024x48", "-t", "breeze-dark"]
        else:
            args += ["-f", "planar", "-s", "1024x768"]
        self.log_path = home / "plasmoidviewer.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, errors="replace")
        self.lines = []
        self.queue = queue.Queue()
        self.shown = {}

        def pump():
            for line in self.process.stdout:
                self.log.write(line)
                self.log.flush()
                self.lines.append(line.rstrip("\n"))
                self.queue.put(line.rstrip("\n"))
        threading.Thread(target=pump, daemon=True).start()

    TRACE = re.compile(r"raind-applet (\w+): (.*)")

    def until(self, what, predicate, timeout=20):
        """Waits for a trace line of `what` (compact, place, full, problem,
        redrawn) whose text satisfies `predicate`; returns the text. Checks
        the latest shown first, so a state already reached counts."""
        if what in self.shown and predicate(self.shown[what]):
            return self.shown[what]
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {what} line as wanted within {timeout}s; saw {seen[-8:]} "
                                     f"(log: {self.log_path})")
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            match = self.TRACE.search(line)
            if not match:
                continue
            # Multi-line texts are traced with their line breaks; the first line names them.
            self.shown[match.group(1)] = match.group(2)
            if match.group(1) == what:
                seen.append(match.group(2))
                if predicate(match.group(2)):
                    return match.group(2)

    def drawn(self, timeout=10):
        """Waits until what the applet shows now is on screen: a frame was
        drawn after its last change (for a screenshot)."""
        def settled():
            traces = [line for line in list(self.lines) if "raind-applet " in line]
            return traces and "raind-applet redrawn:" in traces[-1]
        wait_for(settled, timeout=timeout, what=f"the applet's next frame (log: {self.log_path})")

    def exceptions(self):
        """Lines where QML reported an error in the applet's files."""
        return [line for line in self.lines if (str(PACKAGE) in line or "io.raind.weather" in line)
                and re.search(r"Error|TypeError|ReferenceError|is not defined|Cannot read property|Binding loop", line)]

    def memory_kib(self):
        """The viewer's proportional set size (PSS), from /proc/PID/smaps_rollup."""
        for line in open(f"/proc/{self.process.pid}/smaps_rollup"):
            if line.startswith("Pss:"):
                return int(line.split()[1])
        return 0

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.bus.terminate()
        self.bus.wait()
        self.log.close()


class HostileServer:
    """A Unix socket where raind's would be that misbehaves as `mode` says,
    for each connection made while that mode holds: garbage (a reply that is
    not JSON), huge (9 MiB without an end), silent (accepts, never answers),
    alert (relays the real raind at `relay`, with a hostile alert added to
    the forecast of every Subscribe reply)."""

    def __init__(self, path, relay=None):
        self.path = str(path)
        self.relay = relay
        self.mode = "garbage"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(16)
        self.held = []
        self.running = True
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(client)
            threading.Thread(target=self.serve, args=(client, self.mode), daemon=True).start()

    def serve(self, client, mode):
        try:
            client.recv(65536)
            if mode == "garbage":
                client.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>\xff\xfe</html>\0")
            elif mode == "huge":
                client.sendall(b'{"parameters":{"event":"' + b"x" * (9 << 20))
            elif mode == "alert":
                upstream = Varlink(self.relay, timeout=None)
                upstream.send("io.raind.Weather.Subscribe", more=True)
                while True:
                    reply = upstream.receive()
                    forecast = reply.get("parameters", {}).get("forecast")
                    if forecast:
                        forecast["alerts"] = [{
                            "title": "<b>Storm</b> <a href='x'>warning</a>\x1b[31m\u202eecalp\x07",
                            "severity": "Severe", "regions": ["Paris"], "start": time.time() - 600,
                            "end": time.time() + 7200, "description": "", "uri": ""}]
                    client.sendall(json.dumps(reply).encode() + b"\0")
            # silent: holds the connection open and says nothing.
        except OSError:
            pass

    def stop(self):
        self.running = False
        self.listener.close()
        for client in self.held:
            client.close()
        os.unlink(self.path)
