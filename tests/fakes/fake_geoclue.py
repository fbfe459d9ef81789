#!/usr/bin/python3
"""A fake GeoClue2 service for raind's tests, on the bus in DBUS_SYSTEM_BUS_ADDRESS.

Owns org.freedesktop.GeoClue2 and serves what raind's GeoClueClient uses:
Manager.GetClient() -> o; a Client with the DesktopId and
RequestedAccuracyLevel properties (Properties.Get/Set/GetAll), Start() and
Stop(), and the LocationUpdated(o old, o new) signal; a Location object with
Latitude, Longitude and Accuracy.

    fake_geoclue.py [--mode ok|deny|silent] [--latitude D] [--longitude D] [--accuracy D]

ok: Start emits LocationUpdated; deny: Start fails with AccessDenied, as
GeoClue does for an application it does not allow; silent: Start succeeds and
no update ever comes. Prints "ready" once it owns the name, then one line per
call that matters: "start DESKTOP_ID LEVEL" (followed by "thresholds METRES
SECONDS" when DistanceThreshold or TimeThreshold was set), "stop".

Commands on stdin, one per line, each answered "ok COMMAND":
    move LAT LON   a new Location object at LAT, LON and LocationUpdated(old, new)
                   from every started client
Needs python3-dbus and python3-gi (Debian packages).
"""
import argparse

import dbus
import dbus.service
from gi.repository import GLib

import fakebus

BUS_NAME = "org.freedesktop.GeoClue2"
MANAGER_PATH = "/org/freedesktop/GeoClue2/Manager"
CLIENT_PATH = "/org/freedesktop/GeoClue2/Client/1"
LOCATION_PATH = "/org/freedesktop/GeoClue2/Location/1"
# The Location object of where the machine is now (the last move).
CURRENT = {"path": LOCATION_PATH}
MANAGER_IFACE = "org.freedesktop.GeoClue2.Manager"
CLIENT_IFACE = "org.freedesktop.GeoClue2.Client"
LOCATION_IFACE = "org.freedesktop.GeoClue2.Location"
PROPS_IFACE = "org.freedesktop.DBus.Properties"


class Properties(dbus.service.Object):
    interface = ""

    def __init__(self, bus, path, props):
        super().__init__(bus, path)
        self.path = path
        self.props = props

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.props[name]

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary(self.props if interface == self.interface else {}, signature="sv")


class Location(Properties):
    interface = LOCATION_IFACE


class Client(Properties):
    interface = CLIENT_IFACE

    def __init__(self, bus, mode, path=CLIENT_PATH):
        super().__init__(bus, path, {
            "Location": dbus.ObjectPath("/"),
            "DesktopId": dbus.String(""),
            "RequestedAccuracyLevel": dbus.UInt32(0),
            "DistanceThreshold": dbus.UInt32(0),
            "TimeThreshold": dbus.UInt32(0),
            "Active": dbus.Boolean(False),
        })
        self.mode = mode
        # Where the machine is now: a client made after a move starts there, as with GeoClue.
        self.location_path = CURRENT["path"]

    @dbus.service.method(PROPS_IFACE, in_signature="ssv", out_signature="")
    def Set(self, interface, name, value):
        if name not in ("DesktopId", "RequestedAccuracyLevel", "DistanceThreshold", "TimeThreshold"):
            raise dbus.exceptions.DBusException("Property %s is read-only" % name,
                                                name="org.freedesktop.DBus.Error.PropertyReadOnly")
        self.props[name] = value

    @dbus.service.method(CLIENT_IFACE, in_signature="", out_signature="")
    def Start(self):
        print("start %s %d" % (self.props["DesktopId"], self.props["RequestedAccuracyLevel"]), flush=True)
        if self.mode == "deny":
            raise dbus.exceptions.DBusException("'%s' disallowed, no agent for UID 0" % self.props["DesktopId"],
                                                name="org.freedesktop.DBus.Error.AccessDenied")
        if not self.props["DesktopId"]:
            raise dbus.exceptions.DBusException("DesktopId not set", name="org.freedesktop.DBus.Error.Failed")
        if self.props["DistanceThreshold"] or self.props["TimeThreshold"]:
            print("thresholds %d %d" % (self.props["DistanceThreshold"], self.props["TimeThreshold"]), flush=True)
        self.props["Active"] = dbus.Boolean(True)
        if self.mode == "ok":
            # GeoClue answers Start first and sends the update later.
            GLib.timeout_add(20, self.update)

    def update(self):
        old = self.props["Location"]
        self.props["Location"] = dbus.ObjectPath(self.location_path)
        self.LocationUpdated(old, dbus.ObjectPath(self.location_path))
        return False

    @dbus.service.method(CLIENT_IFACE, in_signature="", out_signature="")
    def Stop(self):
        self.props["Active"] = dbus.Boolean(False)
        print("stop", flush=True)

    @dbus.service.signal(CLIENT_IFACE, signature="oo")
    def LocationUpdated(self, old, new):
        pass


class Manager(dbus.service.Object):
    def __init__(self, bus, client, mode):
        super().__init__(bus, MANAGER_PATH)
        self.bus = bus
        self.clients = [client]
        self.mode = mode

    @dbus.service.method(MANAGER_IFACE, in_signature="", out_signature="o")
    def GetClient(self):
        return dbus.ObjectPath(CLIENT_PATH)

    @dbus.service.method(MANAGER_IFACE, in_signature="", out_signature="o")
    def CreateClient(self):
        # GeoClue gives each CreateClient a client of its own.
        client = Client(self.bus, self.mode, "/org/freedesktop/GeoClue2/Client/%d" % (len(self.clients) + 1))
        self.clients.append(client)
        return dbus.ObjectPath(client.path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["ok", "deny", "silent"], default="ok")
    parser.add_argument("--latitude", type=float, default=52.2215)
    parser.add_argument("--longitude", type=float, default=6.8937)
    parser.add_argument("--accuracy", type=float, default=5000.0)
    args = parser.parse_args()

    bus = fakebus.system_bus()

    def location(path, latitude, longitude):
        return Location(bus, path, {
            "Latitude": dbus.Double(latitude),
            "Longitude": dbus.Double(longitude),
            "Accuracy": dbus.Double(args.accuracy),
            "Description": dbus.String("fake"),
        })
    locations = [location(LOCATION_PATH, args.latitude, args.longitude)]
    client = Client(bus, args.mode)
    manager = Manager(bus, client, args.mode)
    name = dbus.service.BusName(BUS_NAME, bus, do_not_queue=True)

    def command(words):
        if len(words) != 3 or words[0] != "move":
            return False
        path = "/org/freedesktop/GeoClue2/Location/%d" % (len(locations) + 1)
        locations.append(location(path, float(words[1]), float(words[2])))
        CURRENT["path"] = path
        for each in manager.clients:
            each.location_path = path
            if each.props["Active"]:
                each.update()
        return True

    fakebus.serve(command)
    del name


if __name__ == "__main__":
    main()
