"""The GNOME Shell extension's Varlink client (extensions/gnome/varlinkClient.js)
and its view, run in gjs against the real raind on a temporary socket: the
subscription with its snapshot and events, the calls, raind's errors, the
reconnection with back-off, and peers that misbehave. The IDL stays the
contract: every method the extension calls and every field it reads must be
declared in protocol/io.raind.Weather.varlink."""
import json
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from gjs_driver import EXTENSION, HOLD, FakeSocket, GjsClient, idl_field
from idl_check import INTERFACE, check_reply
from varlink import scanner
from raindtest import change_until_no_subscriber

pytestmark = pytest.mark.skipif(not shutil.which("gjs"), reason="needs gjs (Debian package gjs)")

PARIS = ("48.8534,2.3488", "Paris")
LONDON = ("51.5085,-0.1257", "London")


@pytest.fixture
def gjs():
    clients = []

    def make(**kwargs):
        client = GjsClient(**kwargs)
        clients.append(client)
        return client
    yield make
    for client in clients:
        client.close()


def places(daemon):
    for coords, name in (PARIS, LONDON):
        daemon.ctl("add", "--coords", coords, "--name", name, check=True)
    daemon.ctl("set-location", "paris-fr", check=True)
    daemon.ctl("refresh", "--all", check=True)


def checked(method, report):
    """A call's report, held to the IDL like every reply the suite reads."""
    if report["kind"] == "reply":
        check_reply("io.raind.Weather." + method, {"parameters": report["parameters"]})
    return report


def test_subscribe_gives_the_snapshot_then_events_and_calls_answer(weather_daemon, gjs):
    daemon = weather_daemon()
    places(daemon)
    client = gjs()
    client.send(op="subscribe", paths=[str(daemon.socket)])
    client.state("live")
    snapshot = client.event("Snapshot")
    check_reply("io.raind.Weather.Subscribe", {"parameters": snapshot})
    assert snapshot["selected"] == "paris-fr" and snapshot["forecast"]["current"] is not None

    status = checked("GetStatus", client.call("GetStatus", paths=[str(daemon.socket)]))
    assert status["kind"] == "reply" and status["parameters"]["status"]["subscribers"] == 1
    forecast = checked("GetForecast", client.call("GetForecast", {"id": "london-gb"}, paths=[str(daemon.socket)]))
    assert forecast["parameters"]["location"]["name"] == "London"

    selected = checked("SelectLocation", client.call("SelectLocation", {"id": "london-gb"}, paths=[str(daemon.socket)]))
    assert selected["parameters"]["location"]["id"] == "london-gb"
    event = client.event("LocationSelected")
    check_reply("io.raind.Weather.Subscribe", {"parameters": event})
    assert event["location"]["id"] == "london-gb" and event["forecast"] is not None

    refreshed = checked("Refresh", client.call("Refresh", None, paths=[str(daemon.socket)], timeoutMs=20000))
    assert refreshed["parameters"]["updated"] == ["london-gb"]
    daemon.ctl("add", "--coords", "40.4165,-3.7026", "--name", "Madrid", check=True)
    updated = client.event("WeatherUpdated")
    check_reply("io.raind.Weather.Subscribe", {"parameters": updated})
    assert updated["id"] == "madrid-es" and updated["forecast"]["current"] is not None


def test_raind_errors_reach_the_caller_by_name(weather_daemon, gjs):
    daemon = weather_daemon()
    client = gjs()
    missing = client.call("SelectLocation", {"id": "atlantis"}, paths=[str(daemon.socket)])
    assert missing["kind"] == "error" and missing["error"]["kind"] == "LocationNotFound", missing
    assert missing["error"]["parameters"]["id"] == "atlantis" and "atlantis" in missing["error"]["message"]
    wrong = client.call("GetStatus", {"x": 1}, paths=[str(daemon.socket)])
    assert wrong["error"]["kind"] == "org.varlink.service.InvalidParameter", wrong
    assert wrong["error"]["message"] == "org.varlink.service.InvalidParameter: x: unknown field (none is taken)", wrong


