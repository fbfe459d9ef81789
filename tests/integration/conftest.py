import pathlib
import sys

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
def daemon(daemon_factory):
    return daemon_factory()
