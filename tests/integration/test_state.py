"""The state file: survives restarts, is written atomically, and a broken one is kept aside."""
import json
import os
import random
import signal
import time

from raindtest import Daemon, Varlink, wait_for


def test_state_survives_restart(daemon_factory, tmp_path):
    daemon = daemon_factory()
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    daemon.ctl("add", "--coords", "51.5085,-0.1257", "--name", "London", check=True)
    daemon.ctl("set-location", "london-gb", check=True)
    daemon.ctl("units", "ca", check=True)
    assert daemon.stop() == 0
    again = daemon_factory()
    listed = json.loads(again.ctl("list", "--json", check=True).stdout)
    assert [l["id"] for l in listed["locations"]] == ["london-gb", "paris-fr"]
    assert listed["selected"] == "london-gb"
    assert again.ctl("units", check=True).stdout.strip() == "ca"


def test_corrupt_state_is_kept_aside_and_reported(daemon_factory, tmp_path):
    first = daemon_factory(start=False)
    first.state_file.parent.mkdir(parents=True)
    first.state_file.write_text('{"version": 1, "locations": [')
    daemon = first.start()
    kept = list(first.state_file.parent.glob("state.json.corrupt-*"))
    assert len(kept) == 1, "the broken file is renamed aside with a timestamp"
    assert kept[0].read_text() == '{"version": 1, "locations": ['
    log = daemon.read_log()
    assert "<3>" in log and str(first.state_file) in log and str(kept[0]) in log
    # The daemon serves with no places and writes a new file without touching the old one.
    daemon.ctl("add", "--coords", "1,1", "--name", "Somewhere", check=True)
    assert kept[0].read_text() == '{"version": 1, "locations": ['
    assert daemon.state()["locations"][0]["name"] == "Somewhere"


def test_state_from_a_newer_version_is_not_overwritten(daemon_factory):
    first = daemon_factory(start=False)
    first.state_file.parent.mkdir(parents=True)
    first.state_file.write_text('{"version": 7, "locations": [], "settings": {"units": "si"}}')
    daemon = first.start()
    kept = list(first.state_file.parent.glob("state.json.corrupt-*"))
    assert len(kept) == 1 and '"version": 7' in kept[0].read_text()
    assert "newer raind" in daemon.read_log()


def test_sigkill_during_writes_leaves_old_or_new_state(tmp_path):
    """Kills raind at random moments while it persists a stream of changes,
    hundreds of times; the file must always parse and hold one of the states
    that were asked for, in order, never a mix or a torn write."""
    daemon = Daemon(tmp_path)
    random.seed(1234)
    # A first state, acknowledged, so even a kill before the first write of
    # round 0 leaves a file to check.
    daemon.start()
    assert "settings" in daemon.client().call("SetSettings", {"refreshMinutes": 5})["parameters"]
    daemon.stop()
    last_seen = 5
    kills = 0
    for round_number in range(200):
        daemon.start()
        client = daemon.client()
        base = 5 + (round_number % 2) * 700
        # Pipeline changes without waiting: each one rewrites state.json.
        for minutes in range(base, base + 40):
            client.send("io.raind.Weather.SetSettings", {"refreshMinutes": minutes})
        time.sleep(random.uniform(0, 0.004))
        daemon.process.send_signal(signal.SIGKILL)
        daemon.process.wait()
        daemon.log.close()
        client.close()
        kills += 1
        state = json.loads(daemon.state_file.read_text())  # must parse
        minutes = state["settings"]["refreshMinutes"]
        allowed = set(range(base, base + 40))
        if last_seen is not None:
            allowed.add(last_seen)
        assert minutes in allowed, f"round {round_number}: {minutes} is neither the old nor a new state"
        assert not list(daemon.state_file.parent.glob("state.json.corrupt-*"))
        last_seen = minutes
        # A socket left by a killed daemon is stale; the next start must replace it.
    assert kills == 200
