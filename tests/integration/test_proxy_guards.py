"""The site proxy's guards (packaging/proxy, docs/DEPLOYMENT-PROXY.md): the
key never goes back to a machine nor into a log, whatever its spelling; the
alert and air paths reach their services once; errors and web pages are never
cached; queries are rewritten as raind writes them and others refused; only
the documented headers reach a provider; the site's budgets and paces hold
against floods; a failing or hanging provider leaves every machine its last
copy. The real nginx with its njs module and raind against the fixture
server, as in test_proxy.py, whose proxy and fleet this file shares."""
import gzip
import http.client
import json
import os
import threading
import time

import pytest

from raindtest import wait_for
from test_proxy import KEY, SITE_AGENT, Proxy, fleet, proxy, storm, upstream  # noqa: F401 (fixtures)
from test_proxy_national import finer


ECHO_STATUSES = [200, 301, 302, 400, 401, 403, 404, 429, 500, 502, 503]


def answers_checked_for_the_key(site, upstream, places):
    """Asks for every place (a format with {} for a cell's hundredths) once
    per scripted answer, each in a cell of its own; returns each answer as
    (target, status, reason, headers, body) for the caller to search, and
    the requests that reached the provider."""
    seen, asked = [], []
    for place in places:
        for index, status in enumerate(ECHO_STATUSES):
            target = place.format(f"{index:02d}")
            asked += list(upstream.stats()["targets"])
            upstream.reset()
            if status in (301, 302):
                upstream.script(path_prefix="/", mode="redirect", hops=1, count=-1)
            else:
                upstream.script(path_prefix="/", mode="echo", status=status, count=-1)
            # A fresh entry each time: the back-off of a failed one would keep the provider from being asked.
            for name in os.listdir(site.prefix / "state"):
                os.unlink(site.prefix / "state" / name)
            connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=20)
            for method in ("GET", "HEAD"):
                connection.request(method, target, headers={"Accept-Encoding": "gzip"})
                response = connection.getresponse()
                body = response.read()
                if response.getheader("Content-Encoding") == "gzip" and body:
                    body = gzip.decompress(body)
                seen.append((target, response.status, response.reason, response.getheaders(), body))
            connection.close()
    return seen, asked + list(upstream.stats()["targets"])


def test_the_key_never_goes_back_nor_into_a_log(proxy, upstream):
    site = proxy()
    targets = ["/forecast/52.{},6.89?units=si", "/forecast/40.{},-74.01", "/forecast/-33.{},151.21?units=ca"]
    seen, asked = answers_checked_for_the_key(site, upstream, targets)
    # The provider was asked, with the key, for every place and answer.
    assert len(asked) == len(targets) * len(ECHO_STATUSES), asked
    assert all(f"/forecast/{KEY}/" in target for target in asked), asked
    leaks = [(target, status) for target, status, reason, headers, body in seen
             if KEY in reason or KEY in json.dumps(headers) or KEY.encode() in body]
    assert not leaks, leaks
    # A redirect is not followed nor passed on; an error's body is the proxy's own text.
    for target, status, _, headers, body in seen:
        names = {name.lower() for name, _ in headers}
        assert "location" not in names and "x-echo" not in names, (target, status, headers)
        if status not in (200, 304) and body:
            assert set(json.loads(body)) == {"error"} and b"/forecast" not in body, (target, status, body)
    # The provider down, hanging, and answering: nginx's logs never hold the key.
    upstream.reset()
    upstream.script(path_prefix="/", mode="stall", delay=30, count=-1)
    for name in os.listdir(site.prefix / "state"):
        os.unlink(site.prefix / "state" / name)
    status, _, _ = site.get("/forecast/1.23,4.56?units=si")
    assert status == 504, status
    upstream.stop()
    status, _, _ = site.get("/forecast/1.24,4.56?units=si")
    assert status == 502, status
    site.stop()
    logs = {name: (site.prefix / "logs" / name).read_text() for name in os.listdir(site.prefix / "logs")}
    assert "upstream.log" in logs and "error.log" in logs, logs.keys()
    assert not [name for name, text in logs.items() if KEY in text], "the key is in nginx's logs"
    print(f"\nkey leaks: {len(seen)} answers checked (statuses {ECHO_STATUSES}, GET and HEAD, "
          f"{len(targets)} places), {len(leaks)} with the key; {len(logs)} log files, 0 with the key")


