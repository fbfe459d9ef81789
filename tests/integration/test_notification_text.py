"""What the real raind sends a notification server (tests/fakes/fake_notifications.py
on a private bus) when an alert's words are hostile: markup, entity-encoded
tags and characters that turn text around reach it as text, in the summary
as in the body (issue 32)."""
import json

from raindtest import FixtureServer, FakeNotifications, PrivateBus
from test_notifications import forecast_with_alerts, needs_fakes, pirate_config

TITLE = "<a href=x>Flood</a> &lt;b&gt;now&lt;/b&gt; &#x202E;evil"
DESCRIPTION = "Rising \u2066water\u2069 \u202e<i>fast</i>"


@needs_fakes
def test_a_hostile_headline_reaches_the_server_as_text(daemon_factory, tmp_path):
    directory = tmp_path / "fixtures"
    directory.mkdir()
    forecast_with_alerts(directory, "hostile.json", [("Severe", "urn:h", TITLE)])
    data = json.loads((directory / "hostile.json").read_text())
    data["alerts"][0]["description"] = DESCRIPTION
    (directory / "hostile.json").write_text(json.dumps(data))
    alert_server = FixtureServer(routes=[("/forecast/", "hostile.json")], directory=directory)
    bus = PrivateBus()
    server = FakeNotifications(bus)
    key = tmp_path / "api-key"
    key.write_text("k3y-0123456789\n")
    try:
        daemon = daemon_factory(config=pirate_config(alert_server, key),
                                extra_env={"DBUS_SESSION_BUS_ADDRESS": bus.address})
        daemon.ctl("add", "Paris", check=True)
        shown = server.next()
        assert shown["summary"] == "&lt;a href=x&gt;Flood&lt;/a&gt; &lt;b&gt;now&lt;/b&gt; evil — Paris"
        assert shown["body"].startswith(
            "Severe alert for Paris, Ile-de-France, France: Rising water &lt;i&gt;fast&lt;/i&gt;\n"), shown["body"]
        for text in (shown["summary"], shown["body"]):
            assert not any(0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069 for c in text)
            assert "<" not in text and ">" not in text
    finally:
        server.stop()
        bus.stop()
        alert_server.stop()
