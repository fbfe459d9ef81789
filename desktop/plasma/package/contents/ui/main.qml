// raind's Plasma applet: the selected place's weather, live from raind's
// socket through RaindClient (one subscription, redrawn on its events; no
// polling). The compact form is the panel's icon and temperature, the full
// form the conditions, alerts, hours, days, air, sky and the place switcher.
import QtQuick 2.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import io.raind.weather 1.0
import "../code/Format.js" as Format

Item {
    id: root

    RaindClient {
        id: raind
    }

    // "Now" for ages, alerts and the sky, moved on with the client's own clock.
    property real now: Date.now() / 1000
    Timer {
        interval: 30000
        running: true
        repeat: true
        onTriggered: root.now = Date.now() / 1000
    }
    Connections {
        target: raind
        function onEventReceived(name) {
            root.now = Date.now() / 1000
        }
    }

    readonly property var locale: Qt.locale()
    readonly property bool hasForecast: Object.keys(raind.forecast).length > 0
    readonly property string placeName: raind.selectedLocation.name || ""
    readonly property string temperatureText: raind.hasTemperature
        ? Format.temperature(raind.temperature, raind.units, locale) : Format.missing

    // What the panel says: never a wrong or blank number. Without weather,
    // why; with it, the temperature and the markers the status bars use.
    readonly property string compactText: {
        if (!hasForecast) {
            if (raind.connection === RaindClient.NotRunning)
                return i18nd("raind", "raind not running")
            if (raind.connection === RaindClient.Failed)
                return i18nd("raind", "raind error")
            if (raind.connection === RaindClient.Connecting)
                return "…"
            if (raind.selectedId === "")
                return i18nd("raind", "no place")
            if (Object.keys(raind.failure).length > 0)
                return Format.fill(i18nd("raind", "{place}: no weather yet (refresh failed)"), { place: placeName })
            return placeName + " …"
        }
        return temperatureText + markers
    }
    readonly property string markers: {
        var text = ""
        if (raind.stale)
            text += " " + i18nd("raind", "(stale)")
        if (raind.connection === RaindClient.NotRunning)
            text += " " + i18nd("raind", "(raind not running)")
        else if (raind.connection === RaindClient.Failed)
            text += " " + i18nd("raind", "(raind error)")
        else if (!raind.online)
            text += " " + i18nd("raind", "(offline)")
        return text
    }
    // Dimmed as the bars dim stale or unreachable data.
    readonly property bool dimmed: raind.stale || raind.connection !== RaindClient.Connected || !raind.online
    readonly property string iconName: hasForecast && raind.forecast.current
        ? Format.iconName(raind.forecast.current.icon) : "weather-none-available"

    // One line on stderr per change of what is shown, for the tests and for
    // measuring; only with RAIND_APPLET_TRACE=1 in the environment.
    onCompactTextChanged: trace("compact", compactText)
    onPlaceNameChanged: trace("place", placeName)
    Connections {
        target: raind
        function onProblemChanged() {
            root.trace("problem", raind.problemKind + ": " + raind.problem)
        }
        function onFailureChanged() {
            root.trace("failure", raind.failure.message || "")
        }
    }
    function trace(what, text) {
        if (!raind.trace)
            return
        console.info("raind-applet " + what + ": " + String(text).replace(/\n/g, " / "))
        redrawPending = true
        // A change that draws nothing new would otherwise wait for the next frame.
        redrawRequested()
    }

    // Set by trace(), cleared by the first frame drawn after it (RedrawTracer).
    property bool redrawPending: false
    signal redrawRequested()

    Plasmoid.icon: iconName
    Plasmoid.toolTipMainText: placeName || i18nd("raind", "raind Weather")
    Plasmoid.toolTipSubText: raind.problem !== "" ? raind.problem : compactText
    Plasmoid.switchWidth: PlasmaCore.Units.gridUnit * 22
    Plasmoid.switchHeight: PlasmaCore.Units.gridUnit * 22
    Plasmoid.compactRepresentation: CompactRepresentation {}
    Plasmoid.fullRepresentation: FullRepresentation {}
}
