"""Checks what raind sends against protocol/io.raind.Weather.varlink: every
reply of every call the tests make through Varlink.call, and every Subscribe
reply a Subscriber reads. Parsed with the independent `varlink` package."""
import pathlib

import varlink
from varlink import scanner

IDL = pathlib.Path(__file__).resolve().parents[2] / "protocol" / "io.raind.Weather.varlink"
INTERFACE = varlink.Interface(IDL.read_text())
PREFIX = INTERFACE.name + "."


class Mismatch(AssertionError):
    pass


def _check(value, kind, path):
    if isinstance(kind, scanner._Maybe):
        if value is not None:
            _check(value, kind.element_type, path)
        return
    if value is None:
        raise Mismatch(f"{path}: null where the IDL requires a value")
    if isinstance(kind, scanner._CustomType):
        _check(value, INTERFACE.members[kind.name].type, path)
    elif isinstance(kind, scanner._Struct):
        if not isinstance(value, dict):
            raise Mismatch(f"{path}: expected an object, got {value!r}")
        unknown = set(value) - set(kind.fields)
        if unknown:
            raise Mismatch(f"{path}: fields not in the IDL: {sorted(unknown)}")
        for name, field in kind.fields.items():
            _check(value.get(name), field, f"{path}.{name}")
    elif isinstance(kind, scanner._Enum):
        if value not in kind.fields:
            raise Mismatch(f"{path}: {value!r} is not one of {list(kind.fields)}")
    elif isinstance(kind, scanner._Array):
        if not isinstance(value, list):
            raise Mismatch(f"{path}: expected an array, got {value!r}")
        for index, item in enumerate(value):
            _check(item, kind.element_type, f"{path}[{index}]")
    elif isinstance(kind, scanner._Dict):
        if not isinstance(value, dict):
            raise Mismatch(f"{path}: expected an object, got {value!r}")
        for key, item in value.items():
            _check(item, kind.element_type, f"{path}[{key!r}]")
    elif isinstance(kind, scanner._Object):
        return
    elif isinstance(kind, bool):
        if not isinstance(value, bool):
            raise Mismatch(f"{path}: expected a bool, got {value!r}")
    elif isinstance(kind, int) and not isinstance(kind, bool) and not isinstance(kind, float):
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
            raise Mismatch(f"{path}: expected an int, got {value!r}")
    elif isinstance(kind, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Mismatch(f"{path}: expected a float, got {value!r}")
    elif isinstance(kind, str):
        if not isinstance(value, str):
            raise Mismatch(f"{path}: expected a string, got {value!r}")
    else:
        raise Mismatch(f"{path}: unknown IDL type {kind!r}")


def check_reply(method, reply):
    """Raises Mismatch when a reply to `method` (qualified) is not what the IDL declares."""
    if not method.startswith(PREFIX):
        return
    error = reply.get("error")
    if error is not None:
        if error.startswith(PREFIX):
            name = error[len(PREFIX):]
            member = INTERFACE.members.get(name)
            if not isinstance(member, scanner._Error):
                raise Mismatch(f"error {error} is not declared in the IDL")
            _check(reply.get("parameters", {}), member.type, name)
        return
    member = INTERFACE.members.get(method[len(PREFIX):])
    if member is None:
        return  # the test called an unknown method on purpose; MethodNotFound is checked above
    _check(reply.get("parameters", {}), member.out_type, method)
