"""Helpers for the real-systemd tests: a transcript of every command, a system
manager in its own PID and mount namespace, a user manager in its own mount
namespace, and users made for the test.

The recipe (issue 10): the system manager gets tmpfs on /tmp, /var/tmp and
/run, and SYSTEMD_UNIT_PATH naming a directory that holds only the package's
units and empty stub targets. Never the default unit path: its
systemd-tmpfiles-setup would empty the host's real /tmp (the mounts are
private, the filesystem is not). Managers are stopped with SIGKILL.

What the managers must see (the unit directory, the user manager's XDG
directories, the package for the upgrade, the fake logind) lives in a
directory of its own under /var/lib, outside every tmpfs the namespaces
mount, wherever the checkout is: a clone under /tmp would otherwise put it
under the system manager's empty /tmp (issue 19).
"""
import json
import os
import pathlib
import select
import shlex
import signal
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The transcript and the managers' logs, which only the host reads: kept with the checkout.
WORK = ROOT / "build-package" / "systemd-test"
TRANSCRIPT = WORK / "transcript.txt"
# The system manager's namespace mounts an empty tmpfs over each of these
# (and the user manager's over /run/systemd, inside /run).
TMPFS_MOUNTS = ("/tmp", "/var/tmp", "/run")
# Where `managers_directory` makes the directory the managers work in.
MANAGERS_PARENT = pathlib.Path("/var/lib")
SYSTEMD = "/lib/systemd/systemd"
STUB_TARGETS = ("sysinit", "basic", "sockets", "shutdown", "network", "network-online", "multi-user",
                "default", "paths", "timers", "slices", "local-fs")
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def hidden_by(path, mounts=TMPFS_MOUNTS):
    """The mount in `mounts` that hides `path` inside the managers' namespaces, or None."""
    resolved = pathlib.Path(os.path.realpath(path))
    for mount in mounts:
        if resolved == pathlib.Path(mount) or pathlib.Path(mount) in resolved.parents:
            return mount
    return None


def managers_directory():
    """A new directory for the managers, outside every tmpfs they mount
    (whatever the checkout's place); the caller removes it."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="raind-systemd-test.", dir=MANAGERS_PARENT))
    assert hidden_by(directory) is None, f"{directory} would be hidden by the tmpfs on {hidden_by(directory)}"
    return directory


def note(text):
    """Adds a line to the transcript (and to pytest's captured output)."""
    print(text)
    with open(TRANSCRIPT, "a") as transcript:
        transcript.write(text + "\n")


def run(command, check=True, env=None, timeout=120, show=None, input=None):
    """Runs a command, writing it and its result to the transcript."""
    shown = show or " ".join(shlex.quote(str(part)) for part in command)
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=timeout,
                            env=env, input=input)
    note(f"$ {shown}")
    for line in (result.stdout + result.stderr).rstrip("\n").splitlines():
        note(f"  {line}")
    note(f"  [exit {result.returncode}]")
    if check and result.returncode != 0:
        raise AssertionError(f"{shown} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result


def wait_for(predicate, timeout=30.0, what="condition"):
    """Polls `predicate` until it is truthy; a deadline, never a fixed sleep."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def read_line(process, timeout=30.0):
    """The next line a process prints, or an error after `timeout` seconds."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    if not ready:
        raise AssertionError(f"no line from {process.args} within {timeout}s")
    return process.stdout.readline()


class SystemManager:
    """systemd --system in new PID, mount and UTS namespaces, with only raind's
    installed units (symlinked, so what runs is what the package installed)."""

    def __init__(self, unit_files, work):
        self.directory = work / "system-units"
        self.directory.mkdir(parents=True, exist_ok=True)
        for target in STUB_TARGETS:
            (self.directory / f"{target}.target").write_text(f"[Unit]\nDescription=stub {target}\n")
        for unit in unit_files:
            link = self.directory / pathlib.Path(unit).name
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(unit)
        boot = (
            "set -e; " + "".join(f"mount -t tmpfs tmpfs {mount}; " for mount in TMPFS_MOUNTS)
            + "mkdir -p /run/systemd/system; "
            # A booted system's mounts are shared; systemd sets up each unit's
            # credentials in a child mount namespace and relies on the mount
            # propagating back (to /run/credentials). unshare made everything
            # private, so share it again, inside this namespace only.
            "mount --make-rshared /; "
            # A container image's policy-rc.d ("start no service while the image
            # is built") would stop the maintainer scripts from restarting raind;
            # a booted Debian system has none. Masked in this namespace only.
            "if [ -e /usr/sbin/policy-rc.d ]; then mount --bind /dev/null /usr/sbin/policy-rc.d; fi; "
            f"exec env SYSTEMD_UNIT_PATH={shlex.quote(str(self.directory))} container=other "
            f"{SYSTEMD} --system --unit=raind.socket")
        command = ["unshare", "--pid", "--fork", "--mount", "--uts", "--mount-proc", "--propagation", "private",
                   "sh", "-c", boot]
        note(f"$ {' '.join(shlex.quote(c) for c in command)} &")
        self.log = open(WORK / "system-manager.log", "ab")
        self.unshare = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env={"PATH": PATH}, start_new_session=True)
        self.pid = None
        try:
            self.pid = wait_for(self._manager_pid, what="the system manager to start")
            wait_for(lambda: self.ctl("is-system-running", check=False, quiet=True).stdout.strip()
                     in ("running", "degraded"), what="the system manager to finish starting")
        except AssertionError:
            self.kill()
            raise
        note(f"  (system manager pid {self.pid})")

    def _manager_pid(self):
        try:
            children = pathlib.Path(f"/proc/{self.unshare.pid}/task/{self.unshare.pid}/children").read_text().split()
        except FileNotFoundError:
            raise AssertionError(f"unshare exited: {(WORK / 'system-manager.log').read_text()}")
        for child in children:
            if pathlib.Path(f"/proc/{child}/exe").resolve().name == "systemd":
                return int(child)
        return None

    def enter(self, *command):
        return ["nsenter", "-t", str(self.pid), "-m", "-p", "-u", "--", *command]

    def run(self, *command, check=True, timeout=120, input=None):
        """Runs a command inside the manager's namespaces (where /run/raind is)."""
        return run(self.enter(*command), check=check, timeout=timeout, input=input,
                   show="[ns] " + " ".join(shlex.quote(str(c)) for c in command))

    def ctl(self, *args, check=True, quiet=False):
        if quiet:
            return subprocess.run(self.enter("systemctl", *args), capture_output=True, text=True, timeout=60)
        return self.run("systemctl", *args, check=check)

    def show(self, unit, prop):
        return self.ctl("show", unit, "-p", prop, "--value", quiet=True).stdout.strip()

    def as_user(self, user, *command, check=True):
        """A command as `user` (with its groups), as a login shell would run it:
        no XDG_RUNTIME_DIR, so raindctl finds no user instance."""
        return self.run("setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups",
                        "env", "-i", f"PATH={PATH}", f"USER={user}", "HOME=/", *command, check=check)

    def processes(self, name):
        """Processes named `name` inside the namespace."""
        result = subprocess.run(self.enter("ps", "-C", name, "-o", "pid="), capture_output=True, text=True)
        return result.stdout.split()

    def kill(self):
        if self.unshare.poll() is None:
            # SIGKILL to the namespace's init takes every process in it along.
            note(f"$ kill -KILL {self.pid}   # the system manager")
            os.kill(self.pid or self.unshare.pid, signal.SIGKILL)
            self.unshare.wait(timeout=30)
        self.log.close()


