"""What the fakes share: the GLib main loop their D-Bus objects run on, and
the commands a test sends them on stdin, one per line.
Needs python3-dbus and python3-gi (Debian packages)."""
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib


def system_bus():
    """The bus in DBUS_SYSTEM_BUS_ADDRESS, dispatched by the GLib main loop."""
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    return dbus.SystemBus()


def serve(command=None, quit_at_end=False):
    """Prints "ready" (call it once the fake owns its bus name) and runs the
    main loop until the process is stopped.

    With `command`, each line read on stdin is split into words and given to
    `command(words)`, which returns whether it knew the command: the line is
    then answered "ok LINE" or "unknown command: LINE", so a test waits for
    the answer, never for time to pass. At the end of stdin the fake quits
    with `quit_at_end`; else it serves on (stdin closed or /dev/null: a test
    with no commands to send)."""
    loop = GLib.MainLoop()

    def readable(source, condition):
        line = sys.stdin.readline()
        if not line:
            if quit_at_end:
                loop.quit()
            return False
        known = command(line.split())
        print(("ok " if known else "unknown command: ") + line.strip(), flush=True)
        return True

    if command:
        GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, readable)
    print("ready", flush=True)
    loop.run()
