"""Translation catalogues that are not what msgfmt writes (issue 32): a
truncated raind.mo, one whose offsets point past its end, a FIFO in its
place. raindctl and raind check a catalogue before glibc maps it, and
speak English with a warning instead of dying of SIGBUS or SIGSEGV or
blocking in open."""
import os
import shutil
import struct
import subprocess

import pytest

from raindtest import RAINDCTL, ROOT, FakeNotifications, PrivateBus, wait_for
from test_air import AIR, add_paris, air_server  # noqa: F401 (a fixture)

KINDS = ["truncated", "offsets", "fifo"]


def broken_catalogues(tmp_path, kind):
    """A locale directory whose German catalogue is broken as `kind` says."""
    directory = tmp_path / "locale"
    catalogues = directory / "de" / "LC_MESSAGES"
    catalogues.mkdir(parents=True)
    target = catalogues / "raind.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(target), str(ROOT / "po" / "de.po")], check=True)
    data = bytearray(target.read_bytes())
    if kind == "truncated":
        target.write_bytes(data[:len(data) // 2])
    elif kind == "offsets":
        # Every translation's offset far past the end of the file.
        count, translations = struct.unpack_from("<I", data, 8)[0], struct.unpack_from("<I", data, 16)[0]
        for index in range(count):
            struct.pack_into("<I", data, translations + 8 * index + 4, 0x7FFF0000)
        target.write_bytes(bytes(data))
    else:
        target.unlink()
        os.mkfifo(target)
    return directory


def german(directory):
    return {"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "RAIND_LOCALE_DIR": str(directory)}


@pytest.mark.parametrize("kind", KINDS)
def test_raindctl_speaks_english_with_a_warning(tmp_path, kind):
    directory = broken_catalogues(tmp_path, kind)
    env = dict(os.environ, **german(directory))
    result = subprocess.run([RAINDCTL, "--help"], env=env, capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stdout.startswith("Usage: raindctl"), result.stdout[:200]
    assert "raindctl: warning: the translation catalogue " + str(directory / "de" / "LC_MESSAGES" / "raind.mo") \
        in result.stderr, result.stderr
    assert "text stays in English" in result.stderr


@pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (Debian package)")
@pytest.mark.parametrize("kind", KINDS)
def test_raind_notifies_in_english_with_a_warning(daemon_factory, air_server, tmp_path, kind):  # noqa: F811
    directory = broken_catalogues(tmp_path, kind)
    bus = PrivateBus()
    server = FakeNotifications(bus)
    try:
        config = (
            f"[Provider]\nName=open-meteo\nBaseURL={air_server.url}\nTimeoutSec=3\n"
            f"[Air]\nBaseURL={air_server.url}\n[Notifications]\nRainSoon=no\n")
        daemon = daemon_factory(config=config, extra_env=dict(german(directory),
                                                              DBUS_SESSION_BUS_ADDRESS=bus.address))
        add_paris(daemon)
        shown = server.next()
        assert shown["summary"] == "Air quality at Paris: Poor (European AQI 74)", shown
        wait_for(lambda: "the translation catalogue" in daemon.read_log(), what="the warning in the log")
        assert "text stays in English" in daemon.read_log()
        daemon.ctl("status", check=True)
        assert daemon.stop() == 0
    finally:
        server.stop()
        bus.stop()
