import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
INTEGRATION = HERE.parent / "integration"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(INTEGRATION))
# The integration suite's fixtures (a real raind on a temporary socket, the
# fixture server): the desktop tests drive the same daemon.
_spec = importlib.util.spec_from_file_location("integration_conftest", INTEGRATION / "conftest.py")
_integration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_integration)
daemon_factory = _integration.daemon_factory
fixture_server = _integration.fixture_server
weather_daemon = _integration.weather_daemon
pytest_configure = _integration.pytest_configure
