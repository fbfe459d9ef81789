// Placed in each representation: after a change of what the applet shows
// (root.trace), traces the first frame its window draws and how long after
// the event that caused it. Only with RAIND_APPLET_TRACE=1.
import QtQuick 2.15
import QtQuick.Window 2.15

Item {
    id: tracer
    visible: false

    Connections {
        target: root
        enabled: raind.trace
        function onRedrawRequested() {
            if (tracer.Window.window)
                tracer.Window.window.update()
        }
    }
    Connections {
        target: tracer.Window.window
        enabled: raind.trace && root.redrawPending
        function onFrameSwapped() {
            root.redrawPending = false
            console.info("raind-applet redrawn: " + (Date.now() - raind.lastEventTime) + " ms after the event")
        }
    }
}