# What [Alerts] BaseURL= and [Air] BaseURL= send when they name the proxy,
# as raind writes it (docs/ALERTS.md, docs/AIR.md).
ALERT_AND_AIR_TARGETS = [
    ("nws", "/alerts/active?point=45.46,-123.84"),
    ("brightsky", "/alerts?lat=52.52&lon=13.40&tz=Europe%2FBerlin"),
    ("brightsky", "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin"),
    ("metno", "/weatherapi/metalerts/2.0/current.json?lat=59.91&lon=10.75&lang=en"),
    ("eccc", "/collections/weather-alerts/items?f=json&bbox=-79.50,43.55,-79.30,43.75&lang=en&limit=500"),
    ("meteoalarm", "/feeds/meteoalarm-legacy-atom-france"),
    ("meteoalarm", "/api/v1/warnings/feeds-france/04d497d4-d114-4d6b-93ba-13fa7ed577fe"),
    ("open-meteo-air", "/v1/air-quality?latitude=48.85&longitude=2.35&current=european_aqi,uv_index"
                       "&hourly=european_aqi,pm2_5&forecast_hours=48&timezone=auto&timeformat=unixtime"),
]


def test_alert_and_air_paths_reach_their_services_once(proxy, upstream):
    site = proxy()
    for provider, target in ALERT_AND_AIR_TARGETS:
        first = site.get(target)
        again = site.get(target)
        assert first[0] == 200 and again[0] == 200, (provider, first[0], first[2][:200])
        assert again[1]["x-cache-status"] == "HIT", (provider, again[1])
        assert first[2] == again[2]
    asked = list(upstream.stats()["targets"])
    assert sorted(asked) == sorted(target for _, target in ALERT_AND_AIR_TARGETS), asked
    upstream_log = site.upstream_log()
    assert sorted(entry[0] for entry in upstream_log) == sorted(p for p, _ in ALERT_AND_AIR_TARGETS), upstream_log
    # Anything else on those paths is refused, and nothing goes upstream.
    for target in ["/alerts/active?point=45.46,-123.84&x=1", "/alerts/active?area=OR",
                   "/alerts?warn_cell_id=71100&tz=Europe%2FBerlin", "/alerts?warn_cell_id=711000101",
                   "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin&lat=1",
                   "/feeds/meteoalarm-legacy-atom-france?x=1", "/api/v1/warnings/feeds-france/04d497d4?x=1",
                   "/v1/air-quality?latitude=1&longitude=2",
                   "/collections/weather-alerts/items?f=json&bbox=1,2,3,4&lang=de&limit=5"]:
        assert site.get(target)[0] == 400, target
    assert len(upstream.stats()["targets"]) == len(asked)


def test_a_flood_of_distinct_national_requests_is_paced(proxy, upstream):
    site = proxy()
    answers = [site.get(f"/weatherapi/metalerts/2.0/current.json?lat=59.{n:02d}&lon=10.75&lang=en")
               for n in range(80)]
    asked = [t for t in upstream.stats()["targets"] if "metalerts" in t]
    # 30 at once, then one a second: the test's few seconds allow a few more.
    assert 30 <= len(asked) <= 40, len(asked)
    paced = [headers for status, headers, _ in answers if status == 503]
    assert len(paced) == 80 - len(asked), [status for status, _, _ in answers]
    assert all(h.get("retry-after") == "60" and h.get("x-raind-proxy-refused") == "pace" for h in paced), paced[:1]


# The key spelt otherwise in a 200 answer of the expected type: the body
# gzipped with no Content-Encoding, written as JSON \\u escapes, in base64
# (at three alignments), hex, percent-encoding.
ECHO_ENCODINGS = ["gzip", "unicode", "base64", "hex", "percent"]


@pytest.mark.parametrize("encoding", ECHO_ENCODINGS)
def test_the_key_spelt_otherwise_never_goes_back(proxy, upstream, encoding):
    site = proxy()
    upstream.reset()
    upstream.script(path_prefix="/", mode="echo", status=200, encoding=encoding, count=-1)
    status, headers, body = site.get("/forecast/52.22,6.89?units=si", headers={"Accept-Encoding": "identity"})
    assert [t for t in upstream.stats()["targets"] if f"/forecast/{KEY}/" in t], "the provider was asked, with the key"
    import base64 as b64
    spellings = [KEY.encode(), KEY.encode().hex().encode(), "".join("%%%02X" % b for b in KEY.encode()).encode()]
    spellings += [b64.b64encode((lead + KEY).encode())[4 if lead else 0:-4] for lead in ("", "x", "xy")]
    text = body.lower()
    leaks = [s for s in spellings if s.lower() in text or s in body]
    assert not leaks, (encoding, status, body[:300])
    if encoding == "gzip":
        # Not plain JSON: refused, the proxy's own text, never cached.
        assert set(json.loads(body)) == {"error"} and headers.get("cache-control") == "no-store", (status, body)
    else:
        # Plain JSON: passed on, written anew, the key masked wherever it is spelt.
        assert "*" * 8 in body.decode(), body[:300]
    assert not [v for v in headers.values() if KEY.lower() in v.lower()], headers


