"""The model of a day (bench/day_model.py) is what bench/day_model.json and
the table in docs/SCHEDULING.md say: a change to the model fails here until
they are written again (`python3 bench/day_model.py --write`), and the Swift
WholeDayTests hold raind's runs of the same days to the file."""
import json
import subprocess
import sys

from raindtest import ROOT


def test_the_model_file_and_the_table_are_what_the_model_gives():
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "day_model.py"), "--check"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr


def test_the_model_holds_the_issue_goals():
    model = json.loads((ROOT / "bench" / "day_model.json").read_text())
    calm = model["days"]["calm-desktop"]
    pollers = sum(calm["pollers"].values())
    # At least ten times fewer requests than three per-client pollers that ask the alerts too.
    assert pollers / calm["raindTotal"]["mean"] >= 10
    for day in model["days"].values():
        for kind in day["raind"].values():
            assert kind["low"] <= kind["mean"] <= kind["high"]
