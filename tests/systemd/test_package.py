"""The Debian package on a real systemd (issue 10): built, installed with
dpkg -i, the system instance driven by a system manager and the user instance
by a user manager, upgraded in place, purged. Every command and its output
goes to build-package/systemd-test/transcript.txt."""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from raindtest import FixtureServer
from sdtest import (TMPFS_MOUNTS, SystemManager, ScratchUser, UserManager, hidden_by, json_of, note, read_line, run,
                    wait_for)

SOCKET = "/run/raind/raind.sock"
DROP_IN = pathlib.Path("/etc/raind/raind.conf.d/50-test.conf")
CREDSTORE = pathlib.Path("/etc/credstore")
API_KEY = "test-key-2f6c"


@pytest.fixture(scope="module")
def fixture_server():
    server = FixtureServer(routes=[
        ("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"),
        ("/forecast/", "pirateweather-forecast-boston-si.json"),
    ])
    yield server
    server.stop()


@pytest.fixture(scope="module")
def configured(installed, fixture_server):
    """The installed package pointed at the loopback fixture server: no test
    traffic leaves the machine. An admin's drop-in, which purge must keep."""
    DROP_IN.parent.mkdir(exist_ok=True)
    DROP_IN.write_text(f"[Provider]\nBaseURL={fixture_server.url}\nTimeoutSec=5\n\n[Places]\nOnlineGeocoder=no\n")
    note(f"# {DROP_IN}: BaseURL={fixture_server.url}, OnlineGeocoder=no")
    yield installed
    DROP_IN.unlink(missing_ok=True)
    if DROP_IN.parent.exists() and not any(DROP_IN.parent.iterdir()):
        DROP_IN.parent.rmdir()
    if pathlib.Path("/etc/raind").exists() and not any(pathlib.Path("/etc/raind").iterdir()):
        pathlib.Path("/etc/raind").rmdir()


@pytest.fixture(scope="module")
def users():
    reader = ScratchUser("raindtest-reader")
    member = ScratchUser("raindtest-member", groups=("raind",))
    yield reader, member
    reader.remove()
    member.remove()


@pytest.fixture(scope="module")
def system_manager(configured, managers_work):
    units = [line for line in run(["dpkg", "-L", "raind"]).stdout.splitlines()
             if re.fullmatch(r"/lib/systemd/system/raind\.(socket|service)", line)]
    assert len(units) == 2, units
    manager = SystemManager(units, managers_work)
    # What runs inside the namespace must be where it can see it: not in a
    # checkout (or a $RAIND_DEB) under /tmp.
    manager.deb = managers_work / pathlib.Path(configured).name
    shutil.copyfile(configured, manager.deb)
    manager.fake_logind = managers_work / "fake_logind.py"
    fakes = pathlib.Path(__file__).resolve().parents[1] / "fakes"
    shutil.copyfile(fakes / "fake_logind.py", manager.fake_logind)
    # The fake imports the fakes' shared loop from its own folder.
    shutil.copyfile(fakes / "fakebus.py", managers_work / "fakebus.py")
    yield manager
    manager.kill()


def installed_files():
    return run(["dpkg", "-L", "raind"]).stdout.splitlines()


