"""plasma-applet-raind, the Plasma applet's package that ./scripts/package
writes beside raind's: its files in the Plasma package and QML import paths,
no build path in the plugin, lintian, and the installed applet loading from
the system's paths alone in plasmoidviewer (docs/DESKTOP.md)."""
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from sdtest import ROOT, note, run

sys.path.insert(0, str(ROOT / "tests" / "desktop"))
from plasmatest import Viewer, Xvfb, missing_tools  # noqa: E402

PLASMOID = "usr/share/plasma/plasmoids/io.raind.weather"
PLUGIN = "usr/lib/x86_64-linux-gnu/qt5/qml/io/raind/weather"


def field(deb, name):
    return run(["dpkg-deb", "-f", str(deb), name]).stdout.strip()


@pytest.fixture(scope="module")
def plasma_deb(deb):
    path = pathlib.Path(deb).parent / f"plasma-applet-raind_{field(deb, 'Version')}_{field(deb, 'Architecture')}.deb"
    assert path.is_file(), f"{path} is missing: ./scripts/package writes it beside {deb}"
    note(f"# the Plasma applet's package: {path}, Installed-Size {field(path, 'Installed-Size')} KiB")
    return path


def test_plasma_package_files_and_control(plasma_deb, deb):
    listed = run(["dpkg-deb", "-c", str(plasma_deb)]).stdout
    files = {line.split()[-1].lstrip("./") for line in listed.splitlines() if not line.startswith("d")}
    for name in ("metadata.json", "contents/ui/main.qml", "contents/ui/CompactRepresentation.qml",
                 "contents/ui/FullRepresentation.qml", "contents/code/Format.js"):
        assert f"{PLASMOID}/{name}" in files, name
    assert f"{PLUGIN}/libraindweatherplugin.so" in files and f"{PLUGIN}/qmldir" in files, files
    assert "usr/share/doc/plasma-applet-raind/copyright" in files
    # Only root owns, and every file carries the commit's time.
    assert all(" root/root " in line for line in listed.splitlines()), listed
    assert len({line.split()[3] + line.split()[4] for line in listed.splitlines()}) == 1, listed
    depends = field(plasma_deb, "Depends")
    assert depends.startswith(f"raind (>= {field(deb, 'Version').split('-')[0]})"), depends
    assert "plasma-framework" in depends and "libqt5network5" in depends, depends
    assert field(plasma_deb, "Version") == field(deb, "Version")


def test_plasma_plugin_carries_no_build_path(plasma_deb, tmp_path):
    run(["dpkg-deb", "-x", str(plasma_deb), str(tmp_path)])
    text = subprocess.run(["strings", str(tmp_path / PLUGIN / "libraindweatherplugin.so")], capture_output=True,
                          text=True).stdout
    for path in (str(ROOT), "build-package", "plasma-build", "/tmp/"):
        assert path not in text, path
    assert "RaindClient" in text  # the right file was read


@pytest.mark.skipif(shutil.which("lintian") is None, reason="lintian is not installed (apt-get install lintian)")
def test_plasma_lintian_reports_no_error(plasma_deb):
    result = run(["lintian", "--pedantic", str(plasma_deb)], check=False)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EWIPX]: ", line)]
    assert not [line for line in tags if line.startswith("E: ")], tags
    # As raind's: each remaining warning is justified in packaging/README.md.
    warnings = [line for line in tags if line.startswith("W: ")]
    assert all("initial-upload-closes-no-bugs" in w for w in warnings), warnings


@pytest.mark.skipif(bool(missing_tools()), reason="needs plasmoidviewer, Xvfb and ImageMagick (plasma-sdk, xvfb)")
def test_installed_applet_loads_from_the_system_paths(installed, plasma_deb, tmp_path):
    run(["dpkg", "-i", str(plasma_deb)])
    xvfb = Xvfb()
    try:
        # By its id, found in /usr/share/plasma/plasmoids; the plugin from Qt's own QML path.
        viewer = Viewer(xvfb, tmp_path / "viewer", tmp_path / "no-raind.sock", applet="io.raind.weather", imports=None)
        try:
            assert viewer.until("compact", lambda text: text == "raind not running")
        finally:
            viewer.stop()
        assert viewer.exceptions() == [], viewer.log_path
    finally:
        xvfb.stop()
        run(["dpkg", "--purge", "plasma-applet-raind"])
