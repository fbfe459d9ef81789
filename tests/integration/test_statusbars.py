"""The configurations in docs/STATUSBARS.md work as written: each one's
command is run against a real raind and its lines are checked; i3blocks
itself runs the i3blocks configuration."""
import json
import re
import shlex
import shutil
import subprocess

import pytest

from raindtest import RAINDCTL, ROOT, wait_for
from test_bars import Lines

DOC = (ROOT / "docs" / "STATUSBARS.md").read_text()


def block(heading, language):
    """The first code block of `language` under `## heading`."""
    section = DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


def command(text, daemon):
    """A documented `raindctl ...` command, pointed at the test's raind."""
    words = shlex.split(text)
    assert words[0] == "raindctl", text
    return [RAINDCTL, "--socket", str(daemon.socket), *words[1:]]


@pytest.fixture
def paris(weather_daemon, fixture_server):
    daemon = weather_daemon()
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    wait_for(lambda: daemon.client().call("GetForecast")["parameters"]["forecast"])
    return daemon


def first_line_with(lines, predicate):
    try:
        return lines.until(predicate, what="a line with weather")
    finally:
        lines.stop()


def test_waybar_configuration(paris):
    config = json.loads(block("waybar", "json"))["custom/weather"]
    assert config["return-type"] == "json"
    line = json.loads(first_line_with(Lines(command(config["exec"], paris), paris.env),
                                      lambda line: "°" in json.loads(line)["text"]))
    assert line["class"][0] == "ok" and re.fullmatch(r"\S+ -?\d+ °C", line["text"]), line


def test_polybar_configuration(paris):
    exec_line = re.search(r"^exec = (.*)$", block("polybar", "ini"), re.M).group(1)
    line = first_line_with(Lines(command(exec_line, paris), paris.env), lambda line: "°" in line)
    # An emoji (Debian's fonts-noto-color-emoji draws it), not a Nerd Font's private-use glyph.
    icon, _ = line.split(" ", 1)
    assert re.fullmatch("-?\\d+ °C", line.split(" ", 1)[1]), line
    assert icon and not any("\ue000" <= c <= "\uf8ff" for c in icon) and any(ord(c) > 0x2000 for c in icon), line


def test_i3status_rust_configuration(paris):
    text = re.search(r'^command = "(.*)"$', block("i3status-rust", "toml"), re.M).group(1)
    line = first_line_with(Lines(command(text, paris), paris.env), lambda line: "°" in line)
    assert re.fullmatch(r"[a-z ]+ -?\d+ °C \S.*", line), line


def test_shell_prompt(paris):
    text = re.search(r'\$\((raindctl now --format "[^"]*")', block("Shell prompt", "sh")).group(1)
    result = paris.ctl(*shlex.split(text)[1:], check=True)
    assert re.fullmatch(r"\S+ -?\d+ °C\n", result.stdout), result.stdout


def test_shell_prompt_under_a_charset_without_emoji_draws_text_icons(paris):
    """Issue 32, point 5: under LANG=C (ASCII) the prompt's icon is the
    condition in words, not one `?` per code point of an emoji; likewise for
    `--icons emoji`/`nerd` asked outright, and for a Latin-1 locale."""
    text = re.search(r'\$\((raindctl now --format "[^"]*")', block("Shell prompt", "sh")).group(1)
    for env, extra in (({"LANG": "C", "LC_ALL": ""}, ()), ({"LANG": "C", "LC_ALL": ""}, ("--icons", "nerd")),
                       ({"LANG": "C", "LC_ALL": "", "RAINDCTL_ICONS": "emoji"}, ()),
                       ({"LANG": "de_DE.ISO-8859-1", "LC_ALL": ""}, ())):
        result = paris.ctl(*shlex.split(text)[1:], *extra, check=True, env=env)
        assert re.fullmatch(r"[a-z][a-z -]* -?\d+ C\n", result.stdout), (env, extra, result.stdout)
    for command_line in ("subscribe --format '{icon} {temp}'", "subscribe --format bar"):
        line = first_line_with(Lines(command(f"raindctl {command_line}", paris), {**paris.env, "LANG": "C"}),
                               lambda line: re.search(r"\d", line))
        assert "?" not in line and line.isascii(), line


@pytest.mark.skipif(not shutil.which("i3blocks"), reason="needs i3blocks (Debian package i3blocks)")
def test_i3blocks_configuration(paris, tmp_path):
    config = block("i3blocks", "ini").replace("command=raindctl", f"command={RAINDCTL} --socket {paris.socket}")
    (tmp_path / "i3blocks.conf").write_text(config)
    lines = Lines(["i3blocks", "-c", str(tmp_path / "i3blocks.conf")], paris.env)

    def weather(line):
        line = line.lstrip(",")
        return line.startswith("[{") and any(
            block.get("name") == "weather" and "Paris" in block.get("full_text", "") for block in json.loads(line))
    found = json.loads(first_line_with(lines, weather).lstrip(","))
    text = next(block["full_text"] for block in found if block.get("name") == "weather")
    assert re.fullmatch(r"\S+ Paris -?\d+ °C \d+%", text), text


@pytest.mark.skipif(not all(shutil.which(tool) for tool in ("polybar", "Xvfb", "xwd")),
                    reason="needs polybar, Xvfb and xwd (Debian packages polybar, xvfb, x11-apps)")
def test_polybar_runs_the_documented_configuration(paris, tmp_path):
    """Issue 32, point 5: the documented polybar configuration, as written
    (only raindctl pointed at the test's raind), makes a bar that shows the
    module under Xvfb: no "No modules created", both fonts it names loaded,
    and the module's line drawn at the bar's right end (a screenshot of the
    bar is kept in the test's directory as bar.png)."""
    from test_notifications import VirtualDisplay, png, xwd_to_rgb
    text = block("polybar", "ini")
    assert "[bar/main]" in text and re.search(r"^modules-right = .*\bweather\b", text, re.M), text
    config = tmp_path / "config.ini"
    config.write_text(text.replace("exec = raindctl", f"exec = {RAINDCTL} --socket {paris.socket}"))
    display = VirtualDisplay()
    log = open(tmp_path / "polybar.log", "w")
    bar = subprocess.Popen(["polybar", "-c", str(config), "main"], env={**paris.env, "DISPLAY": display.name},
                           stdout=log, stderr=subprocess.STDOUT)
    try:
        def drawn():
            assert bar.poll() is None, (tmp_path / "polybar.log").read_text()
            width, height, rgb = xwd_to_rgb(subprocess.run(["xwd", "-root", "-silent", "-display", display.name],
                                                           capture_output=True, check=True).stdout)
            rows = rgb[:width * 3 * 30]  # the bar: the screen's top rows, black where nothing is drawn
            right = [rows[y * width * 3 + x * 3] for y in range(30) for x in range(width - 120, width)]
            left = [rows[y * width * 3 + x * 3] for y in range(30) for x in range(0, width - 120)]
            if max(right) > 128 and max(left) < 40:
                (tmp_path / "bar.png").write_bytes(png(width, 30, rows))
                return True
            return False
        wait_for(drawn, timeout=20, interval=0.5, what="the weather drawn at the bar's right end")
        written = (tmp_path / "polybar.log").read_text()
        assert "No modules created" not in written and "error" not in written, written
        assert 'Loaded font "DejaVu Sans' in written and 'Loaded font "Noto Color Emoji' in written, written
    finally:
        bar.terminate()
        bar.wait(timeout=10)
        log.close()
        display.stop()