@pytest.mark.parametrize("name,script,cached_status", [
    # A provider's error with a lifetime: never a HIT for the next machine.
    ("500 with max-age=600", {"mode": "status", "status": 500, "headers": {"Cache-Control": "max-age=600"}}, 500),
    ("404 with Expires in 2037", {"mode": "status", "status": 404,
                                  "headers": {"Expires": "Thu, 01 Jan 2037 00:00:00 GMT"}}, 404),
    # A captive portal's (or a login page's) HTML with 200.
    ("an HTML page with 200", {"mode": "malformed", "headers": {"Content-Type": "text/html",
                                                                "Cache-Control": "max-age=600"}}, 200),
])
def test_errors_and_web_pages_are_never_cached_for_the_next_machine(proxy, upstream, name, script, cached_status):
    site = proxy()
    upstream.script(path_prefix="/v1/forecast", count=-1, **script)
    target = "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m"
    answers = [site.get(target) for _ in range(3)]
    statuses = [(status, headers["x-cache-status"]) for status, headers, _ in answers]
    assert all(cache != "HIT" for _, cache in statuses), (name, statuses)
    status, headers, body = answers[0]
    assert status == cached_status and headers.get("cache-control", "no-store") != "max-age=600", (name, headers)
    if cached_status == 200:
        # The page is the proxy's own short text, so raind says the provider answered with a web page.
        assert headers["content-type"].startswith("text/html") and b"web page" in body, body
        assert b"Service temporarily unavailable" not in body, body
    else:
        assert b"fixture status" not in body and json.loads(body)["error"], body
    if cached_status == 500:
        # A failure: one attempt, then the back-off answers without asking.
        assert upstream.count("/v1/forecast") == 1, upstream.stats()
        assert [h["x-raind-proxy-refused"] for _, h, _ in answers[1:]] == ["backoff"] * 2, answers
    else:
        assert upstream.count("/v1/forecast") == 3, upstream.stats()


def test_queries_are_rewritten_as_raind_writes_them_and_unknown_ones_refused(proxy, upstream):
    site = proxy()
    raind = ("/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m,weather_code"
             "&forecast_days=7&timezone=auto&timeformat=unixtime")
    status, headers, _ = site.get(raind)
    assert status == 200 and headers["x-cache-status"] == "MISS", headers
    # The same question in another order, finer coordinates, encoded commas: one entry.
    for same in ["/v1/forecast?timeformat=unixtime&timezone=auto&forecast_days=7&current=temperature_2m%2Cweather_code"
                 "&longitude=6.8949&latitude=52.2249",
                 "/v1/forecast?latitude=52.220&longitude=6.89&current=temperature_2m,weather_code&forecast_days=7"
                 "&timezone=auto&timeformat=unixtime"]:
        status, headers, _ = site.get(same)
        assert status == 200 and headers["x-cache-status"] == "HIT", (same, headers)
    status, headers, _ = site.get("/forecast/52.2249,6.8949?units=si")
    assert status == 200 and headers["x-cache-status"] == "MISS", headers
    status, headers, _ = site.get("/forecast/52.22,6.89?units=si")
    assert status == 200 and headers["x-cache-status"] == "HIT", headers
    assert sorted(upstream.stats()["targets"]) == [
        f"/forecast/{KEY}/52.22,6.89?units=si",
        "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m,weather_code&forecast_days=7"
        "&timezone=auto&timeformat=unixtime"], upstream.stats()["targets"]
    refused = [
        "/v1/forecast?latitude=52.22&longitude=6.89&apikey=x",
        "/v1/forecast?latitude=52.22&longitude=6.89&latitude=1",
        "/v1/forecast?latitude=52.22",
        "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m,<script>",
        "/v1/forecast?latitude=52.22&longitude=6.89&forecast_days=99",
        "/v1/forecast?latitude=52.22&longitude=6.89&timezone=..%2Fetc",
        "/v1/forecast?latitude=1e1&longitude=6.89",
        "/forecast/52.22,6.89?units=si&lang=de",
        "/forecast/52.22,6.89?units=kelvin",
        "/forecast/52.22,6.89?units=si&units=us",
        "/forecast/52.22,abc",
        "/forecast/95,6.89",
    ]
    for target in refused:
        status, _, body = site.get(target)
        assert status == 400 and json.loads(body)["error"], (target, status, body)
    assert upstream.stats()["total"] == 2


