#!/usr/bin/python3
"""A fake systemd-timedated for raind's tests, on the bus in DBUS_SYSTEM_BUS_ADDRESS.

Owns org.freedesktop.timedate1 and serves /org/freedesktop/timedate1 with the
Timezone property (Properties.Get/GetAll). Commands on stdin, one per line,
each answered "ok COMMAND":

    timezone ZONE   sets Timezone and emits PropertiesChanged with the new
                    value, as timedated does after SetTimezone

    fake_timedated.py [--timezone ZONE]

Prints "ready" once it owns the name. Needs python3-dbus and python3-gi.
"""
import argparse
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BUS_NAME = "org.freedesktop.timedate1"
PATH = "/org/freedesktop/timedate1"
IFACE = "org.freedesktop.timedate1"
PROPS_IFACE = "org.freedesktop.DBus.Properties"


class Timedated(dbus.service.Object):
    def __init__(self, bus, zone):
        super().__init__(bus, PATH)
        self.props = {"Timezone": dbus.String(zone), "LocalRTC": dbus.Boolean(False), "NTP": dbus.Boolean(True)}

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.props[name]

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary(self.props if interface == IFACE else {}, signature="sv")

    @dbus.service.signal(PROPS_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def set_zone(self, zone):
        self.props["Timezone"] = dbus.String(zone)
        self.PropertiesChanged(IFACE, dbus.Dictionary({"Timezone": dbus.String(zone)}, signature="sv"),
                               dbus.Array([], signature="s"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timezone", default="UTC")
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    service = Timedated(bus, args.timezone)
    name = dbus.service.BusName(BUS_NAME, bus, do_not_queue=True)

    def command(source, condition):
        line = sys.stdin.readline()
        if not line:
            return False
        words = line.split()
        if len(words) == 2 and words[0] == "timezone":
            service.set_zone(words[1])
        print("ok " + line.strip(), flush=True)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, command)
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    main()
