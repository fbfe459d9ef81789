"""Varlink on the socket: framing, errors, limits, introspection, credentials."""
import json
import os
import socket
import subprocess

import pytest

from raindtest import Varlink, wait_for


def test_pipelined_calls_are_answered_in_order(daemon):
    client = daemon.client()
    payload = b"".join(
        json.dumps({"method": "io.raind.Weather.SetSettings", "parameters": {"refreshMinutes": m}}).encode() + b"\0"
        for m in range(10, 60))
    client.send_raw(payload)
    replies = [client.receive() for _ in range(50)]
    assert [r["parameters"]["settings"]["refreshMinutes"] for r in replies] == list(range(10, 60))


def test_oneway_call_gets_no_reply_but_takes_effect(daemon):
    client = daemon.client()
    client.send("io.raind.Weather.SetSettings", {"units": "uk"}, oneway=True)
    reply = client.call("GetStatus")
    assert reply["parameters"]["status"]["units"] == "uk", "the next reply is GetStatus's, not the oneway call's"


@pytest.mark.parametrize("raw, error, field", [
    (b"not json", "org.varlink.service.InvalidParameter", "message"),
    (b"[1,2]", "org.varlink.service.InvalidParameter", ""),
    (b'{"parameters":{}}', "org.varlink.service.InvalidParameter", "method"),
    (b'{"method":"io.raind.Weather.GetStatus","parameters":[]}', "org.varlink.service.InvalidParameter", "parameters"),
    (b'{"method":"io.raind.Weather.Nope"}', "org.varlink.service.MethodNotFound", None),
    (b'{"method":"com.example.Other.Call"}', "org.varlink.service.InterfaceNotFound", None),
    (b'{"method":"io.raind.Weather.AddLocation","parameters":{"latitude":"north","longitude":1,"name":"x"}}',
     "org.varlink.service.InvalidParameter", "latitude"),
    (b'{"method":"io.raind.Weather.SetSettings","parameters":{"units":3}}', "org.varlink.service.InvalidParameter", "units"),
    (b'{"method":"io.raind.Weather.SetSettings","parameters":{"colour":"blue"}}', "org.varlink.service.InvalidParameter", "colour"),
    (b'{"method":"io.raind.Weather.SetSettings","parameters":{"refreshMinutes":2}}', "org.varlink.service.InvalidParameter", "refreshMinutes"),
    (b'{"method":"io.raind.Weather.Subscribe"}', "org.varlink.service.ExpectedMore", None),
    (b'{"method":"io.raind.Weather.AddLocation","parameters":{"latitude":95,"longitude":1,"name":"x"}}',
     "org.varlink.service.InvalidParameter", "latitude"),
    (b'{"method":"io.raind.Weather.RemoveLocation","parameters":{}}', "org.varlink.service.InvalidParameter", "id"),
    (b'\xff\xfe{', "org.varlink.service.InvalidParameter", "message"),
    (b"[" * 10000, "org.varlink.service.InvalidParameter", "message"),
], ids=lambda value: value[:24].decode(errors="replace") if isinstance(value, bytes) else None)
def test_bad_calls_get_varlink_errors_and_the_daemon_keeps_serving(daemon, raw, error, field):
    client = daemon.client()
    client.send_raw(raw + b"\0")
    reply = client.receive()
    assert reply.get("error") == error, reply
    if field is not None:
        assert reply["parameters"].get("parameter") == field, reply
    # Same connection and a new one both still work.
    assert "status" in client.call("GetStatus")["parameters"]
    assert "status" in daemon.client().call("GetStatus")["parameters"]


def test_oversize_message_is_refused_and_connection_closed(daemon):
    client = daemon.client()
    client.send_raw(b'{"method":"io.raind.Weather.GetStatus","parameters":{"x":"' + b"a" * 200_000)
    reply = client.receive()
    assert reply["error"] == "org.varlink.service.InvalidParameter"
    assert "exceeds" in reply["parameters"]["reason"]
    with pytest.raises((ConnectionError, OSError)):
        client.receive()
    assert "status" in daemon.client().call("GetStatus")["parameters"]


def test_client_that_disconnects_mid_message_does_not_hurt(daemon):
    for _ in range(20):
        client = daemon.client()
        client.send_raw(b'{"method":"io.raind.Weather.Get')
        client.close()
    assert "status" in daemon.client().call("GetStatus")["parameters"]


