"""The Plasma applet's protocol client (desktop/plasma/plugin/RaindClient.cpp):
its QtTest unit tests against the real raind on a temporary socket, and the
wire names it uses held to protocol/io.raind.Weather.varlink."""
import os
import re
import subprocess

import pytest
from varlink import scanner

from idl_check import INTERFACE
from plasmatest import BUILD, SOURCE

CLIENT = SOURCE / "plugin" / "RaindClient.cpp"


@pytest.mark.needs_plasma
def test_client_unit_tests_pass_against_the_real_raind(plasma_build, plasma_daemon):
    daemon = plasma_daemon()
    result = subprocess.run([str(BUILD / "bin" / "RaindClientTest")], capture_output=True, text=True, timeout=180,
                            env={**os.environ, "RAIND_TEST_SOCKET": str(daemon.socket), "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    # Every test ran: none skipped for want of the real raind.
    assert "SKIP" not in result.stdout and "0 skipped" in result.stdout, result.stdout


def wire_names(source):
    """The fields, calls and errors of the client's IDL block."""
    block = re.search(r"// BEGIN IDL NAMES.*?// END IDL NAMES", source, re.S).group(0)
    tables = {}
    for name in ("kFields", "kCalls", "kErrors"):
        body = re.search(name + r"\[\] = \{(.*?)\};", block, re.S).group(1)
        tables[name] = re.findall(r'"([^"]*)"', body)
    return tables


def unwrap(kind):
    """The type inside optionals and arrays, and whether an array was passed."""
    array = False
    while isinstance(kind, (scanner._Maybe, scanner._Array)):
        array = array or isinstance(kind, scanner._Array)
        kind = kind.element_type
    return kind, array


def resolve(kind):
    kind, _ = unwrap(kind)
    while isinstance(kind, scanner._CustomType):
        kind, _ = unwrap(INTERFACE.members[kind.name].type)
    return kind


LEAF = {"s": lambda k: isinstance(k, (str, scanner._Enum)), "n": lambda k: isinstance(k, (int, float)) and not isinstance(k, bool),
        "b": lambda k: isinstance(k, bool), "a": lambda k: False, "o": lambda k: isinstance(k, scanner._Struct)}


def problems(tables):
    """Each name of the tables the IDL does not have, said why."""
    found = []
    for entry in tables["kFields"]:
        path, _, rest = re.match(r"([^:@]+)([:@]?)(.*)", entry).groups()
        parts = path.split(".")
        member = INTERFACE.members.get(parts[0])
        if isinstance(member, scanner._Method):
            kind = member.out_type
        elif member is not None and not isinstance(member, scanner._Error):
            kind = member.type
        else:
            found.append(f"{entry}: {parts[0]} is neither a method nor a type of the IDL")
            continue
        for name in parts[1:]:
            struct = resolve(kind)
            if not isinstance(struct, scanner._Struct) or name not in struct.fields:
                found.append(f"{entry}: no field {name}")
                break
            kind = struct.fields[name]
        else:
            inner, array = unwrap(kind)
            if "@" in entry:
                if not (isinstance(inner, scanner._CustomType) and inner.name == rest):
                    found.append(f"{entry}: the IDL's type there is not {rest}")
            elif rest == "a":
                if not (array and isinstance(inner, str)):
                    found.append(f"{entry}: not an array of strings in the IDL")
            elif not LEAF[rest](inner):
                found.append(f"{entry}: the IDL's type there is not of kind {rest}")
    for entry in tables["kCalls"]:
        name, _, parameters = re.match(r"(\w+)(\((.*)\))?", entry).group(1, 2, 3)
        member = INTERFACE.members.get(name)
        if not isinstance(member, scanner._Method):
            found.append(f"{entry}: no method {name}")
            continue
        for parameter in filter(None, (parameters or "").split(",")):
            if parameter.strip() not in member.in_type.fields:
                found.append(f"{entry}: {name} has no parameter {parameter}")
    for entry in tables["kErrors"]:
        if not isinstance(INTERFACE.members.get(entry), scanner._Error):
            found.append(f"{entry}: no error {entry}")
    return found


def test_every_name_the_client_uses_is_in_the_idl():
    tables = wire_names(CLIENT.read_text())
    assert len(tables["kFields"]) > 50 and tables["kCalls"] and tables["kErrors"], tables
    assert problems(tables) == []


def test_a_name_outside_the_idl_is_caught():
    tables = {"kFields": ["Forecast.current.temperature:n", "Forecast.current.temprature:n", "Current.summary:b",
                          "Forecast.alerts@Hour", "Weather.x:s", "Alert.regions:a"],
              "kCalls": ["SelectLocation(id)", "SelectPlace(id)", "Refresh(place)"],
              "kErrors": ["PermissionDenied", "TooSlow"]}
    assert problems(tables) == [
        "Forecast.current.temprature:n: no field temprature",
        "Current.summary:b: the IDL's type there is not of kind b",
        "Forecast.alerts@Hour: the IDL's type there is not Hour",
        "Weather.x:s: Weather is neither a method nor a type of the IDL",
        "SelectPlace(id): no method SelectPlace",
        "Refresh(place): Refresh has no parameter place",
        "TooSlow: no error TooSlow",
    ]
