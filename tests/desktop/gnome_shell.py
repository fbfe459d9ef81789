"""A headless GNOME Shell for the tests: its own session bus, a private
stand-in system bus (logind and the rest are absent, and the machine's stay
out), a keyfile settings backend that enables the extensions, and the shell
(`gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800`).
The test reads the shell's state with org.gnome.Shell.Eval and takes
screenshots with org.gnome.Shell.Screenshot, both open to it through the
test-driver extension next to this file (unsafe mode)."""
import ast
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess

from raindtest import wait_for

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
UUID = "raind@raind.github.io"
DRIVER_UUID = "test-driver@raind.github.io"
INDICATOR = "Main.panel.statusArea['raind']"


def available():
    """Why a headless GNOME Shell cannot run here, or None when it can."""
    for program in ("gnome-shell", "dbus-daemon", "gdbus"):
        if not shutil.which(program):
            return f"needs {program} (Debian packages gnome-shell, dbus-daemon, libglib2.0-bin)"
    return None


def install_extension(data_home, locale_dir=None):
    """The extension's files as ./scripts/package installs them, under data_home."""
    target = pathlib.Path(data_home) / "gnome-shell" / "extensions" / UUID
    target.mkdir(parents=True, exist_ok=True)
    for name in sorted(os.listdir(ROOT / "extensions" / "gnome")):
        if name.endswith((".js", ".json", ".css")):
            shutil.copy2(ROOT / "extensions" / "gnome" / name, target / name)
    shutil.copytree(HERE / DRIVER_UUID, pathlib.Path(data_home) / "gnome-shell" / "extensions" / DRIVER_UUID,
                    dirs_exist_ok=True)
    return target


def compile_catalogues(target):
    """raind's catalogues compiled into target/LL/LC_MESSAGES/raind.mo."""
    for catalogue in sorted((ROOT / "po").glob("*.po")):
        directory = pathlib.Path(target) / catalogue.stem / "LC_MESSAGES"
        directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(["msgfmt", "--check", "-o", str(directory / "raind.mo"), str(catalogue)], check=True)
    return str(target)