def test_package_contents(installed):
    files = set(installed_files())
    for path in ("/usr/bin/raind", "/usr/bin/raindctl", "/usr/share/raind/places.bin",
                 "/lib/systemd/system/raind.service", "/lib/systemd/system/raind.socket",
                 "/lib/systemd/user/raind.service", "/lib/systemd/user/raind.socket",
                 "/usr/lib/sysusers.d/raind.conf", "/etc/raind/raind.conf",
                 "/usr/share/man/man8/raind.8.gz", "/usr/share/man/man1/raindctl.1.gz",
                 "/usr/share/man/man5/raind.conf.5.gz", "/usr/share/bash-completion/completions/raindctl",
                 "/usr/share/zsh/vendor-completions/_raindctl", "/usr/share/fish/vendor_completions.d/raindctl.fish",
                 "/usr/share/doc/raind/copyright", "/usr/share/doc/raind/SYSTEMD.md",
                 "/usr/share/locale/de/LC_MESSAGES/raind.mo", "/usr/share/locale/pl/LC_MESSAGES/raind.mo"):
        assert path in files, f"{path} is not in the package"
    copyright = pathlib.Path("/usr/share/doc/raind/copyright").read_text()
    assert "License: Apache-2.0" in copyright and "GeoNames" in copyright and "Open-Meteo" in copyright
    run(["dpkg-deb", "--info", installed])
    run(["dpkg-query", "-W", "-f=${Installed-Size} KiB installed\n", "raind"])
    run(["ls", "-l", "/usr/bin/raind", "/usr/bin/raindctl"])


def test_installed_binaries_need_no_swift_toolchain_and_carry_no_build_path(installed):
    libraries = run(["ldd", "/usr/bin/raind"]).stdout
    assert "libswift" not in libraries and "not found" not in libraries, libraries
    # libcurl is opened at the first request, not linked: the package must name it itself.
    assert "libcurl" not in libraries, libraries
    # libstdc++ is linked in, so the loader binds none of its symbols at start (docs/DECISIONS.md).
    assert "libstdc++" not in libraries, libraries
    depends = run(["dpkg-query", "-W", "-f=${Depends}", "raind"]).stdout
    assert "libcurl4 (>= 7.85.0)" in depends, depends
    for binary in ("raind", "raindctl"):
        # A bare environment: no LD_LIBRARY_PATH, no toolchain on PATH.
        result = run(["env", "-i", f"/usr/bin/{binary}", "--version"])
        assert result.stdout.strip() == f"{binary} " + result.stdout.split()[-1]
        strings = subprocess.run(["strings", f"/usr/bin/{binary}"], capture_output=True, text=True).stdout
        root = str(pathlib.Path(__file__).resolve().parents[2])
        assert root not in strings, f"{binary} holds the build path {root}"
    # Every key of the configuration is in the example, and the example is valid.
    result = run(["/usr/bin/raind", "--system", "--check-config"], check=False)
    assert result.returncode == 0, result.stderr


def test_example_configuration_lists_every_key(installed):
    example = pathlib.Path("/etc/raind/raind.conf").read_text()
    manual = subprocess.run(["man", "-P", "cat", "-l", "/usr/share/man/man5/raind.conf.5.gz"], capture_output=True,
                            text=True, env={**os.environ, "MANWIDTH": "200"}).stdout
    # Each key is declared as Key(section:name:...), .flag(section:name:...) or
    # .number(section:name:...), its arguments wrapped over lines as swift format lays them out.
    source = (pathlib.Path(__file__).resolve().parents[2] / "Sources/RainDaemonCore/Config/Configuration.swift").read_text()
    keys = re.findall(r'(?:Key|\.flag|\.number)\(\s*section: "(\w+)",\s*name: "(\w+)"', source)
    # A key declared some other way would be missed: every section: is one of these.
    assert len(keys) == source.count('section: "') and len(keys) >= 12, keys
    for section, key in keys:
        assert f"#{key}=" in example, f"[{section}] {key}= is missing from the example raind.conf"
        assert f"{key}=" in manual, f"[{section}] {key}= is missing from raind.conf(5)"


@pytest.mark.skipif(shutil.which("lintian") is None, reason="lintian is not installed (apt-get install lintian)")
def test_lintian_reports_no_error(installed):
    result = run(["lintian", "--pedantic", installed], check=False)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EWIPX]: ", line)]
    errors = [line for line in tags if line.startswith("E: ")]
    warnings = [line for line in tags if line.startswith("W: ")]
    assert not errors, errors
    # Each remaining warning is justified in packaging/README.md.
    justified = ("initial-upload-closes-no-bugs",)
    assert all(any(tag in w for tag in justified) for w in warnings), warnings