def test_maximum_clients_is_enforced(daemon_factory):
    daemon = daemon_factory(config="[Socket]\nMaxClients=3\n")
    wait_for(lambda: daemon.connections() == 0, what="raind to close the start-up probe's connection")
    held = [daemon.client() for _ in range(3)]
    for client in held:
        client.call("GetStatus")
    extra = daemon.client()
    reply = extra.receive()
    assert "error" in reply and "too many clients" in reply["parameters"]["message"]
    held[0].close()
    wait_for(lambda: daemon.connections() == 2, what="raind to close the connection let go")
    assert "status" in daemon.client().call("GetStatus")["parameters"]


def test_slow_subscriber_is_dropped_not_waited_for(daemon):
    slow = daemon.client()
    slow.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.send("io.raind.Weather.Subscribe", more=True)
    fast = daemon.client()
    # ~2 MiB of SettingsChanged events that the slow subscriber never reads.
    batch = b"".join(
        json.dumps({"method": "io.raind.Weather.SetSettings", "parameters": {"refreshMinutes": 5 + i % 2}}).encode() + b"\0"
        for i in range(1000))
    dropped = False
    for _ in range(30):
        fast.send_raw(batch)
        for _ in range(1000):
            fast.receive()
        if fast.call("GetStatus")["parameters"]["status"]["subscribers"] == 0:
            dropped = True
            break
    assert dropped, "the slow subscriber was dropped, not waited for: the fast client got every reply meanwhile"
    assert "too slow" in daemon.read_log()
    # What the slow client can still read ends in SubscriberTooSlow or a closed socket, never a hang.
    slow.sock.settimeout(5)
    last = None
    try:
        while True:
            last = slow.receive()
    except (ConnectionError, json.JSONDecodeError):
        pass
    assert last is None or last.get("error") in (None, "io.raind.Weather.SubscriberTooSlow")


def test_overlong_name_is_refused(daemon):
    reply = daemon.client().call("AddLocation", {"latitude": 1, "longitude": 1, "name": "x" * 201})
    assert reply["error"] == "org.varlink.service.InvalidParameter" and reply["parameters"]["parameter"] == "name"


def test_introspection_serves_the_idl_file(daemon):
    from raindtest import ROOT
    client = daemon.client()
    info = client.call("org.varlink.service.GetInfo")["parameters"]
    assert info["interfaces"] == ["org.varlink.service", "io.raind.Weather"]
    description = client.call("org.varlink.service.GetInterfaceDescription",
                              {"interface": "io.raind.Weather"})["parameters"]["description"]
    assert description == (ROOT / "protocol" / "io.raind.Weather.varlink").read_text()
    missing = client.call("org.varlink.service.GetInterfaceDescription", {"interface": "x.Y"})
    assert missing["error"] == "org.varlink.service.InterfaceNotFound"


def test_introspection_serves_the_service_idl_file(daemon):
    from raindtest import ROOT
    client = daemon.client()
    description = client.call("org.varlink.service.GetInterfaceDescription",
                              {"interface": "org.varlink.service"})["parameters"]["description"]
    assert description == (ROOT / "protocol" / "org.varlink.service.varlink").read_text()
    refused = client.call("org.varlink.service.GetInterfaceDescription", {"interface": "org.varlink.service", "x": 1})
    assert refused["error"] == "org.varlink.service.InvalidParameter" and refused["parameters"]["parameter"] == "x"


@pytest.mark.parametrize("method, error, parameters", [
    ("io.raind.Weather.Nope", "org.varlink.service.MethodNotFound", {"method": "io.raind.Weather.Nope"}),
    ("io.raind.Weather.", "org.varlink.service.MethodNotFound", {"method": "io.raind.Weather."}),
    ("org.varlink.service.Nope", "org.varlink.service.MethodNotFound", {"method": "org.varlink.service.Nope"}),
    ("com.example.Other.Call", "org.varlink.service.InterfaceNotFound", {"interface": "com.example.Other"}),
    ("io.raind.Weather", "org.varlink.service.InterfaceNotFound", {"interface": "io.raind"}),
    ("GetStatus", "org.varlink.service.InterfaceNotFound", {"interface": ""}),
])
def test_unknown_methods_and_interfaces_name_what_was_not_found(daemon, method, error, parameters):
    client = daemon.client()
    client.send(method)
    reply = client.receive()
    assert reply == {"error": error, "parameters": parameters}
    assert "status" in client.call("GetStatus")["parameters"]