def test_nothing_listening_is_not_running_and_the_next_socket_is_tried(weather_daemon, gjs, tmp_path):
    daemon = weather_daemon()
    client = gjs()
    nowhere = str(tmp_path / "nowhere" / "raind.sock")
    answer = client.call("GetStatus", paths=[nowhere, str(daemon.socket)])
    assert answer["kind"] == "reply", "the second candidate answers when the first is absent"
    answer = client.call("GetStatus", paths=[nowhere])
    assert answer["error"]["kind"] == "NotRunning" and nowhere in answer["error"]["message"], answer


def test_a_restart_of_raind_is_followed_with_back_off_and_a_new_snapshot(weather_daemon, gjs):
    daemon = weather_daemon()
    places(daemon)
    client = gjs()
    client.send(op="subscribe", paths=[str(daemon.socket)], backoffMs=[200, 1600])
    client.event("Snapshot")
    daemon.stop()
    client.until(lambda r: r["kind"] == "state" and r["state"] == "down" and r["error"]["kind"] == "NotRunning",
                 what="not running")
    down_at = time.monotonic()
    # Down for a while: the retries back off (200, 400, 800, 1600, 1600 ms ...), no busy loop.
    first = client.seen[-1]["attempts"]
    client.until(lambda r: r["kind"] == "state" and r["state"] == "connecting" and r["attempts"] >= first + 4,
                 timeout=10, what="four retries")
    elapsed = time.monotonic() - down_at
    assert elapsed >= 0.2 + 0.4 + 0.8 - 0.1, f"four retries in {elapsed:.2f}s: no back-off"
    daemon.start()
    snapshot = client.event("Snapshot", timeout=5)
    assert snapshot["selected"] == "paris-fr"


def test_a_subscriber_that_fell_behind_is_dropped_and_comes_back(weather_daemon, gjs):
    daemon = weather_daemon()
    places(daemon)
    client = gjs()
    client.send(op="subscribe", paths=[str(daemon.socket)])
    client.event("Snapshot")
    # The gjs process stopped: it reads nothing, and raind drops it as too slow (its real error).
    client.process.send_signal(signal.SIGSTOP)
    try:
        change_until_no_subscriber(daemon)
    finally:
        client.process.send_signal(signal.SIGCONT)
    dropped = client.until(lambda r: r["kind"] == "state" and r["state"] == "down", timeout=30, what="the drop")
    assert dropped["error"]["kind"] == "SubscriberTooSlow", dropped
    assert dropped["error"]["parameters"]["queuedBytes"] > 0
    client.event("Snapshot", timeout=5)


def test_permission_denied_is_an_error_of_its_own(gjs, tmp_path):
    # raind's refusal as docs/PROTOCOL.md writes it (a user instance turning away another user):
    # this machine's tests run as one user, so a socket says it.
    path = tmp_path / "run" / "raind.sock"

    def refuse(connection, received):
        connection.sendall(json.dumps({"error": "io.raind.Weather.PermissionDenied", "parameters": {
            "message": "raind of uid 1000 serves only its user"}}).encode() + b"\0")
        connection.close()
    fake = FakeSocket(path, refuse, at_accept=True)
    try:
        client = gjs()
        answer = client.call("Refresh", None, paths=[str(path)])
        assert answer["error"]["kind"] == "PermissionDenied", answer
        assert answer["error"]["message"] == "raind of uid 1000 serves only its user"
    finally:
        fake.stop()


@pytest.mark.parametrize("misbehaviour,kind", [
    ("garbage", "Unreadable"),
    ("not-an-object", "Unreadable"),
    ("oversize", "TooLarge"),
    ("silent", "Timeout"),
    ("no-snapshot", "Unreadable"),
])
def test_a_peer_that_misbehaves_is_an_error_and_the_client_recovers(weather_daemon, gjs, misbehaviour, kind):
    daemon = weather_daemon(start=False)
    behaviours = {
        "garbage": lambda c, r: c.sendall(b"\x89PNG\r\n\x1a\n{not json\0"),
        "not-an-object": lambda c, r: c.sendall(b"[1,2,3]\0"),
        "oversize": lambda c, r: c.sendall(b"{\"parameters\":{\"event\":\"Snapshot\",\"x\":\"" + b"a" * 300000),
        "silent": lambda c, r: HOLD,
        "no-snapshot": lambda c, r: c.sendall(b'{"parameters":{"event":"WeatherUpdated"},"continues":true}\0'),
    }
    fake = FakeSocket(daemon.socket, behaviours[misbehaviour])
    client = gjs()
    client.send(op="subscribe", paths=[str(daemon.socket)], maxMessageBytes=65536, replyTimeoutMs=1000,
                backoffMs=[100, 400])
    down = client.until(lambda r: r["kind"] == "state" and r["state"] == "down", what="the error")
    assert down["error"]["kind"] == kind, down
    view = client.present()["view"]
    assert view["state"] == "error" and view["label"] == "raind error", view
    fake.stop()
    daemon.start()
    daemon.ctl("add", "--coords", PARIS[0], "--name", PARIS[1], check=True)
    client.event("Snapshot", timeout=10)
    view = client.present()["view"]
    assert view["state"] != "error", view