def test_exposure_of_the_installed_system_unit(installed):
    result = run(["systemd-analyze", "security", "--offline=yes", "/lib/systemd/system/raind.service"], check=False)
    score = float(re.search(r"Overall exposure level for raind.service: ([0-9.]+)", result.stdout).group(1))
    note(f"# exposure {score}")
    assert score <= 1.5


def test_managers_work_outside_the_tmpfs_they_mount(system_manager, managers_work):
    """Whatever the checkout's place, the managers' directory is none the
    namespaces hide, and the system manager sees it: a clone under /tmp
    used to leave it an empty unit directory (issue 19)."""
    for path in ("/tmp/raind-clone/build-package/systemd-test", "/var/tmp/x", "/run/x", "/tmp"):
        assert hidden_by(path) is not None, path
    for path in ("/tmpfoo/x", "/var/lib/x", "/work/raind"):
        assert hidden_by(path) is None, path
    assert hidden_by(managers_work) is None, f"{managers_work} is under a tmpfs of {TMPFS_MOUNTS}"
    m = system_manager
    for path in (m.directory / "raind.service", m.deb, m.fake_logind):
        m.run("test", "-e", str(path))
    for mount in TMPFS_MOUNTS:
        assert m.run("stat", "-f", "-c", "%T", mount).stdout.strip() == "tmpfs", mount


def test_system_instance(system_manager, fixture_server, users):
    m = system_manager
    reader, member = users
    mode = m.run("stat", "-c", "%a %U:%G", SOCKET).stdout.split()
    assert mode[0] == "666", mode

    m.ctl("start", "raind")
    first_pid = m.show("raind", "MainPID")
    assert m.show("raind", "ActiveState") == "active"
    assert m.run("raindctl", "status").returncode == 0
    added = json_of(m.run("raindctl", "add", "Paris", "--json"))
    assert added["location"]["id"] == "paris-fr", added
    m.run("raindctl", "refresh")
    assert fixture_server.count("/v1/forecast") >= 1, "the hardened unit reached the (loopback) provider"
    m.run("raindctl", "set-location", "paris-fr")
    assert "paris-fr" in m.run("raindctl", "list").stdout
    now = m.run("raindctl", "now").stdout
    assert "Paris" in now

    # A subscriber (root) that must live through a reload.
    subscriber = subprocess.Popen(m.enter("raindctl", "subscribe", "--json", "--events", "LocationAdded"),
                                  stdout=subprocess.PIPE, text=True)
    try:
        snapshot = json.loads(read_line(subscriber))
        note(f"  (subscriber) {snapshot['event']} with {len(snapshot['locations'])} place(s)")
        assert snapshot["event"] == "Snapshot" and [p["id"] for p in snapshot["locations"]] == ["paris-fr"]

        # Everyone may read, through the system socket (no user instance exists for them).
        for command in (("status",), ("list",), ("now",), ("search", "Lyon"), ("daily",)):
            result = m.as_user(reader.name, "raindctl", *command)
            assert result.returncode == 0, result.stderr
        reader_subscriber = m.as_user(reader.name, "timeout", "--preserve-status", "--signal=TERM", "10",
                                      "raindctl", "subscribe", "--json", "--events", "SettingsChanged", check=False)
        assert '"event":"Snapshot"' in reader_subscriber.stdout.replace(" ", ""), reader_subscriber.stdout
        # ...but not change anything.
        refused = m.as_user(reader.name, "raindctl", "add", "London", check=False)
        assert refused.returncode == 1
        assert "may read but not change" in refused.stderr and "usermod -aG raind" in refused.stderr, refused.stderr
        # A member of group raind may.
        m.as_user(member.name, "raindctl", "add", "London")
        event = json.loads(read_line(subscriber))
        assert event["event"] == "LocationAdded" and event["location"]["id"] == "london-gb", event

        # Reload: same process, places and subscriber kept.
        m.ctl("reload", "raind")
        wait_for(lambda: "Reloading" not in m.show("raind", "StatusText"), what="the reload to finish")
        assert m.show("raind", "MainPID") == first_pid
        m.run("raindctl", "add", "Berlin")
        event = json.loads(read_line(subscriber))
        assert event["event"] == "LocationAdded" and event["location"]["id"] == "berlin-de", event
    finally:
        subscriber.terminate()
        subscriber.wait()

    expected = EXPECTED_PLACES
    assert place_ids(m) == expected

    # Restart: a new process, the places kept.
    m.ctl("restart", "raind")
    assert m.show("raind", "MainPID") not in ("0", first_pid)
    assert place_ids(m) == expected

    # SIGKILL: Restart=on-failure brings it back (after RestartSec=), places intact.
    killed = m.show("raind", "MainPID")
    m.run("kill", "-KILL", killed)
    wait_for(lambda: m.show("raind", "NRestarts") == "1" and m.show("raind", "ActiveState") == "active",
             what="systemd to restart raind after SIGKILL")
    assert m.show("raind", "MainPID") not in ("0", killed)
    m.ctl("status", "raind", "--no-pager", check=False)
    assert place_ids(m) == expected



