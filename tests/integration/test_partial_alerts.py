"""A failure is never silence: MeteoAlarm's feed (the fixture server on
loopback) lists two warnings whose CAP documents cannot be fetched. raind
shows the warnings it could not read, with why, in `now`, `status`, their
`--json` and the bar's tooltip, and asks for them again at the next poll."""
import json
import re
import shutil
import signal
import time

import pytest

from raindtest import FIXTURES, RECORDED_AT, FixtureServer, wait_for
from test_bars import Lines, parsed
from raindtest import RAINDCTL

FORECAST = "openmeteo-forecast-paris-unixtime.json"
FEED = "/feeds/meteoalarm-legacy-atom-france"


def entry(identifier, document, now):
    """One feed entry as MeteoAlarm writes it (the shape of
    Tests/Fixtures/alerts/meteoalarm-atom-france.xml), in force now."""
    def iso(moment):
        return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(moment))
    return f"""<entry>
  <cap:areaDesc>Paris</cap:areaDesc><cap:event>Moderate thunderstorm warning</cap:event>
  <cap:sent>{iso(now - 3600)}</cap:sent><cap:expires>{iso(now + 6 * 3600)}</cap:expires>
  <cap:effective>{iso(now - 3600)}</cap:effective><cap:onset>{iso(now - 1800)}</cap:onset>
  <cap:severity>Moderate</cap:severity><cap:message_type>Alert</cap:message_type>
  <cap:status>Actual</cap:status><cap:identifier>{identifier}</cap:identifier>
  <link href="{document}" type="application/cap+xml"/>
  <id>{identifier}</id><title>Moderate thunderstorm warning issued for France - Paris</title>
  <updated>{iso(now - 3600)}</updated>
</entry>"""


@pytest.fixture
def meteoalarm(tmp_path):
    directory = tmp_path / "answers"
    directory.mkdir()
    shutil.copy(FIXTURES / FORECAST, directory / FORECAST)
    server = FixtureServer(routes=[("/v1/forecast", FORECAST), (FEED, "feed.xml")], directory=directory,
                           present={FORECAST: RECORDED_AT[FORECAST]})
    now = time.time()
    # The documents' addresses are https (MeteoAlarm's are), on a port that
    # speaks plain HTTP: the feed answers, every document fails.
    base = f"https://127.0.0.1:{server.port}/api/v1/warnings/feeds-france"
    entries = [entry("2.49.0.0.250.0.FR.TEST.1", f"{base}/one", now),
               entry("2.49.0.0.250.0.FR.TEST.2", f"{base}/two", now)]
    (directory / "feed.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">\n'
        '<id>tag:meteoalarm.org,2021-02-19:FR</id><title>Meteoalarm</title>\n' + "\n".join(entries) + "\n</feed>\n")
    yield server
    server.stop()


def test_warnings_whose_documents_cannot_be_fetched_are_shown_as_unread_and_asked_again(
        daemon_factory, meteoalarm):
    config = (f"[Provider]\nName=open-meteo\nBaseURL={meteoalarm.url}\nTimeoutSec=3\n"
              f"[Alerts]\nBaseURL={meteoalarm.url}\n")
    daemon = daemon_factory(config=config)
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)

    def polled():
        forecast = daemon.client().call("GetForecast", {"id": "paris-fr"})["parameters"]["forecast"]
        service = (forecast or {}).get("alertService") or {}
        return forecast if service.get("checkedAt") else None
    forecast = wait_for(polled, what="the feed polled and its documents tried")
    service = forecast["alertService"]
    assert service["source"] == "meteoalarm"
    # Never "checked just now" with no problem: two warnings, and why they were not read.
    assert service["unread"] == 2, service
    assert service["problem"].startswith("2 warnings could not be read: "), service
    reason = service["problem"][len("2 warnings could not be read: "):]
    assert reason, service
    assert forecast["alerts"] == []

    now = daemon.ctl("now", check=True).stdout
    assert "Official alerts from meteoalarm: 2 warnings could not be read (" in now, now
    # A row past 80 columns continues under its value; read it as one line.
    status = re.sub(r"\n +", " ", daemon.ctl("status", check=True).stdout)
    assert "meteoalarm, checked " in status and "; 2 warnings could not be read (" in status, status
    shown = json.loads(daemon.ctl("now", "--json", check=True).stdout)
    assert shown["forecast"]["alertService"]["unread"] == 2, shown["forecast"]["alertService"]
    listed = json.loads(daemon.ctl("status", "--json", check=True).stdout)
    [place] = listed["placeAlertServices"]
    assert place["service"]["unread"] == 2 and place["service"]["problem"] == service["problem"], place

    bar = Lines([RAINDCTL, "--socket", str(daemon.socket), "subscribe", "--format", "waybar"], daemon.env)
    try:
        line = bar.until(lambda line: "could not be read" in line, what="the tooltip saying so")
        assert "Official alerts from meteoalarm: 2 warnings could not be read (" in parsed(line)["tooltip"]
    finally:
        bar.stop()

    # Asked again at the next poll (a reload polls at once): each document tried anew.
    tried = daemon.read_log().count("/feeds-france/one: ")
    assert tried == 1, daemon.read_log()
    daemon.process.send_signal(signal.SIGHUP)
    wait_for(lambda: daemon.read_log().count("/feeds-france/one: ") == 2, what="the documents asked again")
    wait_for(lambda: daemon.read_log().count("/feeds-france/two: ") == 2, what="both")
    again = polled()["alertService"]
    assert again["unread"] == 2 and again["problem"] == service["problem"], again