def test_what_the_view_reads_is_in_the_idl(weather_daemon, gjs, fixture_server):
    daemon = weather_daemon()
    places(daemon)
    # A failover and a failure, so the view reads those fields too.
    client = gjs()
    client.send(op="subscribe", paths=[str(daemon.socket)])
    client.event("Snapshot")
    client.present()  # Paris and its forecast
    fixture_server.script(path_prefix="/v1/forecast", count=-1, mode="status", status=500)
    daemon.ctl("add", "--coords", "40.4165,-3.7026", "--name", "Madrid", check=True)
    daemon.ctl("set-location", "madrid-es", check=True)
    client.event("RefreshFailed")
    view = client.present()
    reads = view["reads"]
    assert "Subscribe.forecast.current.temperature" in reads and "Subscribe.failure.message" in reads, reads
    for path in reads:
        idl_field(path)
    with pytest.raises(AssertionError, match="no field 'temperatur'"):
        idl_field("Subscribe.forecast.current.temperatur")


def test_every_method_the_extension_calls_is_in_the_idl():
    calls = []
    for source in sorted(EXTENSION.rglob("*.js")):
        text = source.read_text()
        for method, parameters in re.findall(r"""\b(?:call|send)\(\s*'(\w+)'(?:,\s*(\{[^}]*\}))?""", text):
            calls.append((source.name, method, re.findall(r"(\w+):", parameters)))
    assert {method for _, method, _ in calls} >= {"Subscribe", "SelectLocation", "Refresh"}, calls
    for name, method, fields in calls:
        member = INTERFACE.members.get(method)
        assert member is not None, f"{name} calls {method}, which the IDL does not declare"
        for field in fields:
            assert field in member.in_type.fields, f"{name} gives {method} {field!r}, not in the IDL"


def test_the_view_speaks_german_with_its_conventions(weather_daemon, gjs, tmp_path):
    daemon = weather_daemon()
    places(daemon)
    target = tmp_path / "locale" / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    subprocess.run(["msgfmt", "--check", "-o", str(target / "raind.mo"), str(EXTENSION.parents[1] / "po" / "de.po")],
                   check=True)
    client = gjs(env={"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": ""})
    client.send(op="subscribe", paths=[str(daemon.socket)])
    client.event("Snapshot")
    view = client.present(locale="de-DE", localeDir=str(tmp_path / "locale"))["view"]
    text = json.dumps(view, ensure_ascii=False)
    assert "Gefühlt" in text and "Wind" in text, text
    assert re.search(r"Aktualisiert", text), text
    assert not re.search(r"\d\s?(AM|PM)", text), "German times are on a 24-hour clock"
    assert re.fullmatch(r"\d\d:\d\d", view["lines"]["hours"][0]["time"]), view["lines"]["hours"]
    assert any(re.search(r"\d,\d mm", day["rain"]) for day in view["lines"]["days"]), view["lines"]["days"]
    assert view["lines"]["credit"] == "Wetterdaten von Open-Meteo.com (CC BY 4.0)", view["lines"]["credit"]
    english = client.present(locale="en-US")["view"]
    assert english["label"].startswith("Paris ") and "°" in english["label"]
    assert re.fullmatch(r"\d{1,2}:\d\d\s(AM|PM)", english["lines"]["hours"][0]["time"]), english["lines"]["hours"]
    assert any(re.search(r"\d\.\d mm", day["rain"]) for day in english["lines"]["days"]), english["lines"]["days"]


