"""The real raindctl against the real raind: the commands of the first slice."""
import json
import os
import subprocess
import time

import pytest

from raindtest import RAINDCTL, wait_for


def add(daemon, lat, lon, name):
    return daemon.ctl("add", "--coords", f"{lat},{lon}", "--name", name, check=True)


def test_add_list_select_remove(daemon):
    out = add(daemon, 48.8534, 2.3488, "Paris").stdout
    assert "Added Paris, Ile-de-France, France as paris-fr" in out
    add(daemon, 51.5085, -0.1257, "London")
    add(daemon, 52.3740, 4.8897, "Amsterdam")
    listing = daemon.ctl("list", check=True).stdout.splitlines()
    assert [line.split()[1] if line.startswith("*") else line.split()[0] for line in listing] == [
        "amsterdam-nl", "london-gb", "paris-fr"]
    assert listing[2].startswith("*"), "the first place added is selected"

    assert "Selected London, England, United Kingdom (london-gb)" in daemon.ctl("set-location", "london-gb", check=True).stdout
    listed = json.loads(daemon.ctl("list", "--json", check=True).stdout)
    assert listed["selected"] == "london-gb"

    refused = daemon.ctl("remove", "london-gb")
    assert refused.returncode == 1
    assert "selected place and cannot be removed" in refused.stderr
    assert "set-location" in refused.stderr, "the error says what to do"

    assert daemon.ctl("remove", "paris-fr", check=True).returncode == 0
    assert [l["id"] for l in json.loads(daemon.ctl("list", "--json").stdout)["locations"]] == ["amsterdam-nl", "london-gb"]


def test_add_existing_place_returns_it(daemon):
    add(daemon, 48.8534, 2.3488, "Paris")
    # Within 1 km and not given a name of its own: the same place.
    again = daemon.ctl("add", "--coords", "48.856,2.352", check=True)
    assert "Already saved: Paris, Ile-de-France, France as paris-fr" in again.stdout
    assert len(daemon.state()["locations"]) == 1


def test_units_set_and_show(daemon):
    assert daemon.ctl("units", "fahrenheit", check=True).stdout.strip() == "Units: us"
    assert daemon.ctl("units", check=True).stdout.strip() == "us"
    assert daemon.state()["settings"]["units"] == "us"
    bad = daemon.ctl("units", "kelvin")
    assert bad.returncode == 64 and "kelvin" in bad.stderr


def test_default_units_follow_locale(daemon_factory):
    daemon = daemon_factory(extra_env={"LANG": "en_US.UTF-8"})
    assert daemon.ctl("units", check=True).stdout.strip() == "us"


def test_unknown_place_is_reported_with_exit_1(daemon):
    result = daemon.ctl("set-location", "Atlantis")
    assert result.returncode == 1
    assert "no saved place is called 'Atlantis'" in result.stderr


def test_subscribe_sees_each_event(daemon):
    sub = subprocess.Popen([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--json", "--events",
                            "LocationAdded,LocationRemoved,LocationSelected,SettingsChanged"],
                           stdout=subprocess.PIPE, text=True, env=daemon.env)
    try:
        snapshot = json.loads(sub.stdout.readline())
        assert snapshot["event"] == "Snapshot" and snapshot["locations"] == []
        add(daemon, 48.8534, 2.3488, "Paris")
        add(daemon, 51.5085, -0.1257, "London")
        daemon.ctl("set-location", "london-gb", check=True)
        daemon.ctl("remove", "paris-fr", check=True)
        daemon.ctl("units", "uk", check=True)
        events = [json.loads(sub.stdout.readline()) for _ in range(6)]
    finally:
        sub.terminate()
        sub.wait()
    assert [e["event"] for e in events] == [
        "LocationAdded", "LocationSelected", "LocationAdded", "LocationSelected", "LocationRemoved",
        "SettingsChanged"]
    assert events[0]["location"]["name"] == "Paris"
    assert events[4]["location"]["id"] == "paris-fr"
    assert events[5]["settings"]["units"] == "uk"


def test_subscribe_for_people_prints_one_line_per_event(daemon):
    sub = subprocess.Popen([RAINDCTL, "subscribe", "--events", "LocationAdded"], stdout=subprocess.PIPE, text=True,
                           env={**daemon.env, "RAIND_SOCKET": str(daemon.socket)})
    try:
        assert "Snapshot 0 places" in sub.stdout.readline()
        add(daemon, 48.8534, 2.3488, "Paris")
        assert "LocationAdded paris-fr Paris" in sub.stdout.readline()
    finally:
        sub.terminate()
        sub.wait()


def test_status_shows_selected_and_budget(daemon):
    add(daemon, 48.8534, 2.3488, "Paris")
    out = daemon.ctl("status", check=True).stdout
    assert "Selected:" in out and "(paris-fr)" in out
    assert "of 1,500 today" in out  # Open-Meteo's default: 1,500 counted calls a day
    status = json.loads(daemon.ctl("status", "--json", check=True).stdout)
    assert status["locations"] == 1 and status["units"] == "si"


