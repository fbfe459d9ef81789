import os
import pathlib
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from raindtest import RAIND, RAINDCTL, Daemon  # noqa: E402


def pytest_configure(config):
    for binary in (RAIND, RAINDCTL):
        if not pathlib.Path(binary).exists():
            raise pytest.UsageError(f"{binary} is missing: build first (swift build), or set RAIND_BIN_DIR")


@pytest.fixture
def daemon_factory(tmp_path):
    daemons = []

    def make(config=None, extra_env=None, args=(), start=True, base=None):
        daemon = Daemon(base or tmp_path, config=config, extra_env=extra_env, args=args)
        daemons.append(daemon)
        if start:
            daemon.start()
        return daemon

    yield make
    for daemon in daemons:
        daemon.stop(sig=9) if daemon.process and daemon.process.poll() is None else None
        if getattr(daemon, "log", None) and not daemon.log.closed:
            daemon.log.close()


@pytest.fixture
def open_dir():
    """A directory other users can reach (pytest's own tmp dirs are private to root)."""
    path = tempfile.mkdtemp(prefix="raind-test-")
    os.chmod(path, 0o755)
    yield pathlib.Path(path)
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def daemon(daemon_factory):
    return daemon_factory()


@pytest.fixture
def fixture_server():
    from raindtest import FixtureServer
    server = FixtureServer(routes=[
        ("/v1/forecast", "openmeteo-forecast-paris-unixtime.json"),
        ("/forecast/", "pirateweather-forecast-boston-si.json"),
        ("/v1/search", "openmeteo-geocoding-enschede.json"),
    ])
    yield server
    server.stop()


@pytest.fixture
def weather_daemon(daemon_factory, fixture_server):
    """raind pointed at the fixture server with one place (Paris) saved but not yet fetched."""
    def make(extra_config="", provider="open-meteo", **kwargs):
        config = f"[Provider]\nName={provider}\nBaseURL={fixture_server.url}\nTimeoutSec=3\n" + extra_config
        return daemon_factory(config=config, **kwargs)
    return make
