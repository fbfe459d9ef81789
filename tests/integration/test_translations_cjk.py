"""Japanese and Chinese through the real raindctl: a kanji or hanzi takes two
terminal columns, so the help's continued usage lines and `status`'s values
line up only when raindctl counts columns, not characters; and a Japanese
terminal that is not UTF-8 (EUC-JP) reads English in ASCII, not `???`
(po/README.md, "Japanese and Chinese")."""
import re
import subprocess
import unicodedata

import pytest

from raindtest import RAINDCTL, wait_for
from test_translations import PARIS, compiled, installed


def columns(text):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
               for c in text)


@pytest.mark.parametrize("lang", ["ja_JP.UTF-8", "zh_CN.UTF-8"])
def test_help_and_status_line_up_in_columns(weather_daemon, fixture_server, tmp_path, lang):
    assert installed(lang), f"{lang} is not generated: ./scripts/test runs localedef"
    env = {"LANG": lang, "LANGUAGE": "", "LC_ALL": "", "RAIND_LOCALE_DIR": compiled(tmp_path), "COLUMNS": "80"}
    daemon = weather_daemon()
    # The usage lines after the first continue under its "raindctl", after the translated "Usage:".
    usage = daemon.ctl("add", "--help", check=True, env=env).stdout.split("\n\n")[0].split("\n")
    assert not usage[0].startswith("Usage:"), usage
    start = columns(usage[0][:usage[0].index("raindctl")])
    assert all(columns(line[:line.index("raindctl")]) == start for line in usage[1:]), usage
    # Every row of status starts its value at one column (a continued value under it too).
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    status = daemon.ctl("status", check=True, env=env).stdout.rstrip("\n").split("\n")[1:]
    assert len(status) >= 10, status
    starts = set()
    for line in status:
        label = re.match(r"(\S*\s+)", line).group(1)
        starts.add(columns(label))
        assert columns(line) <= 80, line
    assert len(starts) == 1, "\n".join(status)


def test_a_japanese_terminal_that_is_not_utf8_reads_english_in_ascii(weather_daemon, fixture_server, tmp_path):
    lang = "ja_JP.EUC-JP"
    assert installed(lang.replace("EUC-JP", "eucjp")), f"{lang} is not generated: ./scripts/test runs localedef"
    env = {"LANG": lang, "LANGUAGE": "", "LC_ALL": "", "RAIND_LOCALE_DIR": compiled(tmp_path)}
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])

    def run(*args):
        return subprocess.run([RAINDCTL, *args], env={**daemon.env, **env, "RAIND_SOCKET": str(daemon.socket)},
                              capture_output=True, timeout=20)

    for args in [("now",), ("daily",), ("hourly", "--hours", "3"), ("status",), ("--help",)]:
        out = run(*args).stdout
        assert out and all(byte < 0x80 for byte in out), (args, out)
        assert b"???" not in out, (args, out)
    now = run("now").stdout.decode()
    assert "Feels like" in now and re.search(r"\n\w+day \d+ \w+ \d{4} \d\d:\d\d\n", now), now
    assert run("--help").stdout.startswith(b"Usage: raindctl")
    assert "Places:" in run("status").stdout.decode()