def test_the_view_says_which_values_came_from_another_station(daemon_factory, gjs, tmp_path):
    """Bright Sky's temperature and humidity from a neighbour 21 km away and
    120 m higher: the menu says so, as `raindctl now` does (issue 32)."""
    from test_provenance import berlin, serve_berlin
    server = serve_berlin(tmp_path, height_difference=120)
    try:
        daemon = berlin(daemon_factory, server)
        client = gjs()
        client.send(op="subscribe", paths=[str(daemon.socket)])
        client.event("Snapshot")
        view = client.present(locale="en-GB")["view"]
        assert "Temperature, humidity from Nachbarstation, 21 km, 120 m higher" in view["lines"]["current"], view
        # The provider's credit is shown where its data is.
        assert view["lines"]["credit"] and "Bright Sky" in view["lines"]["credit"], view["lines"]
    finally:
        server.stop()


def test_raind_starting_is_noticed_before_the_back_off_ends(weather_daemon, gjs):
    daemon = weather_daemon()
    places(daemon)
    client = gjs()
    # A long back-off: only the socket appearing can bring the client back quickly.
    client.send(op="subscribe", paths=[str(daemon.socket)], backoffMs=[20000, 60000])
    client.event("Snapshot")
    daemon.stop()
    client.until(lambda r: r["kind"] == "state" and r["state"] == "down", what="not running")
    started = time.monotonic()
    daemon.start()
    client.event("Snapshot", timeout=10)
    assert time.monotonic() - started < 10, "reconnected by the back-off, not when the socket appeared"


def test_every_field_the_view_names_is_in_the_idl():
    # Beside the fields recorded from real replies (above), the ones named on
    # paths the suite's data does not take (a failover, air, polar days, the nowcast).
    fields = set()

    def collect(kind):
        if isinstance(kind, scanner._Struct):
            for name, field in kind.fields.items():
                fields.add(name)
                collect(field)
        elif isinstance(kind, (scanner._Maybe, scanner._Array, scanner._Dict)):
            collect(kind.element_type)
    for member in INTERFACE.members.values():
        for kind in (getattr(member, "type", None), getattr(member, "in_type", None), getattr(member, "out_type", None)):
            collect(kind)
    wire = r"\b(?:forecast|current|hour|day|today|alert|air|failover|nowcast|status|event|failed|place|value|source)\??\.(\w+)\b(?!\s*\()"
    named = set()
    for name in ("weatherModel.js", "weatherView.js"):
        named |= set(re.findall(wire, (EXTENSION / name).read_text()))
    # Names of the JS objects the model builds itself, not read from the wire.
    own = {"name", "id", "country", "error", "message", "time", "units", "online", "staleAfterMinutes", "provider",
           "severity", "title", "onset", "end"}
    unknown = {name for name in named if name not in fields and name not in own}
    assert not unknown, f"the view names fields the IDL does not have: {sorted(unknown)}"
    assert {"failover", "polar", "uvCategory", "precipAccumulation", "reason", "summary", "sources",
            "station", "heightDifferenceMetres"} <= named, sorted(named)


# --- One source for GNOME 43 and 45 (docs/DESKTOP.md): the shared files are ES
# modules; GNOME 43/44's entry (extension.js) imports them with import(), GNOME
# 45's (gnome45/extension.js) with import declarations. The 43 entry runs in
# GNOME Shell 43 (tests/desktop/test_gnome_shell.py); GNOME 45 is not here, so
# its entry is loaded in gjs as far as anything but GNOME Shell's own modules goes.
SHARED = ("varlinkClient.js", "weatherModel.js", "weatherView.js", "indicator.js")
# Where GNOME Shell 43 keeps St and mutter's Clutter, which indicator.js imports.
SHELL_TYPELIBS = ("/usr/lib/gnome-shell", "/usr/lib/x86_64-linux-gnu/mutter-11")
LOADER = """import GLib from 'gi://GLib';
const loop = new GLib.MainLoop(null, false);
const exported = {};
Promise.all(ARGV.slice(1).map(name => import(`file://${ARGV[0]}/${name}`).then(module => {
    exported[name] = Object.keys(module);
}))).then(() => print(JSON.stringify({exported})), error => print(JSON.stringify({error: `${error.name}: ${error.message}`})))
    .finally(() => loop.quit());
loop.run();
"""