class UserManager:
    """systemd --user in a new mount namespace with tmpfs on /run/systemd, and
    temporary XDG directories (and HOME), so nothing of root's own is used."""

    def __init__(self, work):
        self.base = work / "user"
        for name in ("run", "config", "state", "cache", "home"):
            (self.base / name).mkdir(parents=True, exist_ok=True)
        os.chmod(self.base / "run", 0o700)
        self.env = {
            "PATH": PATH, "HOME": str(self.base / "home"), "XDG_RUNTIME_DIR": str(self.base / "run"),
            "XDG_CONFIG_HOME": str(self.base / "config"), "XDG_STATE_HOME": str(self.base / "state"),
            "XDG_CACHE_HOME": str(self.base / "cache"),
        }
        boot = f"set -e; mount -t tmpfs tmpfs /run/systemd; mkdir /run/systemd/system; exec {SYSTEMD} --user"
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", boot]
        note(f"$ {' '.join(shlex.quote(c) for c in command)} &   # XDG_RUNTIME_DIR={self.env['XDG_RUNTIME_DIR']}")
        self.log = open(WORK / "user-manager.log", "ab")
        # unshare without --fork execs: the Popen's pid is the manager's.
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=self.env,
                                        start_new_session=True)
        try:
            wait_for(lambda: (self.base / "run" / "systemd" / "private").exists() or self._exited(),
                     what="the user manager's private socket")
            # Its SystemState, not is-system-running: that one answers "offline"
            # outside the manager's mount namespace (no /run/systemd/system here).
            wait_for(lambda: self.show("", "SystemState") in ("running", "degraded"),
                     what="the user manager to finish starting")
        except AssertionError:
            self.kill()
            raise
        note(f"  (user manager pid {self.process.pid})")

    def _exited(self):
        if self.process.poll() is not None:
            raise AssertionError(f"the user manager exited: {(WORK / 'user-manager.log').read_text()}")
        return False

    def run(self, *command, check=True):
        return run(command, check=check, env=self.env,
                   show="[user] " + " ".join(shlex.quote(str(c)) for c in command))

    def ctl(self, *args, check=True, quiet=False):
        if quiet:
            return subprocess.run(["systemctl", "--user", *args], capture_output=True, text=True, env=self.env,
                                  timeout=60)
        return self.run("systemctl", "--user", *args, check=check)

    def show(self, unit, prop):
        """A property of `unit`, or of the manager itself when `unit` is empty."""
        return self.ctl("show", *([unit] if unit else []), "-p", prop, "--value", quiet=True).stdout.strip()

    def kill(self):
        if self.process.poll() is None:
            note(f"$ kill -KILL {self.process.pid}   # the user manager")
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.log.close()


class ScratchUser:
    """An unprivileged user made for the test (no home), removed afterwards."""

    def __init__(self, name, groups=()):
        self.name = name
        subprocess.run(["userdel", name], capture_output=True)
        run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
             *(["--groups", ",".join(groups)] if groups else []), name])
        self.uid = int(subprocess.run(["id", "-u", name], capture_output=True, text=True, check=True).stdout)

    def remove(self):
        run(["userdel", self.name], check=False)


def json_of(result):
    return json.loads(result.stdout)