EXPECTED_PLACES = ["berlin-de", "london-gb", "paris-fr"]


def place_ids(m):
    return sorted(p["id"] for p in json_of(m.run("raindctl", "list", "--json"))["locations"])


def test_system_instance_gets_its_credential(system_manager, fixture_server):
    """A Pirate Weather key in /etc/credstore reaches raind through
    LoadCredential= under the hardened unit. Runs after test_system_instance."""
    m = system_manager
    probe = m.directory / "raindtest-credential-probe.service"
    seen = m.directory.parent / "credential-probe.out"
    probe.write_text("[Service]\nType=oneshot\nLoadCredential=probe:/etc/hostname\n"
                     f"ExecStart=/bin/sh -c 'ls $CREDENTIALS_DIRECTORY > {seen}'\n")
    try:
        m.ctl("daemon-reload")
        m.ctl("start", probe.name)
        # A minimal unit first: if it gets nothing, the manager's namespace is
        # at fault (sdtest.SystemManager shares its mounts for this), not raind's unit.
        assert seen.exists() and "probe" in seen.read_text(), (
            "this systemd passes no credential even to a minimal unit "
            "(LoadCredential=probe:/etc/hostname gives an empty $CREDENTIALS_DIRECTORY)")
    finally:
        probe.unlink()
        m.ctl("daemon-reload")
    # The credential: a Pirate Weather key in /etc/credstore reaches raind
    # through LoadCredential= under the hardened unit.
    made_credstore = not CREDSTORE.exists()
    CREDSTORE.mkdir(mode=0o700, exist_ok=True)
    key_file = CREDSTORE / "raind.api-key"
    key_file.write_text(API_KEY + "\n")
    os.chmod(key_file, 0o600)
    pirate = DROP_IN.parent / "60-test-pirateweather.conf"
    pirate.write_text("[Provider]\nName=pirateweather\n")
    try:
        m.ctl("restart", "raind")
        m.run("raindctl", "refresh")
        paths = fixture_server.stats()["paths"]
        assert any(path.startswith(f"/forecast/{API_KEY}/") for path in paths), paths
        note(f"# the fixture server saw /forecast/{API_KEY}/...: the credential reached raind")
    finally:
        pirate.unlink()
        key_file.unlink()
        if made_credstore:
            CREDSTORE.rmdir()
    m.ctl("restart", "raind")
    assert place_ids(m) == EXPECTED_PLACES


