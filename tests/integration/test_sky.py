"""The moon and the day's length end to end: the real raind serves a
forecast (from the fixture server) for places saved by coordinates, and the
real raindctl computes the sky for each place's coordinates and zone at the
present moment: `now`'s Day length and Moon rows, and the `{moon}`,
`{moon_phase}` and `{daylength}` template fields in every icon style.

The exact times are pinned by the unit tests (Tests/RainCoreTests/
SkyTableTests.swift, MeeusExampleTests.swift) at fixed moments; here the
moment is the real one, so the day's length is held to an independent
formula (the sunrise equation, good to a few minutes) and the polar night or
day of the season at the pole."""
import datetime
import json
import math
import re
import time

import pytest

from nowcast_fixtures import FIXTURES, OPEN_METEO_BASE, openmeteo
from raindtest import FixtureServer, wait_for

PARIS = (48.8534, 2.3488)
LENGTH = r"(?:(\d+) h(?: (\d+) min)?|(\d+) min)"
DAY_LENGTH = re.compile(
    rf"^{LENGTH}, (?:{LENGTH} (?:longer|shorter)|under a minute (?:longer|shorter)|as long as yesterday)$")
PHASES = ["New moon", "Waxing crescent", "First quarter", "Waxing gibbous", "Full moon",
          "Waning gibbous", "Last quarter", "Waning crescent"]
MOON = re.compile(rf"^({'|'.join(PHASES)}), (\d+)% illuminated$")
TIME = r"\d\d:\d\d"
MOON_TIMES = re.compile(
    rf"^(?:rises {TIME}, sets {TIME}|sets {TIME}, rises {TIME}|rises {TIME}, does not set today"
    rf"|sets {TIME}, does not rise today|up all day|below the horizon all day)$")


@pytest.fixture
def server(tmp_path):
    directory = tmp_path / "provider"
    directory.mkdir()
    base = json.loads((FIXTURES / OPEN_METEO_BASE).read_text())
    (directory / "om.json").write_text(json.dumps(openmeteo(base, int(time.time()) // 900 * 900, "none")))
    server = FixtureServer(routes=[("/v1/forecast", "om.json")], directory=directory)
    yield server
    server.stop()


def start(daemon_factory, server, places):
    daemon = daemon_factory(config=f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n")
    for name, (latitude, longitude) in places.items():
        daemon.ctl("add", "--coords", f"{latitude},{longitude}", "--name", name, check=True)
        wait_for(lambda: daemon.client().call("GetForecast", {"id": name.lower()})["parameters"]["forecast"]
                 is not None, timeout=10, what=f"{name}'s first forecast")
    return daemon


def rows(text):
    """`now`'s table rows as (label, value); a row without a label continues the one above."""
    found = []
    for line in text.splitlines():
        match = re.match(r"^(\S.*?)\s{2,}(\S.*)$", line)
        if match:
            found.append((match.group(1), match.group(2)))
        elif line.startswith(" ") and found:
            found.append(("", line.strip()))
    return found


def minutes(text):
    match = re.match(LENGTH, text)
    hours, rest, only = match.groups()
    return int(only) if only else int(hours) * 60 + int(rest or 0)


def sunrise_equation_minutes(latitude, day):
    """The day's length by the sunrise equation with the sun's declination
    from its mean longitude (Wikipedia, "Sunrise equation"), h0 = −0.833°."""
    n = (day - datetime.date(2000, 1, 1)).days + 0.5
    mean = math.radians((357.5291 + 0.98560028 * n) % 360)
    centre = 1.9148 * math.sin(mean) + 0.02 * math.sin(2 * mean) + 0.0003 * math.sin(3 * mean)
    longitude = math.radians((math.degrees(mean) + centre + 180 + 102.9372) % 360)
    declination = math.asin(math.sin(longitude) * math.sin(math.radians(23.44)))
    phi = math.radians(latitude)
    cosine = (math.sin(math.radians(-0.833)) - math.sin(phi) * math.sin(declination)) / (
        math.cos(phi) * math.cos(declination))
    return 2 * math.degrees(math.acos(max(-1, min(1, cosine)))) / 15 * 60


def test_now_shows_the_day_and_the_moon_for_the_places_coordinates(daemon_factory, server):
    daemon = start(daemon_factory, server, {"Paris": PARIS})
    before = datetime.datetime.now(datetime.timezone.utc)
    view = rows(daemon.ctl("now", check=True).stdout)
    labels = [label for label, _ in view]
    assert "Day length" in labels and "Moon" in labels, view
    length = dict(view)["Day length"]
    assert DAY_LENGTH.match(length), length
    paris_day = (before + datetime.timedelta(hours=1)).date()  # Paris is UTC+1 or +2; near enough for the length
    assert abs(minutes(length) - sunrise_equation_minutes(PARIS[0], paris_day)) < 6, length
    moon_index = labels.index("Moon")
    phase = MOON.match(view[moon_index][1])
    assert phase, view[moon_index]
    assert view[moon_index + 1][0] == "" and MOON_TIMES.match(view[moon_index + 1][1]), view
    # The name and the lit fraction agree: crescents under half lit, gibbous over.
    name, percent = phase.group(1), int(phase.group(2))
    if "crescent" in name:
        assert percent < 55, phase.group(0)
    if "gibbous" in name:
        assert percent > 45, phase.group(0)

    line = daemon.ctl("now", "--format", "{moon_phase}|{daylength}|{daylength:value}|{moon}",
                      "--icons", "text", check=True).stdout.strip()
    shown_phase, shown_length, value, text_icon = line.split("|")
    assert shown_phase == name and shown_length == re.match(LENGTH, length).group(0), line
    assert int(value) == minutes(shown_length) or abs(int(value) - minutes(shown_length)) <= 1, line
    assert text_icon == name.lower(), line
    emoji = daemon.ctl("now", "--format", "{moon}", "--icons", "emoji", check=True).stdout.strip()
    assert emoji in "🌑🌒🌓🌔🌕🌖🌗🌘" and len(emoji) == 1, emoji
    nerd = daemon.ctl("now", "--format", "{moon}", "--icons", "nerd", check=True).stdout.strip()
    assert len(nerd) == 1 and 0xE38D <= ord(nerd) <= 0xE3A8, repr(nerd)


def test_at_the_pole_the_day_is_polar_in_its_season(daemon_factory, server):
    month = datetime.datetime.now(datetime.timezone.utc).month
    if month not in (11, 12, 1, 5, 6, 7):
        pytest.skip("the pole has sunrises and sunsets near the equinoxes")
    daemon = start(daemon_factory, server, {"Pole": (89.9, 0.0)})
    view = dict(rows(daemon.ctl("now", "Pole", check=True).stdout))
    expected = "no daylight (polar night)" if month in (11, 12, 1) else "24 h (polar day)"
    assert view["Day length"] == expected, view
    line = daemon.ctl("now", "Pole", "--format", "{daylength:value}", check=True).stdout.strip()
    assert line == ("0" if month in (11, 12, 1) else "1440"), line