def test_only_the_documented_headers_reach_the_provider(proxy, upstream):
    site = proxy()
    status, _, _ = site.get("/forecast/52.22,6.89?units=si", headers={
        "X-Api-Key": "a-machine-key", "Referer": "http://pupil.example/", "X-Forwarded-For": "10.1.2.3",
        "X-Custom": "x", "Cookie": "session=1", "Authorization": "Bearer a", "User-Agent": "raind/0.1 (pupil)",
        "Accept-Language": "de"})
    assert status == 200
    [(path, headers)] = upstream.stats()["last_headers"].items()
    # docs/DEPLOYMENT-PROXY.md: Host, User-Agent, Accept, Accept-Encoding (and the
    # front's If-Modified-Since or If-None-Match when it revalidates).
    assert set(headers) == {"host", "user-agent", "accept", "accept-encoding"}, headers
    assert headers["user-agent"] == SITE_AGENT and headers["accept-encoding"] == "identity", headers


def budget_site(proxy, daily_open_meteo="10", monthly_pirateweather="4"):
    return proxy(rate="20r/m", burst="burst=40", site={"    open-meteo      10000;": f"    open-meteo      {daily_open_meteo};",
                       "    pirateweather   10000;": f"    pirateweather   {monthly_pirateweather};"})


def flood_from(addresses, port, targets):
    """Each address (127.0.0.x) asks every target: the answers' statuses and headers."""
    answers = []
    lock = threading.Lock()

    def run(address):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(address, 0))
        for target in targets:
            connection.request("GET", target)
            response = connection.getresponse()
            response.read()
            with lock:
                answers.append((response.status, {k.lower(): v for k, v in response.getheaders()}))
        connection.close()

    threads = [threading.Thread(target=run, args=(address,)) for address in addresses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_a_distinct_query_flood_spends_no_more_than_the_sites_budget(proxy, upstream):
    # Open-Meteo: 10 calls a day, raind's request counting 3.1 (31 variables): three requests.
    # The shipped per-machine rate.
    site = budget_site(proxy)
    variables = "temperature_2m,apparent_temperature,relative_humidity_2m,is_day,precipitation,weather_code,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m"
    query = f"&current={variables}&hourly={variables}&daily={variables[:-16]}"
    addresses = [f"127.0.0.{i}" for i in range(2, 12)]
    targets = [f"/v1/forecast?latitude={50 + i / 100:.2f}&longitude=6.89{query}" for i in range(45)]
    answers = flood_from(addresses, site.port, targets)
    assert len(answers) == len(addresses) * len(targets)
    made = upstream.count("/v1/forecast")
    assert made == 3, f"{made} upstream requests for a budget of 3"
    refused = [headers for status, headers in answers if status == 503]
    assert refused and all(h["x-raind-proxy-refused"] == "budget" and 0 < int(h["retry-after"]) <= 86400
                           for h in refused), refused[:3]
    limited = sum(status == 429 for status, _ in answers)
    spent = float(sum(float(line) for line in (site.prefix / "state").glob("spent-open-meteo-????-??-??")
                      .__next__().read_text().split()))
    assert spent <= 10, spent
    # A copy the proxy has, once expired, is served stale and says why.
    upstream.reset()
    upstream.script(path_prefix="/forecast/", headers={"X-Accel-Expires": "@1"}, count=-1)
    pirate = [f"/forecast/40.{i:02d},-74.01?units=si" for i in range(6)]
    first = [site.get(target)[0] for target in pirate]
    assert first == [200] * 4 + [503] * 2, first
    status, headers, _ = site.get(pirate[0])
    assert status == 200 and headers["x-cache-status"] == "STALE", headers
    assert headers.get("x-raind-proxy-refused") == "budget", sorted(headers.items())
    assert upstream.count("/forecast/") == 4
    print(f"\ndistinct-query flood: {len(addresses)} addresses x {len(targets)} distinct queries = {len(answers)} "
          f"requests -> {made} upstream requests ({spent:.1f} of 10 calls; {len(refused)} answered 503 budget, "
          f"{limited} 429 by the per-machine rate); Pirate Weather, 4 calls a month: {upstream.count('/forecast/')} "
          "upstream requests for 6 places, then its copy STALE with X-Raind-Proxy-Refused: budget")


def test_a_storm_while_the_provider_fails_makes_one_attempt_per_entry(proxy, upstream):
    site = proxy()
    target = "/v1/forecast?latitude=52.22&longitude=6.89&current=temperature_2m"
    upstream.script(path_prefix="/v1/forecast", headers={"X-Accel-Expires": "@1"}, date_offset=7200)
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "MISS"
    upstream.reset()
    upstream.script(path_prefix="/v1/forecast", mode="status", status=500, count=-1)
    answers = flood_from(["127.0.0.1"] * 58, site.port, [target])
    assert [status for status, _ in answers] == [200] * 58, answers
    assert all(h["x-cache-status"] in ("STALE", "UPDATING") and int(h["age"]) >= 7200 for _, h in answers), answers
    wait_for(lambda: len(site.upstream_log()) >= 1, timeout=10, what="the attempt in the upstream log")
    passed = upstream.count("/v1/forecast")
    assert passed == 1, f"{passed} of 58 storm requests reached the failing provider"
    # Later requests within the back-off are answered from the copy without asking.
    status, headers, _ = site.get(target)
    assert status == 200 and headers["x-cache-status"] == "STALE" and upstream.count("/v1/forecast") == 1, headers
    print(f"\nstorm while the provider fails: 58 requests -> {passed} passed on to the provider, 58 answered with "
          "the stale copy")


def test_a_hanging_provider_leaves_no_machine_without_the_last_copy(proxy, upstream, fleet):
    site = proxy()
    daemons = fleet(10, site, "open-meteo", extra="")
    upstream.script(path_prefix="/v1/forecast", headers={"X-Accel-Expires": "@1"}, date_offset=7200)
    client = daemons[0].client()
    place = client.call("AddLocation", {"latitude": 52.22, "longitude": 6.89, "name": "Home"})
    assert "error" not in client.call("Refresh", {"id": place["parameters"]["location"]["id"]})
    client.close()
    upstream.reset()
    upstream.script(path_prefix="/v1/forecast", mode="stall", delay=60, count=-1)
    results = []

    def refresh(index, daemon):
        client = daemon.client()
        client.call("AddLocation", {"latitude": 52.2201, "longitude": 6.8901, "name": "Home"})
        started = time.monotonic()
        reply = client.call("Refresh", {"all": True})
        forecast = client.call("GetForecast", {})["parameters"]
        client.close()
        results.append((reply, forecast, time.monotonic() - started))

    storm(daemons[1:], refresh)
    updated = [reply for reply, forecast, _ in results if "error" not in reply and forecast["forecast"]]
    assert len(updated) == len(daemons) - 1, [reply for reply, _, _ in results]
    assert all(forecast["ageSeconds"] >= 7200 and forecast["stale"] for _, forecast, _ in results), results
    slowest = max(seconds for _, _, seconds in results)
    assert slowest < 5, f"a machine waited {slowest:.1f} s for the hanging provider"
    print(f"\nprovider hanging: {len(updated)} of {len(daemons) - 1} machines got the stale copy, "
          f"the slowest in {slowest:.2f} s")


def test_machines_behind_one_address_get_the_sites_limit_when_it_is_listed(proxy, upstream):
    # The shipped limits; 127.0.0.1 as a NAT address with 20 machines behind it.
    site = proxy(rate="20r/m", burst="burst=40",
                 site={"    # 192.0.2.10    20;": "    127.0.0.1       20;"})
    # Twenty machines' refresh --all, six requests each, at once.
    targets = [f"/v1/forecast?latitude=52.2{i}&longitude=6.89" for i in range(6)]
    answers = flood_from(["127.0.0.1"] * 20, site.port, targets)
    refused = sum(status == 429 for status, _ in answers)
    assert len(answers) == 120 and refused == 0, [status for status, _ in answers]
    # Unlisted, the same address is one machine: the same traffic passes its limit.
    other = flood_from(["127.0.0.2"] * 20, site.port, targets)
    assert sum(status == 429 for status, _ in other) > 0
    print(f"\n20 machines behind one listed address: {len(answers)} requests, {refused} refused; "
          f"unlisted: {sum(status == 429 for status, _ in other)} refused")
