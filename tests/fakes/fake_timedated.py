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

import dbus
import dbus.service

import fakebus

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
    bus = fakebus.system_bus()
    service = Timedated(bus, args.timezone)
    name = dbus.service.BusName(BUS_NAME, bus, do_not_queue=True)

    def command(words):
        if len(words) != 2 or words[0] != "timezone":
            return False
        service.set_zone(words[1])
        return True

    fakebus.serve(command)
    del name


if __name__ == "__main__":
    main()
