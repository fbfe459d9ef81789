"""Short-range precipitation in the documented shapes of both providers, for
raind's nowcast: Open-Meteo's `minutely_15` block (https://open-meteo.com/en/docs,
"15-Minutely Parameter Definition": `precipitation` is the sum of the
preceding 15 minutes, in `minutely_15_units.precipitation`) and Pirate
Weather's `minutely` block (docs/API.md: `minutely.data`, one point a minute
for 60 minutes, each with `time`, `precipIntensity`, `precipProbability`,
`precipIntensityError`, `precipType`; -999 for missing data; a probability
of 0 may be left out).

Run as a script, it writes the fixed fixtures in Tests/Fixtures from raind's
own recorded-shape responses (Paris for Open-Meteo, Boston for Pirate
Weather); the integration tests build the same shapes around the present
moment."""
import copy
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures"

# Open-Meteo rows: row k's value is the rain of the quarter hour before it.
OPEN_METEO = {
    "none": [0.0] * 10,
    # Dry, dry, then three quarters of 0.3 mm (1.2 mm/h, light), then dry.
    "starting": [0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0],
    # Raining now, three quarters of 1.0 mm (4 mm/h, moderate), then dry.
    "stopping": [0.8, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    # Light now, a dry quarter, a heavy quarter (10 mm/h), dry, light, dry.
    "intermittent": [0.0, 0.2, 0.0, 2.5, 0.0, 0.2, 0.0, 0.0, 0.0, 0.0],
    # Rain from the third quarter, then -999, null, a negative value, and the
    # array two short of the times: the data ends at the -999.
    "invalid": [0.0, 0.0, 0.0, 0.4, -999, None, -0.5, 0.2],
}

# Pirate Weather minutes: (precipIntensity mm/h, precipProbability or None to leave it out).
def _minutes(*spans, total=61):
    points = []
    for count, value in spans:
        points += [value] * count
    points += [(0.0, None)] * (total - len(points))
    return points[:total]

PIRATE_WEATHER = {
    "none": _minutes(),
    # 20 dry minutes, 40 of 1.2 mm/h at 80 %, then dry: the brief's example.
    "starting": _minutes((20, (0.0, None)), (40, (1.2, 0.8))),
    # 25 minutes of 5 mm/h (moderate), then dry.
    "stopping": _minutes((25, (5.0, 0.9))),
    # 10 light minutes, 10 dry, 10 heavy (9 mm/h), then dry.
    "intermittent": _minutes((10, (0.5, 0.7)), (10, (0.0, None)), (10, (9.0, 0.9))),
    # 15 dry minutes (one with probability -999), 15 of 2 mm/h, then -999 intensities.
    "invalid": _minutes((5, (0.0, None)), (1, (0.0, -999)), (9, (0.0, None)), (15, (2.0, 0.6)),
                        (31, (-999, -999))),
}


def openmeteo(base, start, shape):
    """`base` (an Open-Meteo response) with a `minutely_15` block of `shape`
    from `start`; shape "missing" leaves the block out."""
    body = copy.deepcopy(base)
    if shape == "missing":
        return body
    sums = OPEN_METEO[shape]
    body["minutely_15_units"] = {"time": "unixtime", "precipitation": "mm"}
    body["minutely_15"] = {"time": [start + 900 * k for k in range(10)], "precipitation": sums}
    return body


def pirateweather(base, start, shape):
    """`base` (a Pirate Weather response) with a `minutely` block of `shape`
    from `start`; shape "missing" leaves the block out."""
    body = copy.deepcopy(base)
    if shape == "missing":
        return body
    data = []
    for index, (intensity, probability) in enumerate(PIRATE_WEATHER[shape]):
        point = {"time": start + 60 * index, "precipIntensity": intensity}
        if probability is not None:
            point["precipProbability"] = probability
        point["precipIntensityError"] = 0.0 if intensity in (0.0, -999) else round(intensity / 4, 2)
        point["precipType"] = "rain" if intensity not in (0.0, -999) else "none"
        data.append(point)
    body["minutely"] = {"summary": "", "icon": "rain", "data": data}
    return body


# The fixed fixtures start at the base responses' current time.
OPEN_METEO_BASE = "openmeteo-forecast-paris-unixtime.json"
OPEN_METEO_START = 1768466700  # 2026-01-15 08:45 UTC, Paris's `current.time`
PIRATE_WEATHER_BASE = "pirateweather-forecast-boston-si.json"
PIRATE_WEATHER_START = 1768936020  # 2026-01-20 19:07 UTC, Boston's `currently.time`

if __name__ == "__main__":
    om = json.loads((FIXTURES / OPEN_METEO_BASE).read_text())
    pw = json.loads((FIXTURES / PIRATE_WEATHER_BASE).read_text())
    for shape in [*OPEN_METEO, "missing"]:
        path = FIXTURES / f"openmeteo-nowcast-{shape}.json"
        path.write_text(json.dumps(openmeteo(om, OPEN_METEO_START, shape)) + "\n")
    for shape in [*PIRATE_WEATHER, "missing"]:
        path = FIXTURES / f"pirateweather-nowcast-{shape}.json"
        path.write_text(json.dumps(pirateweather(pw, PIRATE_WEATHER_START, shape)) + "\n")
