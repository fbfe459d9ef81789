"""`raindctl status` reads the status from a tape of raind's reply
(`JSONTape`, `WireReadable`): against a server on a real socket that sends
what a buggy or newer raind could, every reply gets the answer it got when
the status was decoded through `Decodable`, and a status reads whole."""
import json
import os
import socket
import subprocess
import threading

import pytest

from raindtest import RAINDCTL

STATUS = {
    "version": "9.9.9", "uptimeSeconds": 65.0, "provider": "open-meteo", "online": True, "units": "si",
    "refreshMinutes": 30, "locations": 1,
    "selected": {"id": "paris-fr", "name": "Paris", "region": "Île-de-France", "country": "France",
                 "countryCode": "FR", "latitude": 48.85, "longitude": 2.35, "timeZone": "Europe/Paris",
                 "source": {"kind": "geonames", "id": "2988507"}},
    "requestsToday": 3, "callsToday": 3.0, "dailyBudget": 1500.0, "requestsThisMonth": 3, "callsThisMonth": 3.0,
    "subscribers": 2,
    "placeAlertServices": [{"id": "paris-fr", "service": {"source": "meteoalarm"}}],
}


class FakeStatusDaemon:
    """A Varlink server on a temporary socket that answers every call with `reply`, bytes as given."""

    def __init__(self, path, reply):
        self.path, self.reply = str(path), reply
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(4)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            with connection:
                buffer = b""
                while True:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    buffer += chunk
                    while b"\0" in buffer:
                        _, buffer = buffer.split(b"\0", 1)
                        connection.sendall(self.reply + b"\0")


def status_with(reply, tmp_path):
    FakeStatusDaemon(tmp_path / "fake.sock", reply)
    env = dict(os.environ, RAIND_SOCKET=str(tmp_path / "fake.sock"), LANG="C.UTF-8", LANGUAGE="", TZ="UTC")
    return subprocess.run([RAINDCTL, "status"], env=env, capture_output=True, text=True, timeout=10)


def test_a_status_reads_whole(tmp_path):
    result = status_with(json.dumps({"parameters": {"status": STATUS}}).encode(), tmp_path)
    assert result.returncode == 0, result
    assert "raind 9.9.9, up 1 min, open-meteo, online" in result.stdout
    assert "Paris, Île-de-France, France (paris-fr)" in result.stdout
    assert "3 of 1,500 today" in result.stdout
    assert "Alert services: paris-fr: meteoalarm\n" in result.stdout


def test_places_with_the_same_text_share_a_row(tmp_path):
    # Ten places offline said ten times the same; now they share its row, in the order each text came.
    unresolved = "could not resolve the host of https://aviationweather.gov/api/data/metar"
    status = dict(STATUS, locations=4, placeAlertServices=[
        {"id": "delhi-in", "service": {"problem": "no official alert service for this place"}},
        {"id": "paris-fr", "service": {"source": "meteoalarm"}},
        {"id": "tokyo-jp", "service": {"problem": "no official alert service for this place"}},
        {"id": "lyon-fr", "service": {"source": "meteoalarm"}},
    ], placeObservations=[
        {"id": "delhi-in", "problem": unresolved},
        {"id": "paris-fr", "problem": "no station within 25 km"},
        {"id": "tokyo-jp", "problem": unresolved},
        {"id": "lyon-fr", "problem": unresolved},
    ])
    result = status_with(json.dumps({"parameters": {"status": status}}).encode(), tmp_path)
    assert result.returncode == 0, result
    assert ("Alert services: delhi-in, tokyo-jp: none (no official alert service for this\n"
            "                place)\n"
            "                paris-fr, lyon-fr: meteoalarm\n") in result.stdout, result.stdout
    assert ("Stations:       delhi-in, tokyo-jp, lyon-fr: none (could not resolve the host of\n"
            "                https://aviationweather.gov/a…)\n"
            "                paris-fr: none (no station within 25 km)\n") in result.stdout, result.stdout


@pytest.mark.parametrize("reply, exit_code, message", [
    # An error reply: the daemon's error, as for any call.
    (json.dumps({"error": "io.raind.Weather.Offline", "parameters": {}}).encode(), 1, "raindctl: Offline"),
    # Not JSON at all, or cut short.
    (b'{"parameters": {"status": ', 1, "raind sent an unreadable reply"),
    # A field of the wrong kind, a missing one, an unknown spelling: named, with the version hint.
    (json.dumps({"parameters": {"status": dict(STATUS, version=9)}}).encode(), 1,
     "raind sent a reply raindctl cannot read (reply.status.version: expected a string, got a number)"),
    (json.dumps({"parameters": {"status": {k: v for k, v in STATUS.items() if k != "online"}}}).encode(), 1,
     "(reply.status.online: missing)"),
    (json.dumps({"parameters": {"status": dict(STATUS, units="imperial")}}).encode(), 1,
     "(reply.status.units: unknown value 'imperial' (expected us, si, ca, uk))"),
    (json.dumps({"parameters": {"status": dict(STATUS, placeAlertServices=[None])}}).encode(), 1,
     "(reply.status.placeAlertServices[0]: missing (null))"),
    # Parameters that are not an object, or none.
    (json.dumps({"parameters": [1]}).encode(), 1, "raind sent a reply raindctl cannot read"),
    (json.dumps({}).encode(), 1, "(reply.status: missing)"),
])
def test_a_reply_it_cannot_read_is_an_error_that_says_why(tmp_path, reply, exit_code, message):
    result = status_with(reply, tmp_path)
    assert result.returncode == exit_code, result
    assert message in result.stderr, result.stderr
    assert result.stdout == ""