def test_documents_on_meteoalarms_own_server_are_asked_through_the_alerts_base_url(daemon_factory, tmp_path):
    """`[Alerts] BaseURL=` sends every alert request to one server with each
    service's own paths (docs/ALERTS.md), the CAP documents a MeteoAlarm feed
    names on MeteoAlarm's server included, so a site proxy carries them: the
    feed names https://feeds.meteoalarm.org/api/v1/warnings/feeds-serbia/ID,
    raind asks BASE/api/v1/warnings/feeds-serbia/ID and serves its warning."""
    directory = tmp_path / "answers"
    directory.mkdir()
    shutil.copy(FIXTURES / FORECAST, directory / FORECAST)
    now = time.time()

    def iso(moment):
        return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(moment))
    # The recorded Serbian message (its outline holds Kragujevac), in force now.
    document = (FIXTURES / "alerts/meteoalarm-cap-serbia-sumadija.xml").read_text()
    document = re.sub(r"<sent>[^<]*</sent>", f"<sent>{iso(now - 3600)}</sent>", document)
    document = re.sub(r"<(onset|effective)>[^<]*</\1>", lambda m: f"<{m[1]}>{iso(now - 1800)}</{m[1]}>", document)
    document = re.sub(r"<expires>[^<]*</expires>", f"<expires>{iso(now + 6 * 3600)}</expires>", document)
    (directory / "sumadija.xml").write_text(document)
    address = "https://feeds.meteoalarm.org/api/v1/warnings/feeds-serbia/2.49.0.0.688.0.TEST"
    (directory / "feed.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">\n'
        '<id>tag:meteoalarm.org,2021-02-19:RS</id><title>Meteoalarm</title>\n'
        + entry("2.49.0.0.688.0.TEST", address, now) + "\n</feed>\n")
    server = FixtureServer(routes=[("/v1/forecast", FORECAST), ("/feeds/meteoalarm-legacy-atom-serbia", "feed.xml"),
                                   ("/api/v1/warnings/feeds-serbia/", "sumadija.xml")],
                           directory=directory, present={FORECAST: RECORDED_AT[FORECAST]})
    try:
        config = (f"[Provider]\nName=open-meteo\nBaseURL={server.url}\nTimeoutSec=3\n"
                  f"[Alerts]\nBaseURL={server.url}\n")
        daemon = daemon_factory(config=config)
        place = daemon.client().call("AddLocation", {"latitude": 44.0128, "longitude": 20.9114,
                                                     "name": "Kragujevac"})["parameters"]["location"]

        def served():
            forecast = daemon.client().call("GetForecast", {"id": place["id"]})["parameters"]["forecast"]
            return forecast if forecast and forecast.get("alerts") else None
        forecast = wait_for(served, what=f"the warning read from its document ({daemon.read_log()})")
        assert forecast["alertService"]["source"] == "meteoalarm"
        assert not forecast["alertService"].get("unread") and not forecast["alertService"].get("problem"), forecast
        assert server.count("/api/v1/warnings/feeds-serbia/2.49.0.0.688.0.TEST") == 1, server.stats()
    finally:
        server.stop()