def test_python_varlink_package_can_introspect_and_call(daemon):
    varlink = pytest.importorskip("varlink")
    with varlink.Client(address=f"unix:{daemon.socket}") as client:
        with client.open("io.raind.Weather") as weather:
            status = weather.GetStatus()
            assert status["status"]["version"]
            added = weather.AddLocation(latitude=59.91, longitude=10.75, name="Oslo")
            assert added["location"]["id"] == "oslo-no"
            with pytest.raises(varlink.VarlinkError) as raised:
                weather.RemoveLocation(id="oslo-no")
            assert raised.value.error() == "io.raind.Weather.LocationIsSelected"


SYSTEM_PYTHON = "/usr/bin/python3"
needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists(SYSTEM_PYTHON), reason="needs root and /usr/bin/python3 to act as another user")


def as_nobody(code):
    return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", SYSTEM_PYTHON, "-c", code],
                          capture_output=True, text=True, timeout=10)


@needs_root
def test_other_users_are_turned_away_in_user_instance(daemon_factory, open_dir):
    sock = open_dir / "raind.sock"
    daemon = daemon_factory(args=("--socket", str(sock)), start=False)
    daemon.socket = sock
    daemon.start()
    os.chmod(sock, 0o666)  # let the kernel pass the connection so SO_PEERCRED decides
    probe = (
        "import socket,json;s=socket.socket(socket.AF_UNIX);s.connect(%r)\n"
        "try: s.sendall(b'{\"method\":\"io.raind.Weather.GetStatus\"}\\0')\n"
        "except BrokenPipeError: pass  # raind may have answered and closed already\n"
        "print(s.recv(4096).split(b'\\0')[0].decode())" % str(sock))
    result = as_nobody(probe)
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert reply["error"] == "io.raind.Weather.PermissionDenied"
    assert "uid 65534" in reply["parameters"]["message"]
    assert "status" in daemon.client().call("GetStatus")["parameters"], "root (the owner here) gets in"


@needs_root
def test_system_instance_lets_anyone_read_but_only_root_change(daemon_factory, tmp_path, open_dir):
    runtime = open_dir / "sysrun"
    runtime.mkdir()
    daemon = daemon_factory(args=("--system",), start=False, extra_env={
        "RUNTIME_DIRECTORY": str(runtime), "STATE_DIRECTORY": str(tmp_path / "lib"),
        "CACHE_DIRECTORY": str(tmp_path / "cachedir"), "CONFIGURATION_DIRECTORY": str(tmp_path / "etc")})
    daemon.socket = runtime / "raind.sock"
    daemon.start()
    os.chmod(runtime, 0o755)
    os.chmod(daemon.socket, 0o666)
    probe = (
        "import socket,json;s=socket.socket(socket.AF_UNIX);s.connect(%r);"
        "s.sendall(b'{\"method\":\"io.raind.Weather.GetStatus\"}\\0'"
        "+b'{\"method\":\"io.raind.Weather.SetSettings\",\"parameters\":{\"units\":\"us\"}}\\0');"
        "b=b''\nwhile b.count(b'\\0')<2: b+=s.recv(65536)\n"
        "print(json.dumps([json.loads(x) for x in b.split(b'\\0') if x]))" % str(daemon.socket))
    result = as_nobody(probe)
    assert result.returncode == 0, result.stderr
    status, change = json.loads(result.stdout)
    assert "status" in status["parameters"]
    assert change["error"] == "io.raind.Weather.PermissionDenied"
    assert (tmp_path / "lib" / "state.json").exists() is False, "a refused change writes nothing"


def test_idl_check_sees_a_reply_that_breaks_the_idl():
    """The reply check used by every test can fail: an undeclared field, a
    missing required one, a wrong type and an undeclared error are all seen."""
    import pytest
    from idl_check import Mismatch, check_reply
    method = "io.raind.Weather.SetSettings"
    check_reply(method, {"parameters": {"settings": {"units": "si", "refreshMinutes": None}}})
    for bad in (
        {"parameters": {"settings": {"units": "si"}, "extra": 1}},
        {"parameters": {}},
        {"parameters": {"settings": {"units": "kelvin"}}},
        {"parameters": {"settings": {"units": "si", "refreshMinutes": "15"}}},
        {"error": "io.raind.Weather.NoSuchError", "parameters": {}},
        {"error": "io.raind.Weather.Offline", "parameters": {}},
    ):
        with pytest.raises(Mismatch):
            check_reply(method, bad)