def load_in_gjs(tmp_path, directory, *names):
    """What gjs -m says when it imports names from directory: their exports, or the first error."""
    loader = tmp_path / "loader.js"
    loader.write_text(LOADER)
    env = {**os.environ, "GI_TYPELIB_PATH": ":".join(SHELL_TYPELIBS), "LD_LIBRARY_PATH": ":".join(SHELL_TYPELIBS)}
    result = subprocess.run(["gjs", "-m", str(loader), str(directory), *names], capture_output=True, text=True,
                            env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_both_entries_share_the_same_modules_and_metadata():
    legacy = json.loads((EXTENSION / "metadata.json").read_text())
    modern = json.loads((EXTENSION / "gnome45" / "metadata.json").read_text())
    assert legacy["shell-version"] == ["43", "44"], legacy
    assert {"45", "46", "47"} <= set(modern["shell-version"]) and min(map(int, modern["shell-version"])) == 45, modern
    assert {k: v for k, v in legacy.items() if k != "shell-version"} == \
        {k: v for k, v in modern.items() if k != "shell-version"}, "the two metadata differ beyond shell-version"
    # One copy of the logic: the gnome45 directory holds its entry and metadata, nothing else.
    assert sorted(p.name for p in (EXTENSION / "gnome45").iterdir()) == ["extension.js", "metadata.json"]
    loaded = re.search(r"const MODULES = \[([^\]]*)\]", (EXTENSION / "extension.js").read_text()).group(1)
    assert tuple(re.findall(r"'([\w.]+)'", loaded)) == SHARED, loaded
    imported = re.findall(r"^import .* from '\./([\w.]+)';$", (EXTENSION / "gnome45" / "extension.js").read_text(), re.M)
    assert tuple(imported) == SHARED, imported


@pytest.mark.skipif(not all(os.path.isdir(d) for d in SHELL_TYPELIBS), reason="needs gnome-shell (St, Clutter)")
def test_the_shared_modules_load_in_gjs_and_export_what_the_entries_import(tmp_path):
    shown = load_in_gjs(tmp_path, EXTENSION, *SHARED)
    assert "error" not in shown, shown
    exported = shown["exported"]
    assert exported["indicator.js"] == ["createIndicator"], exported
    assert {"Subscription", "call", "RaindError", "socketCandidates"} <= set(exported["varlinkClient.js"]), exported
    # Every name the entries and the indicator take from a module is one it exports.
    uses = {"Client": "varlinkClient.js", "Model": "weatherModel.js", "View": "weatherView.js"}
    for source in ("indicator.js", "extension.js", "gnome45/extension.js"):
        for module, name in re.findall(r"\b(Client|Model|View)\.([A-Za-z]\w*)\b", (EXTENSION / source).read_text()):
            assert name in exported[uses[module]], f"{source} uses {module}.{name}, which {uses[module]} does not export"
    for names, module in re.findall(r"^import \{([^}]*)\} from '\./([\w.]+)';$",
                                    (EXTENSION / "gnome45" / "extension.js").read_text(), re.M):
        for name in re.findall(r"\w+", names):
            assert name in exported[module], f"gnome45/extension.js imports {name}, which {module} does not export"


@pytest.mark.skipif(not all(os.path.isdir(d) for d in SHELL_TYPELIBS), reason="needs gnome-shell (St, Clutter)")
def test_the_gnome_45_entry_loads_up_to_gnome_shells_own_modules(tmp_path):
    # Laid out as the package for GNOME 45 installs it (packaging/gnome-shell/build-deb): one directory.
    installed = tmp_path / "raind@raind.github.io"
    installed.mkdir()
    for name in SHARED:
        shutil.copy(EXTENSION / name, installed / name)
    for name in ("extension.js", "metadata.json"):
        shutil.copy(EXTENSION / "gnome45" / name, installed / name)
    shown = load_in_gjs(tmp_path, installed, "extension.js")
    # It parses, and every module of its own loads; the first thing missing is
    # GNOME Shell 45's extension API, which only GNOME Shell 45 has.
    assert shown.get("error", "").startswith(
        "ImportError: Unable to load file from: resource:///org/gnome/shell/extensions/extension.js"), shown
    # (A module of its own missing would be the error instead.)
    (installed / "weatherView.js").unlink()
    shown = load_in_gjs(tmp_path, installed, "extension.js")
    assert "weatherView.js" in shown.get("error", ""), shown
