"""raindctl's and raind's link orders (scripts/order-raindctl and
scripts/order-raind, run by scripts/build-release): the recorded replies
raindctl's commands are traced against still read, their times are moved to
the moment they are served, every CPU's form of a glibc function is listed
where this CPU's was run, the same binary traced twice gives the same order
(the package is reproducible: tests/systemd/test_reproducible.py builds it
twice, raind's order with it), and a program that fails stops the trace."""
import importlib.machinery
import importlib.util
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from raindtest import RAINDCTL, ROOT


def order_script(name):
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(ROOT / "scripts" / name))
    spec = importlib.util.spec_from_loader(name.replace("-", "_"), loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


ORDER = order_script("order-raindctl")
ORDER_RAIND = order_script("order-raind")


def scene(name):
    return next(scene for scene in ORDER.scenes() if scene["name"] == name)


def run(arguments, tmp_path, scene):
    server = ORDER.Server(str(tmp_path / "raind.sock"), scene)
    try:
        env = {"HOME": str(tmp_path), "LANG": "C.UTF-8", "TZ": "UTC", "RAIND_SOCKET": str(tmp_path / "raind.sock"),
               "XDG_RUNTIME_DIR": str(tmp_path)}
        return subprocess.run([str(RAINDCTL), *arguments], env=env, capture_output=True, text=True, timeout=20)
    finally:
        server.close()
        (tmp_path / "raind.sock").unlink()


@pytest.mark.parametrize("scene", ORDER.scenes(), ids=lambda scene: scene["name"])
@pytest.mark.parametrize("arguments", ORDER.COMMANDS, ids=" ".join)
def test_every_traced_command_reads_the_recorded_replies(arguments, scene, tmp_path):
    """A command that failed would be traced down its error path: the build stops instead."""
    finished = run(arguments, tmp_path, scene)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip()
    assert finished.stderr == ""


def test_the_recorded_status_is_served_as_of_now(tmp_path):
    """Recorded five minutes after the last refresh, it reads so whenever it is served; the
    other scene, recorded as services failed, still shows them backing off."""
    lines = run(["status"], tmp_path, scene("served")).stdout.splitlines()
    assert "Last refresh:   5 min ago" in lines, lines
    assert any(line.startswith("Next refresh:   in 2") for line in lines), lines
    text = run(["status"], tmp_path, scene("unreachable")).stdout
    assert "Last refresh:   just now" in text, text
    assert "backing off for 5" in text, text


def test_only_times_are_moved():
    recorded = 1_796_601_534.8
    value = {"fetchedAt": recorded - 300, "hourly": [{"time": recorded + 3600, "temperature": 12.5}],
             "uptimeSeconds": 325.0, "requestsToday": 20, "online": True, "dailyBudget": 1500}
    moved = ORDER.moved(value, 86_400, recorded)
    assert moved == {"fetchedAt": recorded - 300 + 86_400,
                     "hourly": [{"time": recorded + 3600 + 86_400, "temperature": 12.5}],
                     "uptimeSeconds": 325.0, "requestsToday": 20, "online": True, "dailyBudget": 1500}


def test_every_cpu_form_of_a_function_is_listed_where_one_ran():
    names = {"_start", "main", "__memmove_avx_unaligned_erms", "__memmove_sse2_unaligned",
             "__memmove_evex_unaligned_erms", "__strlen_avx2", "__strlen_sse2", "handle_intel.constprop.0",
             "handle_amd", "intel_check_word.constprop.0", "handle_zhaoxin", "unrelated"}
    order = ["_start", "handle_intel.constprop.0", "__memmove_evex_unaligned_erms", "main"]
    assert ORDER.with_every_form(order, names) == [
        "_start",
        "handle_intel.constprop.0", "handle_amd", "handle_zhaoxin", "intel_check_word.constprop.0",
        "__memmove_evex_unaligned_erms", "__memmove_avx_unaligned_erms", "__memmove_sse2_unaligned",
        "main"]


@pytest.mark.skipif(not shutil.which("valgrind"), reason="needs valgrind (apt-get install valgrind)")
def test_the_same_binary_traced_twice_gives_the_same_order(tmp_path):
    orders = []
    for n in range(2):
        path = tmp_path / f"order-{n}"
        ORDER.trace(RAINDCTL, str(path), [["--version"]])
        orders.append(path.read_text().split())
    assert orders[0] == orders[1]
    assert orders[0][0] == "_start"
    assert "raindctl_main" in orders[0]
    assert len(orders[0]) == len(set(orders[0]))


@pytest.mark.skipif(not shutil.which("valgrind"), reason="needs valgrind (apt-get install valgrind)")
def test_a_command_that_fails_stops_the_trace(tmp_path):
    """`accuracy` asks a method no scene recorded: the build stops, saying why, and leaves nothing behind."""
    scratch = pathlib.Path(tempfile.gettempdir())
    before = set(scratch.glob("raindctl-order-*"))
    with pytest.raises(SystemExit, match=r"raindctl accuracy failed .*MethodNotFound.*record the replies again"):
        ORDER.trace(RAINDCTL, str(tmp_path / "order"), [["accuracy"]])
    assert not (tmp_path / "order").exists()
    assert set(scratch.glob("raindctl-order-*")) == before


@pytest.mark.parametrize("now", [1_796_680_020.0, 1_796_680_059.9, 1_796_680_080.0, 1_796_680_139.99])
def test_raind_is_traced_on_a_clock_set_to_a_fixed_minute(now):
    """Whenever the build runs, raind's clock reads a minute fixed by the script (what raind runs
    can depend on the moment: a stale forecast runs other code), moved from the real one by whole
    minutes so that their minutes turn together."""
    at = ORDER_RAIND.FORECAST_RECORDED_AT + ORDER_RAIND.AGE
    offset = int(ORDER_RAIND.fake_clock(at, now=now)["FAKETIME"])
    assert offset % 60 == 0
    assert at <= now + offset < at + 60


@pytest.mark.skipif(ORDER_RAIND.LIBFAKETIME is None or not shutil.which("valgrind"),
                    reason="needs libfaketime and valgrind (apt-get install faketime valgrind)")
def test_the_fake_clock_is_what_a_traced_program_reads():
    at = ORDER_RAIND.FORECAST_RECORDED_AT + ORDER_RAIND.AGE
    clock = ORDER_RAIND.fake_clock(at)
    read = subprocess.run(["valgrind", "-q", "--tool=none", "date", "+%s"], env={**os.environ, **clock},
                          capture_output=True, text=True, check=True).stdout
    assert at <= int(read) < at + 60 + 5, read


def fixture_servers():
    """The fixture servers this test process runs (the session's own among them)."""
    found = set()
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and str(ORDER_RAIND.FIXTURE_SERVER).encode() in command:
            found.add(stat.parent.name)
    return found


@pytest.mark.skipif(not shutil.which("valgrind"), reason="needs valgrind (apt-get install valgrind)")
def test_a_raind_that_does_not_start_stops_its_trace(tmp_path):
    """A program that exits before READY=1 (here /bin/false in raind's place) stops the build while
    its places are being saved, saying so, and leaves no fixture server or scratch directory."""
    scratch = pathlib.Path(tempfile.gettempdir())
    before = set(scratch.glob("raind-order-*"))
    servers = fixture_servers()
    with pytest.raises(SystemExit, match=r"^order-raind: raind exited with 1 before it said READY=1"):
        ORDER_RAIND.trace(pathlib.Path("/bin/false"), str(tmp_path / "order"))
    assert not (tmp_path / "order").exists()
    assert set(scratch.glob("raind-order-*")) == before
    assert fixture_servers() == servers
