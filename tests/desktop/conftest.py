import importlib.util
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
INTEGRATION = HERE.parent / "integration"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(INTEGRATION))
from plasmatest import build, missing_tools  # noqa: E402
from raindtest import RAIND, RAINDCTL, Daemon  # noqa: E402

# The integration suite's fixtures (a real raind on a temporary socket, the
# fixture server): the desktop tests drive the same daemon.
_spec = importlib.util.spec_from_file_location("integration_conftest", INTEGRATION / "conftest.py")
_integration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_integration)
daemon_factory = _integration.daemon_factory
fixture_server = _integration.fixture_server
weather_daemon = _integration.weather_daemon


def pytest_collection_modifyitems(config, items):
    missing = missing_tools()
    if missing:
        reason = ("the Plasma applet's tests need " + ", ".join(missing) + " (./scripts/test installs plasma-sdk, "
                  "plasma-desktop, cmake, extra-cmake-modules, qtdeclarative5-dev, libkf5plasma-dev, xvfb, imagemagick, xdotool)")
        for item in items:
            if "needs_plasma" in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_configure(config):
    _integration.pytest_configure(config)
    config.addinivalue_line("markers", "needs_plasma: needs the Plasma and Qt tools to build and show the applet")
    for binary in (RAIND, RAINDCTL):
        if not pathlib.Path(binary).exists():
            raise pytest.UsageError(f"{binary} is missing: build first (swift build), or set RAIND_BIN_DIR")


@pytest.fixture(scope="session")
def plasma_build():
    return build()


@pytest.fixture
def plasma_daemon(tmp_path, fixture_server):
    """raind fed by the fixture server, with Paris (selected, fetched) and London saved."""
    daemons = []

    def make(extra_config="", base=None):
        config = f"[Provider]\nName=open-meteo\nBaseURL={fixture_server.url}\nTimeoutSec=3\n" + extra_config
        daemon = Daemon(base or tmp_path / "raind", config=config)
        daemon.start()
        daemons.append(daemon)
        daemon.ctl("add", "--coords", "48.8566,2.3522", "--name", "Paris", check=True)
        daemon.ctl("add", "--coords", "51.5074,-0.1278", "--name", "London", check=True)
        daemon.ctl("refresh", "--all", check=True)
        return daemon

    yield make
    for daemon in daemons:
        if daemon.process and daemon.process.poll() is None:
            daemon.stop()
        elif getattr(daemon, "log", None) and not daemon.log.closed:
            daemon.log.close()


def pytest_sessionstart(session):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
