#!/usr/bin/python3
"""A fake systemd-logind for raind's tests, on the bus in DBUS_SYSTEM_BUS_ADDRESS.

Owns org.freedesktop.login1 and serves what raind's LogindWatcher uses:
Manager.GetSession(s) -> o, the session object's Active/LockedHint properties,
and, on commands read from stdin (one per line), the signals logind sends:

    sleep true|false   Manager.PrepareForSleep(b)
    unlock             Session.Unlock()
    active true|false  PropertiesChanged(Session, {Active: b}, [])
    locked true|false  PropertiesChanged(Session, {LockedHint: b}, [])

Prints "ready" once it owns the name and "ok <command>" after each signal.
Needs python3-dbus and python3-gi (Debian packages).
"""
import dbus
import dbus.service

import fakebus

BUS_NAME = "org.freedesktop.login1"
MANAGER_PATH = "/org/freedesktop/login1"
MANAGER_IFACE = "org.freedesktop.login1.Manager"
SESSION_IFACE = "org.freedesktop.login1.Session"
PROPS_IFACE = "org.freedesktop.DBus.Properties"
SESSION_ID = "1"
SESSION_PATH = "/org/freedesktop/login1/session/_31"


class Manager(dbus.service.Object):
    @dbus.service.method(MANAGER_IFACE, in_signature="s", out_signature="o")
    def GetSession(self, session_id):
        if session_id in (SESSION_ID, "auto", "self", ""):
            return dbus.ObjectPath(SESSION_PATH)
        raise dbus.exceptions.DBusException(
            "No session '%s' known" % session_id, name="org.freedesktop.login1.NoSuchSession")

    @dbus.service.signal(MANAGER_IFACE, signature="b")
    def PrepareForSleep(self, start):
        pass


class Session(dbus.service.Object):
    def __init__(self, bus, path):
        super().__init__(bus, path)
        self.props = {"Id": dbus.String(SESSION_ID), "Active": dbus.Boolean(True), "LockedHint": dbus.Boolean(False)}

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.props[name]

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary(self.props, signature="sv")

    @dbus.service.signal(PROPS_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.signal(SESSION_IFACE, signature="")
    def Unlock(self):
        pass

    def change(self, name, value):
        self.props[name] = dbus.Boolean(value)
        self.PropertiesChanged(SESSION_IFACE, dbus.Dictionary({name: dbus.Boolean(value)}, signature="sv"),
                               dbus.Array([], signature="s"))


def main():
    bus = fakebus.system_bus()
    manager = Manager(bus, MANAGER_PATH)
    session = Session(bus, SESSION_PATH)
    name = dbus.service.BusName(BUS_NAME, bus, do_not_queue=True)

    def command(words):
        if words[:1] == ["sleep"]:
            manager.PrepareForSleep(words[1] == "true")
        elif words[:1] == ["unlock"]:
            session.Unlock()
        elif words[:1] == ["active"]:
            session.change("Active", words[1] == "true")
        elif words[:1] == ["locked"]:
            session.change("LockedHint", words[1] == "true")
        else:
            return False
        return True

    fakebus.serve(command, quit_at_end=True)
    del name


if __name__ == "__main__":
    main()