class GnomeShell:
    def __init__(self, base, env=None, extensions=(UUID, DRIVER_UUID), size="1280x800"):
        self.base = pathlib.Path(base)
        self.home = self.base / "home"
        self.runtime = self.base / "xdg-run"
        for directory in (self.home, self.runtime):
            directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.runtime, 0o700)
        self.data_home = self.home / ".local" / "share"
        self.config_home = self.home / ".config"
        self.log_path = self.base / "gnome-shell.log"
        settings = self.config_home / "glib-2.0" / "settings"
        settings.mkdir(parents=True, exist_ok=True)
        enabled = ", ".join(f"'{uuid}'" for uuid in extensions)
        (settings / "keyfile").write_text(
            "[org/gnome/shell]\n"
            f"enabled-extensions=[{enabled}]\n"
            "disable-user-extensions=false\n"
            "welcome-dialog-last-shown-version='999'\n"
            "[org/gnome/desktop/interface]\n"
            "enable-animations=false\n")
        self.system_bus = self._bus("system")
        self.session_bus = self._bus("session")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "XDG_DATA_HOME": str(self.data_home),
            "XDG_CONFIG_HOME": str(self.config_home),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_SESSION_TYPE": "wayland",
            "XDG_CURRENT_DESKTOP": "GNOME",
            "GSETTINGS_BACKEND": "keyfile",
            "DBUS_SESSION_BUS_ADDRESS": self.session_bus[1],
            "DBUS_SYSTEM_BUS_ADDRESS": self.system_bus[1],
            "LANG": "C.UTF-8",
            "LANGUAGE": "",
            "LC_ALL": "",
            "TZ": "UTC",
            "NO_AT_BRIDGE": "1",
            "GTK_A11Y": "none",
        }
        self.env.update(env or {})
        self.size = size
        self.process = None

    def _bus(self, kind):
        config = "/usr/share/dbus-1/session.conf"
        process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1",
                                    f"--address=unix:dir={self.base}"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        address = process.stdout.readline().strip()
        assert address, f"the {kind} bus did not start"
        return process, address

    def start(self, timeout=60):
        self._launch()
        self.wait_for(lambda: self.eval("Main.layoutManager._startingUp === false && "
                                        f"!!{INDICATOR}") is True, timeout=timeout, what="GNOME Shell with raind's button")
        self.eval("Main.overview.hide(); true")
        return self

    def start_without_indicator(self, timeout=60):
        """The shell started, raind's extension not enabled (for measuring what it adds)."""
        self._launch()
        self.wait_for(lambda: self.eval("Main.layoutManager._startingUp === false") is True, timeout=timeout,
                      what="GNOME Shell")
        self.eval("Main.overview.hide(); true")
        return self

    def _launch(self):
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            ["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", self.size],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def gdbus(self, *args, timeout=20):
        command = ["gdbus", "call", "--address", self.session_bus[1], "--dest", "org.gnome.Shell", *args]
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=self.env)
        except subprocess.TimeoutExpired:
            # A shell too busy to answer in time (a loaded machine): as if it had not answered yet.
            return subprocess.CompletedProcess(command, 124, "", "gdbus timed out")

    def eval(self, script):
        """The JSON-able value of `script` evaluated in the shell, or None when the shell cannot answer yet."""
        if self.process and self.process.poll() is not None:
            raise AssertionError(f"gnome-shell exited with {self.process.returncode}: {self.read_log()[-3000:]}")
        result = self.gdbus("--object-path", "/org/gnome/Shell", "--method", "org.gnome.Shell.Eval", script)
        if result.returncode != 0:
            return None
        # GVariant text: (true, 'value') or (false, '')
        match = re.fullmatch(r"\((true|false), (.*)\)", result.stdout.strip(), re.S)
        if not match or match.group(1) != "true":
            return None
        value = ast.literal_eval(match.group(2))
        return json.loads(value) if value else None

    def indicator(self):
        """What raind's button shows: its label, state, and the menu's view."""
        return self.eval(f"(() => {{ const i = {INDICATOR}; return i ? {{label: i._label.text, state: i.view && i.view.state, "
                         f"lastDraw: i.lastDraw, view: i.view}} : null; }})()")

    def wait_for(self, predicate, timeout=20, what="a condition"):
        """raindtest.wait_for, with the shell's log when it times out."""
        try:
            return wait_for(predicate, timeout=timeout, interval=0.05, what=what)
        except AssertionError as error:
            raise AssertionError(f"{error}; log: {self.read_log()[-2000:]}") from None

    def wait_label(self, predicate, timeout=20, what="a label"):
        seen = []

        def check():
            shown = self.indicator()
            if shown and (not seen or seen[-1] != shown["label"]):
                seen.append(shown["label"])
            return shown if shown and predicate(shown) else None
        try:
            return self.wait_for(check, timeout=timeout, what=what)
        except AssertionError as error:
            raise AssertionError(f"{error}\nlabels seen: {seen}") from None

    def screenshot(self, path, menu=False):
        """The top of the screen (the panel, and with menu=True the open menu) written to path as PNG."""
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if menu:
            self.eval(f"{INDICATOR}.menu.open(false); true")
            self.wait_for(lambda: self.eval(f"{INDICATOR}.menu.isOpen && {INDICATOR}.menu.actor.visible"), what="the menu")
        area = self.eval("(() => { const i = %s; const [x] = i.get_transformed_position(); "
                         "const m = i.menu.actor; const [mx, my] = m.get_transformed_position(); "
                         "return [Math.round(x), Math.round(mx), Math.round(my + m.height), Math.round(m.width)]; })()"
                         % INDICATOR)
        x, menu_x, menu_bottom, menu_width = area
        if menu:
            left = max(0, min(x, menu_x) - 8)
            width = min(1280 - left, max(menu_width, 400) + 16)
            height = min(800, menu_bottom + 8)
        else:
            left, width, height = max(0, min(x - 300, 1280 - 600)), 600, 32
        if path.exists():
            path.unlink()
        result = self.gdbus("--object-path", "/org/gnome/Shell/Screenshot", "--method",
                            "org.gnome.Shell.Screenshot.ScreenshotArea", str(left), "0", str(width), str(height),
                            "false", str(path))
        if menu:
            self.eval(f"{INDICATOR}.menu.close(false); true")
        assert result.returncode == 0 and "true" in result.stdout, result
        self.wait_for(lambda: path.exists() and path.stat().st_size > 0, what=f"the screenshot {path}")
        return path

    def read_log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        for process, _ in (self.session_bus, self.system_bus):
            process.terminate()
            process.wait()
        if getattr(self, "log", None):
            self.log.close()
