// The full view: the place switcher and Refresh, a problem if there is one,
// alerts first (in effect, then to come, by severity), the conditions now,
// the rain of the next hour or two, the next hours and days, air and UV, the
// sun and moon, and which provider answered, why, and when.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras
import io.raind.weather 1.0
import "../code/Format.js" as Format

PlasmaComponents3.Page {
    id: full

    Layout.minimumWidth: PlasmaCore.Units.gridUnit * 20
    Layout.minimumHeight: PlasmaCore.Units.gridUnit * 24
    Layout.preferredWidth: PlasmaCore.Units.gridUnit * 24
    Layout.preferredHeight: PlasmaCore.Units.gridUnit * 34
    implicitWidth: PlasmaCore.Units.gridUnit * 24
    implicitHeight: PlasmaCore.Units.gridUnit * 34

    readonly property var forecast: raind.forecast
    readonly property int offset: forecast.utcOffsetSeconds || 0
    readonly property var current: forecast.current || ({})
    readonly property var alerts: Format.sortedAlerts(forecast.alerts, root.now)
    readonly property var hours: (forecast.hourly || []).filter(function (hour) {
        return hour.time + 3600 > root.now
    }).slice(0, 6)
    readonly property var days: (forecast.daily || []).filter(function (day) {
        return day.time + 86400 > root.now
    }).slice(0, 5)
    readonly property var today: days.length > 0 ? days[0] : ({})
    readonly property string units: raind.units
    property string callProblem: ""

    // Unit symbols as the reader's language writes them after a number, from
    // raind's catalogue (context "unit"), the words raindctl shows: Russian
    // "5 м/с", "2,5 мм", "5 миль/ч"; and where the percent sign goes ("30 %"
    // in Czech, "%30" in Turkish), as raindctl writes it.
    readonly property var unitSymbols: ({
        "m/s": i18ndc("raind", "unit", "m/s"),
        "km/h": i18ndc("raind", "unit", "km/h"),
        "mph": i18ndc("raind", "unit", "mph"),
        "mm": i18ndc("raind", "unit", "mm"),
        "in": i18ndc("raind", "unit", "in"),
        "{number}%": i18nd("raind", "{number}%")
    })
    function local(seconds) { return Format.time(seconds, offset, root.locale) }
    function words(text) { return text ? i18nd("raind", text) : "" }
    // "Temperature, humidity from Freiburg, 21 km, 1,254 m lower": values a provider
    // took from another station than the place's own, as raindctl now says it.
    function valueName(name) {
        switch (name) {
        case "temperature": return i18nd("raind", "temperature")
        case "humidity": return i18nd("raind", "humidity")
        case "pressure": return i18nd("raind", "pressure")
        case "wind": return i18nd("raind", "wind")
        case "gusts": return i18nd("raind", "gusts")
        case "visibility": return i18nd("raind", "visibility")
        case "cloudCover": return i18nd("raind", "cloud cover")
        case "precipitation": return i18nd("raind", "precipitation")
        case "condition": return i18nd("raind", "conditions")
        }
        return ""
    }
    function sourceLine(source) {
        if (!source || !source.station)
            return ""
        var names = (source.values || []).map(valueName).filter(function (name) { return name !== "" })
        var parts = [names.length > 0
            ? Format.fill(i18nd("raind", "{values} from {station}"), { values: names.join(", "), station: source.station })
            : Format.fill(i18nd("raind", "Observed at {station}"), { station: source.station })]
        if (source.distanceMetres !== undefined)
            parts.push(Format.fill(i18nd("raind", "{distance} km"),
                { distance: Format.number(Math.round(Math.min(source.distanceMetres / 1000, 1e6)), 0, root.locale) }))
        if (source.heightDifferenceMetres !== undefined) {
            var metres = Format.number(Math.round(Math.min(Math.abs(source.heightDifferenceMetres), 1e6)), 0, root.locale)
            parts.push(Format.fill(source.heightDifferenceMetres < 0 ? i18nd("raind", "{metres} m lower")
                : i18nd("raind", "{metres} m higher"), { metres: metres }))
        }
        var line = parts.join(", ")
        return line.charAt(0).toLocaleUpperCase() + line.slice(1)
    }

    // What the view shows in words, traced for the tests (RAIND_APPLET_TRACE=1).
    readonly property string shownText: [root.placeName, problemLabel.text, callProblem].concat(
        alerts.map(function (item) { return item.alert.title }), [conditionsLabel.text, footerLabel.text],
        days.map(function (day) { return words(day.summary) + " " + Format.precipitation(day.precipAccumulation, units, root.locale, full.unitSymbols) })
    ).join(" | ")
    onShownTextChanged: root.trace("full", shownText)

    Connections {
        target: raind
        function onCallFailed(method, error, message) {
            full.callProblem = Format.fill(i18nd("raind", "{action} failed: {reason}"), { action: method, reason: message })
            root.trace("call", method + " failed: " + error)
        }
        function onCallFinished(method, parameters) {
            full.callProblem = ""
            root.trace("call", method + " finished")
        }
    }

    RedrawTracer {}

    header: PlasmaExtras.PlasmoidHeading {
        RowLayout {
            anchors.fill: parent
            PlasmaComponents3.ComboBox {
                id: places
                objectName: "raindPlaces"
                Layout.fillWidth: true
                model: raind.locations
                textRole: "name"
                currentIndex: {
                    for (var i = 0; i < raind.locations.length; i++)
                        if (raind.locations[i].id === raind.selectedId)
                            return i
                    return -1
                }
                enabled: raind.connection === RaindClient.Connected && raind.locations.length > 0
                onActivated: raind.selectLocation(raind.locations[index].id)
            }
            PlasmaComponents3.ToolButton {
                icon.name: "view-refresh"
                text: i18nd("raind", "Refresh")
                enabled: raind.connection === RaindClient.Connected && raind.selectedId !== ""
                onClicked: raind.refresh()
            }
            PlasmaComponents3.ToolButton {
                icon.name: "network-connect"
                text: i18nd("raind", "Reconnect")
                visible: raind.connection === RaindClient.NotRunning || raind.connection === RaindClient.Failed
                onClicked: raind.reconnect()
            }
        }
    }

    PlasmaComponents3.ScrollView {
        anchors.fill: parent
        contentWidth: availableWidth

        ColumnLayout {
            width: parent.width
            spacing: PlasmaCore.Units.smallSpacing

            PlasmaComponents3.Label {
                id: problemLabel
                Layout.fillWidth: true
                visible: text !== ""
                wrapMode: Text.Wrap
                verticalAlignment: Text.AlignTop
                textFormat: Text.PlainText
                color: PlasmaCore.Theme.negativeTextColor
                text: {
                    var lines = []
                    if (raind.connection === RaindClient.NotRunning)
                        lines.push(i18nd("raind", "raind is not running; the weather shown is the last it sent."))
                    else if (raind.connection === RaindClient.Failed)
                        lines.push(i18nd("raind", "raind's answer could not be used; trying again."))
                    if (raind.problem !== "")
                        lines.push(raind.problem)
                    if (Object.keys(raind.failure).length > 0)
                        lines.push(Format.fill(i18nd("raind", "Last refresh failed: {reason}"), { reason: raind.failure.message }))
                    if (raind.connection === RaindClient.Connected && !raind.online)
                        lines.push(i18nd("raind", "No network: showing cached data"))
                    if (full.callProblem !== "")
                        lines.push(full.callProblem)
                    return lines.join("\n")
                }
            }

            Repeater {
                model: full.alerts
                delegate: RowLayout {
                    Layout.fillWidth: true
                    Rectangle {
                        Layout.fillHeight: true
                        Layout.preferredWidth: PlasmaCore.Units.smallSpacing
                        color: Format.severityColor(modelData.alert.severity)
                    }
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 0
                        PlasmaComponents3.Label {
                            Layout.fillWidth: true
                            text: modelData.alert.title || modelData.alert.event || ""
                            textFormat: Text.PlainText
                            wrapMode: Text.Wrap
                            verticalAlignment: Text.AlignTop
                            font.bold: true
                            color: Format.severityColor(modelData.alert.severity)
                        }
                        PlasmaComponents3.Label {
                            Layout.fillWidth: true
                            textFormat: Text.PlainText
                            wrapMode: Text.Wrap
                            verticalAlignment: Text.AlignTop
                            opacity: 0.8
                            text: {
                                var alert = modelData.alert
                                var parts = [full.words(alert.severity)]
                                if (modelData.upcoming)
                                    parts.push(Format.fill(i18nd("raind", "from {time}"), { time: full.local(alert.onset !== undefined ? alert.onset : alert.start) }))
                                if (alert.end !== undefined)
                                    parts.push(Format.fill(i18nd("raind", "until {time}"), { time: full.local(alert.end) }))
                                if (alert.source)
                                    parts.push(alert.source)
                                return parts.join(" · ")
                            }
                        }
                    }
                }
            }

            RowLayout {
                Layout.fillWidth: true
                visible: root.hasForecast
                PlasmaCore.IconItem {
                    Layout.preferredWidth: PlasmaCore.Units.iconSizes.huge
                    Layout.preferredHeight: PlasmaCore.Units.iconSizes.huge
                    source: root.iconName
                    opacity: root.dimmed ? 0.6 : 1
                }
                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: 0
                    PlasmaExtras.Heading {
                        level: 1
                        text: root.temperatureText + root.markers
                        textFormat: Text.PlainText
                        opacity: root.dimmed ? 0.6 : 1
                    }
                    PlasmaComponents3.Label {
                        id: conditionsLabel
                        Layout.fillWidth: true
                        wrapMode: Text.Wrap
                        verticalAlignment: Text.AlignTop
                        textFormat: Text.PlainText
                        text: {
                            var c = full.current
                            var lines = [root.placeName + (c.summary ? ": " + full.words(c.summary) : "")]
                            var details = []
                            if (c.apparentTemperature !== undefined)
                                details.push(i18nd("raind", "Feels like") + " " + Format.temperature(c.apparentTemperature, full.units, root.locale))
                            if (c.windSpeed !== undefined)
                                details.push(i18nd("raind", "Wind") + " " + Format.windSpeed(c.windSpeed, full.units, root.locale, full.unitSymbols))
                            if (c.humidity !== undefined)
                                details.push(i18nd("raind", "Humidity") + " " + Format.percent(c.humidity, full.unitSymbols))
                            if (c.precipProbability !== undefined)
                                details.push(Format.fill(i18nd("raind", "rain {chance}"), { chance: Format.percent(c.precipProbability, full.unitSymbols) }))
                            if (details.length > 0)
                                lines.push(details.join(" · "))
                            var sources = c.sources || []
                            for (var i = 0; i < sources.length && i < 4; ++i) {
                                var line = full.sourceLine(sources[i])
                                if (line !== "")
                                    lines.push(line)
                            }
                            return lines.join("\n")
                        }
                    }
                }
            }

            PlasmaComponents3.Label {
                Layout.fillWidth: true
                visible: text !== ""
                wrapMode: Text.Wrap
                verticalAlignment: Text.AlignTop
                textFormat: Text.PlainText
                text: full.forecast.nowcast ? full.forecast.nowcast.summary || "" : ""
            }

            PlasmaExtras.Heading {
                level: 4
                visible: full.hours.length > 0
                text: i18nd("raind", "Next hours")
            }
            RowLayout {
                Layout.fillWidth: true
                visible: full.hours.length > 0
                Repeater {
                    model: full.hours
                    delegate: ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 0
                        PlasmaComponents3.Label {
                            Layout.alignment: Qt.AlignHCenter
                            text: full.local(modelData.time)
                            opacity: 0.8
                        }
                        PlasmaCore.IconItem {
                            Layout.alignment: Qt.AlignHCenter
                            Layout.preferredWidth: PlasmaCore.Units.iconSizes.medium
                            Layout.preferredHeight: PlasmaCore.Units.iconSizes.medium
                            source: Format.iconName(modelData.icon)
                        }
                        PlasmaComponents3.Label {
                            Layout.alignment: Qt.AlignHCenter
                            text: Format.temperature(modelData.temperature, full.units, root.locale)
                        }
                        PlasmaComponents3.Label {
                            Layout.alignment: Qt.AlignHCenter
                            text: Format.percent(modelData.precipProbability, full.unitSymbols)
                            opacity: 0.8
                        }
                    }
                }
            }

            PlasmaExtras.Heading {
                level: 4
                visible: full.days.length > 0
                text: i18nd("raind", "Next days")
            }
            Repeater {
                model: full.days
                delegate: RowLayout {
                    Layout.fillWidth: true
                    PlasmaComponents3.Label {
                        Layout.preferredWidth: PlasmaCore.Units.gridUnit * 4
                        text: index === 0 ? i18nd("raind", "Today") : Format.weekday(modelData.time, full.offset, root.locale)
                    }
                    PlasmaCore.IconItem {
                        Layout.preferredWidth: PlasmaCore.Units.iconSizes.small
                        Layout.preferredHeight: PlasmaCore.Units.iconSizes.small
                        source: Format.iconName(modelData.icon)
                    }
                    PlasmaComponents3.Label {
                        Layout.fillWidth: true
                        textFormat: Text.PlainText
                        elide: Text.ElideRight
                        text: full.words(modelData.summary)
                    }
                    PlasmaComponents3.Label {
                        text: Format.temperature(modelData.temperatureMin, full.units, root.locale) + " / "
                              + Format.temperature(modelData.temperatureMax, full.units, root.locale)
                    }
                    PlasmaComponents3.Label {
                        Layout.preferredWidth: PlasmaCore.Units.gridUnit * 2.5
                        horizontalAlignment: Text.AlignRight
                        text: Format.percent(modelData.precipProbability, full.unitSymbols)
                        opacity: 0.8
                    }
                    PlasmaComponents3.Label {
                        Layout.preferredWidth: PlasmaCore.Units.gridUnit * 3.5
                        horizontalAlignment: Text.AlignRight
                        text: Format.precipitation(modelData.precipAccumulation, full.units, root.locale, full.unitSymbols)
                        opacity: 0.8
                    }
                }
            }

            PlasmaComponents3.Label {
                Layout.fillWidth: true
                visible: text !== ""
                wrapMode: Text.Wrap
                verticalAlignment: Text.AlignTop
                textFormat: Text.PlainText
                text: {
                    var air = full.forecast.air
                    var parts = []
                    if (air && air.aqi !== undefined)
                        parts.push(Format.fill(i18nd("raind", "Air: {category} ({index} {aqi})"),
                            { category: full.words(air.category || ""), index: air.index === "us" ? "US AQI" : "EAQI", aqi: air.aqi }))
                    var uv = air && air.uvIndex !== undefined ? air.uvIndex : full.current.uvIndex
                    if (uv !== undefined)
                        parts.push(i18nd("raind", "UV index") + " " + Format.number(Math.round(uv), 0, root.locale))
                    return parts.join(" · ")
                }
            }

            PlasmaComponents3.Label {
                Layout.fillWidth: true
                visible: root.hasForecast
                wrapMode: Text.Wrap
                verticalAlignment: Text.AlignTop
                textFormat: Text.PlainText
                text: {
                    var day = full.today
                    var parts = []
                    if (day.sunrise !== undefined)
                        parts.push(Format.fill(i18nd("raind", "Sunrise {time}"), { time: full.local(day.sunrise) }))
                    if (day.sunset !== undefined)
                        parts.push(Format.fill(i18nd("raind", "Sunset {time}"), { time: full.local(day.sunset) }))
                    if (day.polar === "day")
                        parts.push(i18nd("raind", "The sun does not set today"))
                    if (day.polar === "night")
                        parts.push(i18nd("raind", "The sun does not rise today"))
                    var phases = [i18nd("raind", "New moon"), i18nd("raind", "Waxing crescent"), i18nd("raind", "First quarter"),
                                  i18nd("raind", "Waxing gibbous"), i18nd("raind", "Full moon"), i18nd("raind", "Waning gibbous"),
                                  i18nd("raind", "Last quarter"), i18nd("raind", "Waning crescent")]
                    parts.push(phases[Format.moonPhaseIndex(Format.moonPhase(root.now))])
                    return parts.join(" · ")
                }
            }

            PlasmaComponents3.Label {
                id: footerLabel
                Layout.fillWidth: true
                visible: root.hasForecast
                wrapMode: Text.Wrap
                verticalAlignment: Text.AlignTop
                textFormat: Text.PlainText
                font: PlasmaCore.Theme.smallestFont
                opacity: 0.8
                text: {
                    var f = full.forecast
                    var lines = []
                    if (f.failover)
                        lines.push(Format.fill(i18nd("raind", "From {provider}: {previous} failed ({reason})"),
                            { provider: f.provider, previous: f.failover.provider, reason: f.failover.reason }))
                    else if (f.provider)
                        lines.push(Format.fill(i18nd("raind", "From {provider}"), { provider: f.provider }))
                    if (f.fetchedAt !== undefined)
                        lines.push(Format.fill(i18nd("raind", "Updated at {time}"), { time: full.local(f.fetchedAt) })
                                   + (raind.stale ? " " + i18nd("raind", "(stale)") : ""))
                    if (f.attribution)
                        lines.push(f.attribution.text)
                    return lines.join("\n")
                }
            }
        }
    }
}
