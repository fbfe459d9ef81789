import os
import pathlib
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "integration"))
from sdtest import ROOT, TRANSCRIPT, WORK, managers_directory, note, run  # noqa: E402


def pytest_collection_modifyitems(config, items):
    reason = None
    if os.geteuid() != 0:
        reason = ("needs root: installs the package with dpkg and boots systemd managers in new namespaces "
                  "(CI runs as root)")
    elif not pathlib.Path("/lib/systemd/systemd").exists():
        reason = "needs systemd (/lib/systemd/systemd) installed"
    if reason:
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def deb():
    """The package: $RAIND_DEB when set (built earlier in the same run), else
    built now with ./scripts/package."""
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    TRANSCRIPT.write_text("")
    given = os.environ.get("RAIND_DEB")
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"RAIND_DEB={given} is not a file"
        note(f"# using {path}")
        return path
    result = subprocess.run([str(ROOT / "scripts" / "package")], capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr[-4000:]
    path = pathlib.Path(result.stdout.strip().splitlines()[-1])
    note(f"$ ./scripts/package\n  {path}")
    return path


@pytest.fixture(scope="session")
def managers_work(deb):
    """The directory the managers work in (units, XDG directories, what
    they must read), outside the tmpfs their namespaces mount wherever the
    checkout is; removed at the end, when every manager is gone."""
    directory = managers_directory()
    note(f"# the managers work in {directory}")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def installed(deb):
    """The package installed with dpkg -i; purged at the end if a test did not."""
    run(["dpkg", "-i", deb])
    yield deb
    if subprocess.run(["dpkg-query", "-W", "-f=${Status}", "raind"], capture_output=True,
                      text=True).stdout.startswith("install"):
        run(["dpkg", "--purge", "raind"], check=False)