def test_system_instance_reaches_the_system_bus(system_manager):
    """With a system bus (a dbus-daemon --system in the namespace, and a fake
    logind on it), the hardened raind connects and watches logind."""
    m = system_manager
    fake_logind = m.fake_logind
    if subprocess.run(["/usr/bin/python3", "-c", "import dbus, gi"], capture_output=True).returncode != 0:
        pytest.skip("python3-dbus and python3-gi are not installed (the fake logind needs them)")
    m.run("mkdir", "-p", "/run/dbus")
    bus = subprocess.Popen(m.enter("dbus-daemon", "--system", "--nofork", "--nopidfile", "--print-address"),
                           stdout=subprocess.PIPE, text=True)
    logind = None
    try:
        address = read_line(bus).strip()
        note(f"  (system bus at {address})")
        logind = subprocess.Popen(m.enter("env", f"DBUS_SYSTEM_BUS_ADDRESS={address}", "/usr/bin/python3",
                                          str(fake_logind)),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert read_line(logind).strip() == "ready"
        m.ctl("restart", "raind")
        pid = m.show("raind", "MainPID")

        def raind_on_the_bus():
            listing = m.run("busctl", "--system", "list", "--no-pager", "--no-legend", "--unique", check=False)
            return any(line.split()[1:2] == [pid] for line in listing.stdout.splitlines())

        wait_for(raind_on_the_bus, what="raind's connection on the system bus")
        logind.stdin.write("sleep false\n")
        logind.stdin.flush()
        assert read_line(logind).strip() == "ok sleep false"
        assert m.show("raind", "ActiveState") == "active"
        assert place_ids(m) == EXPECTED_PLACES
    finally:
        for process in (logind, bus):
            if process:
                process.kill()
                process.wait()


def test_upgrade_restarts_raind_keeping_places_and_clients_reconnect(system_manager):
    m = system_manager
    expected = EXPECTED_PLACES
    # Upgrade in place (dpkg -i of the package again, inside the namespace so
    # the maintainer scripts see this systemd): raind restarts with its places,
    # and a subscriber reconnects to the socket, which never went away.
    before = m.show("raind", "MainPID")
    subscriber = subprocess.Popen(m.enter("raindctl", "subscribe", "--json"), stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(read_line(subscriber))["event"] == "Snapshot"
        m.run("dpkg", "-i", str(m.deb))
        wait_for(lambda: m.show("raind", "ActiveState") == "active"
                 and m.show("raind", "MainPID") not in ("0", before), what="the upgrade to restart raind")
        # raindctl subscribe reconnects by itself: the next snapshot comes from the new raind.
        line = read_line(subscriber)
        while json.loads(line)["event"] != "Snapshot":
            line = read_line(subscriber)
        snapshot = json.loads(line)
        note(f"  (subscriber) Snapshot again after the upgrade, up {snapshot['status']['uptimeSeconds']:.1f} s")
        assert sorted(p["id"] for p in snapshot["locations"]) == expected
    finally:
        subscriber.terminate()
        subscriber.wait()
    assert m.show("raind.socket", "ActiveState") == "active"
    assert place_ids(m) == expected


def test_stop_leaves_no_process(system_manager):
    m = system_manager
    m.ctl("stop", "raind")
    assert m.show("raind", "MainPID") == "0"
    assert m.processes("raind") == [], m.processes("raind")
    m.run("ps", "-e", "-o", "pid,user,cmd")


def test_user_instance(configured, fixture_server, managers_work):
    manager = UserManager(managers_work)
    try:
        u = manager
        # The package enabled the user socket for everyone (systemctl --global).
        assert u.show("raind.socket", "ActiveState") == "active"
        config = pathlib.Path(u.env["XDG_CONFIG_HOME"]) / "raind" / "raind.conf"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f"[Provider]\nBaseURL={fixture_server.url}\n\n[Places]\nOnlineGeocoder=no\n")
        u.ctl("start", "raind")
        assert u.show("raind", "ActiveState") == "active"
        u.run("raindctl", "status")
        u.run("raindctl", "add", "Paris")
        u.run("raindctl", "refresh")
        assert "paris-fr" in u.run("raindctl", "list").stdout
        state = pathlib.Path(u.env["XDG_STATE_HOME"]) / "raind" / "state.json"
        assert state.exists(), "the user instance keeps its state under $XDG_STATE_HOME"
        u.ctl("reload", "raind")
        first = u.show("raind", "MainPID")
        u.ctl("restart", "raind")
        assert u.show("raind", "MainPID") not in ("0", first)
        assert "paris-fr" in u.run("raindctl", "list").stdout
        u.ctl("stop", "raind.socket", "raind.service")
        main = u.show("raind", "MainPID")
        assert main == "0"
        leftover = subprocess.run(["pgrep", "-f", "^/usr/bin/raind --user$"], capture_output=True, text=True).stdout
        own = [pid for pid in leftover.split()
               if u.env["XDG_RUNTIME_DIR"] in pathlib.Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")]
        assert own == [], own
    finally:
        manager.kill()


def test_purge(system_manager):
    m = system_manager
    m.ctl("start", "raind")
    assert m.processes("raind")
    # Purged inside the namespace, so prerm stops the running units.
    m.run("dpkg", "--purge", "raind")
    assert m.processes("raind") == [], "prerm stopped raind"
    assert m.show("raind.socket", "ActiveState") in ("inactive", "")
    for gone in ("/usr/bin/raind", "/usr/bin/raindctl", "/usr/share/raind", "/etc/raind/raind.conf",
                 "/var/lib/raind", "/var/lib/private/raind", "/var/cache/raind", "/var/cache/private/raind",
                 "/etc/systemd/system/sockets.target.wants/raind.socket",
                 "/etc/systemd/user/sockets.target.wants/raind.socket", "/lib/systemd/system/raind.service"):
        assert not os.path.lexists(gone), f"{gone} is left after purge"
    # What an admin made is kept: the drop-in (and so /etc/raind); the group.
    assert DROP_IN.exists(), "purge removed a file the admin made"
    run(["getent", "group", "raind"])
    run(["ls", "-la", "/etc/raind", "/etc/raind/raind.conf.d"], check=False)


# --- gnome-shell-extension-raind: the GNOME Shell extension's package, built by
# ./scripts/package beside raind's (packaging/gnome-shell/build-deb).

def gnome_deb(deb):
    found = sorted(pathlib.Path(deb).parent.glob("gnome-shell-extension-raind_*_all.deb"))
    assert found, f"no gnome-shell-extension-raind .deb beside {deb}"
    return found[-1]


def test_gnome_extension_package_installs_the_extension_where_gnome_shell_reads_it(deb):
    package = gnome_deb(deb)
    fields = run(["dpkg-deb", "-f", str(package), "Package", "Architecture", "Depends", "Installed-Size"]).stdout
    assert "Architecture: all" in fields and "raind (>= " in fields, fields
    size = re.search(r"Installed-Size: (\d+)", fields).group(1)
    note(f"  {package.name}: Installed-Size {size} KiB")
    listing = run(["dpkg-deb", "-c", str(package)]).stdout
    extension = "./usr/share/gnome-shell/extensions/raind@raind.github.io/"
    for name in ("metadata.json", "extension.js", "indicator.js", "varlinkClient.js", "weatherModel.js",
                 "weatherView.js", "stylesheet.css"):
        assert extension + name in listing, (name, listing)
    assert all(" root/root " in line for line in listing.splitlines()), listing


@pytest.mark.skipif(shutil.which("lintian") is None, reason="lintian is not installed (apt-get install lintian)")
def test_gnome_extension_package_is_lintian_clean(deb):
    result = run(["lintian", "--pedantic", str(gnome_deb(deb))], check=False)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EWIPX]: ", line)]
    assert not [line for line in tags if line.startswith("E: ")], tags
    # The same justified warning as raind's (packaging/README.md).
    assert all("initial-upload-closes-no-bugs" in line for line in tags if line.startswith("W: ")), tags


# The same package for GNOME Shell 45 and later (RAIND_GNOME_SHELL_API=45): the
# other entry point beside the same shared files. Built by build-deb alone
# (no Swift build), twice, into temporary directories.
GNOME_SHARED = ("varlinkClient.js", "weatherModel.js", "weatherView.js", "indicator.js", "stylesheet.css")


def build_gnome_deb(output, api):
    output.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "RAIND_GNOME_SHELL_API": api}
    result = subprocess.run([str(pathlib.Path(__file__).resolve().parents[2] / "packaging" / "gnome-shell" / "build-deb"),
                             str(output), "0.1.0", "1", "raind maintainers <maintainers@raind.invalid>",
                             "https://github.com/raind/raind"], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return pathlib.Path(result.stdout.strip().splitlines()[-1])


def test_gnome_45_package_holds_the_45_entry_beside_the_same_shared_files(tmp_path):
    extensions = pathlib.Path(__file__).resolve().parents[2] / "extensions" / "gnome"
    packages = {api: build_gnome_deb(tmp_path / api, api) for api in ("43", "45")}
    unpacked = {}
    for api, package in packages.items():
        subprocess.run(["dpkg-deb", "-x", str(package), str(tmp_path / f"x{api}")], check=True)
        unpacked[api] = tmp_path / f"x{api}" / "usr/share/gnome-shell/extensions/raind@raind.github.io"
        assert sorted(p.name for p in unpacked[api].iterdir()) == sorted(GNOME_SHARED + ("extension.js", "metadata.json"))
    for name in GNOME_SHARED:
        assert (unpacked["43"] / name).read_bytes() == (unpacked["45"] / name).read_bytes() == \
            (extensions / name).read_bytes(), name
    for api, entry in (("43", extensions), ("45", extensions / "gnome45")):
        for name in ("extension.js", "metadata.json"):
            assert (unpacked[api] / name).read_bytes() == (entry / name).read_bytes(), (api, name)
    depends = {api: subprocess.run(["dpkg-deb", "-f", str(package), "Depends"], capture_output=True, text=True,
                                   check=True).stdout.strip() for api, package in packages.items()}
    assert depends["43"].endswith("gnome-shell (>= 43~), gnome-shell (<< 45~)"), depends
    assert depends["45"].endswith("gnome-shell (>= 45~), gnome-shell (<< 48~)"), depends
    # Reproducible: built again elsewhere, byte for byte the same.
    again = build_gnome_deb(tmp_path / "again", "45")
    assert again.read_bytes() == packages["45"].read_bytes(), "the GNOME 45 package differs between two builds"
    refused = subprocess.run([str(extensions.parents[1] / "packaging" / "gnome-shell" / "build-deb"), str(tmp_path),
                              "0.1.0", "1", "m", "h"], capture_output=True, text=True,
                             env={**os.environ, "SOURCE_DATE_EPOCH": "1", "RAIND_GNOME_SHELL_API": "44"})
    assert refused.returncode != 0 and "43 or 45" in refused.stderr, refused


@pytest.mark.skipif(shutil.which("lintian") is None, reason="lintian is not installed (apt-get install lintian)")
def test_gnome_45_package_is_lintian_clean(tmp_path):
    result = subprocess.run(["lintian", "--pedantic", str(build_gnome_deb(tmp_path, "45"))], capture_output=True,
                            text=True, timeout=600)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EWIPX]: ", line)]
    assert not [line for line in tags if line.startswith("E: ")], tags
    assert all("initial-upload-closes-no-bugs" in line for line in tags if line.startswith("W: ")), tags
# --- end of gnome-shell-extension-raind