def test_usage_errors_exit_64_and_help_goes_to_stdout(daemon):
    for args in (["add"], ["add", "--coords", "north"], ["add", "--coords", "91,0", "--name", "x"],
                 ["list", "--bogus"], ["nonsense"], ["remove"]):
        result = daemon.ctl(*args)
        assert result.returncode == 64, (args, result)
        assert result.stderr.startswith("raindctl: "), result.stderr
    for command in ("status", "list", "add", "remove", "set-location", "units", "subscribe"):
        result = daemon.ctl(command, "--help", check=True)
        assert result.stdout.startswith("Usage: raindctl " + command), result.stdout
    assert "Commands:" in daemon.ctl("--help", check=True).stdout


def test_unreachable_daemon_exits_2(tmp_path):
    result = subprocess.run([RAINDCTL, "--socket", str(tmp_path / "none.sock"), "status"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "cannot reach raind: nothing at " + str(tmp_path / "none.sock") in result.stderr
    assert "raind --socket " + str(tmp_path / "none.sock") in result.stderr, result.stderr


def test_not_running_names_both_instances_and_how_to_start_each(tmp_path):
    # No $RAIND_SOCKET: raindctl looks for the user instance, then the system one.
    env = {"PATH": os.environ["PATH"], "XDG_RUNTIME_DIR": str(tmp_path)}
    if os.path.exists("/run/raind/raind.sock"):
        pytest.skip("a system raind runs on this machine")
    result = subprocess.run([RAINDCTL, "status"], env=env, capture_output=True, text=True)
    assert result.returncode == 2
    assert f"no user instance at {tmp_path}/raind/raind.sock" in result.stderr, result.stderr
    assert "no system instance at /run/raind/raind.sock" in result.stderr, result.stderr
    assert "systemctl --user start raind" in result.stderr and "sudo systemctl start raind" in result.stderr


def test_client_finds_user_socket_from_xdg_runtime_dir(daemon):
    env = {k: v for k, v in daemon.env.items()}
    result = subprocess.run([RAINDCTL, "status", "--json"], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_help_command_is_listed_and_refuses_an_unknown_command(tmp_path):
    def ctl(*args):
        return subprocess.run([RAINDCTL, *args], capture_output=True, text=True, timeout=10)

    listed = ctl("--help").stdout.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    assert [line.split()[0] for line in listed.splitlines()][-1] == "help"
    assert ctl("help").stdout == ctl("--help").stdout
    assert ctl("help", "now").stdout == ctl("now", "--help").stdout
    assert ctl("help", "now").stdout.startswith("Usage: raindctl now")
    for args in (["help", "bogus"], ["bogus"]):
        result = ctl(*args)
        assert result.returncode == 64 and result.stdout == "", (args, result)
        assert result.stderr.startswith("raindctl: ") and "unknown command 'bogus'" in result.stderr, result.stderr
    assert ctl("help", "now", "daily").returncode == 64


def test_options_before_the_command_are_read_left_to_right(tmp_path):
    def ctl(*args):
        return subprocess.run([RAINDCTL, *args], capture_output=True, text=True, timeout=10,
                              env=dict(os.environ, RAIND_SOCKET=str(tmp_path / "none.sock")))

    version = ctl("--version")
    assert version.returncode == 0 and version.stderr == "", version
    assert version.stdout.startswith("raindctl ") and version.stdout.count("\n") == 1, version.stdout
    # --version is answered as read, after a socket, whichever way the socket is given.
    assert ctl("--socket", "/x", "--version").stdout == version.stdout
    assert ctl("--socket=/x", "--version", "status").stdout == version.stdout
    for args, message in ((["--socket"], "--socket needs a path"),
                          (["--version=2"], "unknown option '--version=2'"),
                          (["--bogus", "--version"], "unknown option '--bogus'"),
                          (["-x"], "unknown option '-x'")):
        result = ctl(*args)
        assert result.returncode == 64 and result.stdout == "", (args, result)
        assert result.stderr.startswith(f"raindctl: {message}"), (args, result.stderr)
    assert ctl("-h").stdout == ctl("--help").stdout and ctl("-h").stdout.startswith("Usage: raindctl")
    unreachable = ctl("--socket", str(tmp_path / "elsewhere.sock"), "status")
    assert unreachable.returncode == 2 and "elsewhere.sock" in unreachable.stderr, unreachable


def test_options_are_read_by_their_declaration(daemon):
    # Each refused before anything is asked of raind.
    for args, message in ((["now", "--format", "people"], "--format takes bar, waybar or a template"),
                          (["now", "--json", "--json"], "now: --json is given twice"),
                          (["list", "--json=yes"], "list: --json takes no value"),
                          (["hourly", "--hours"], "hourly: --hours needs a value"),
                          (["units", "us", "si"], "units: takes one unit system"),
                          (["status", "extra"], "status: unexpected argument 'extra'"),
                          (["subscribe", "--events=LocationAdded,Nope"], "unknown event 'Nope'")):
        result = daemon.ctl(*args)
        assert result.returncode == 64 and message in result.stderr, (args, result.stderr)
    add(daemon, 48.8534, 2.3488, "Paris")
    # --option=VALUE as well as --option VALUE; a value may start with '-'.
    assert json.loads(daemon.ctl("search", "--limit=1", "--json", "Paris", check=True).stdout)["candidates"]
    assert "Added" in daemon.ctl("add", "--coords", "-33.9249,18.4241", "--name", "Cape Town", check=True).stdout
    assert json.loads(daemon.ctl("--socket=" + str(daemon.socket), "list", "--json", check=True).stdout)[
        "selected"] == "paris-fr"
