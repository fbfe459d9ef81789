#!/usr/bin/python3
"""A fake desktop notification server for raind's tests.

Owns org.freedesktop.Notifications on the bus at --address (else
$DBUS_SESSION_BUS_ADDRESS, else $DBUS_SYSTEM_BUS_ADDRESS: the Swift tests' fake
runner sets only the latter) and records every call as one JSON line on
stdout, flushed, after printing "ready":

    {"call": "Notify", "id": 1, "app_name": "raind", "replaces_id": 0,
     "app_icon": "...", "summary": "...", "body": "...", "urgency": 2,
     "expire_timeout": -1}
    {"call": "CloseNotification", "id": 1}

Notify returns a new id, or replaces_id when that notification exists (the
specification's replacement). Needs python3-dbus and python3-gi.
"""
import argparse
import json
import os
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service

import fakebus

BUS_NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
IFACE = "org.freedesktop.Notifications"


def record(fields):
    print(json.dumps(fields), flush=True)


class Server(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.next_id = 1
        self.shown = set()

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        if replaces_id and replaces_id in self.shown:
            nid = int(replaces_id)
        else:
            nid = self.next_id
            self.next_id += 1
        self.shown.add(nid)
        urgency = hints.get("urgency")
        record({"call": "Notify", "id": nid, "app_name": str(app_name), "replaces_id": int(replaces_id),
                "app_icon": str(app_icon), "summary": str(summary), "body": str(body),
                "urgency": None if urgency is None else int(urgency), "expire_timeout": int(expire_timeout)})
        return dbus.UInt32(nid)

    @dbus.service.method(IFACE, in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        self.shown.discard(int(nid))
        record({"call": "CloseNotification", "id": int(nid)})

    @dbus.service.method(IFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body"]

    @dbus.service.method(IFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("fake", "raind tests", "1", "1.2")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address")
    args = parser.parse_args()
    address = args.address or os.environ.get("DBUS_SESSION_BUS_ADDRESS") or os.environ.get("DBUS_SYSTEM_BUS_ADDRESS")
    if not address:
        sys.exit("fake_notifications.py: no bus address (--address or DBUS_SESSION_BUS_ADDRESS)")
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    Server(bus)
    name = dbus.service.BusName(BUS_NAME, bus, do_not_queue=True)
    fakebus.serve()
    del name


if __name__ == "__main__":
    main()
