import RainCore
import RainDaemonCore

/// One notification as `org.freedesktop.Notifications.Notify` takes it
/// (Desktop Notifications Specification 1.2): the app name is always raind.
struct DesktopNotification: Equatable {
    /// The specification's urgency levels (hint `urgency`, a byte).
    enum Urgency: UInt8, Comparable {
        case low = 0, normal = 1, critical = 2

        /// From CAP's severity, tempered by its urgency and certainty:
        /// Extreme and Severe are critical (they stay until dismissed),
        /// but normal for a watch, one the issuer expects later (Future)
        /// or only thinks possible (Possible); Moderate and an Unknown
        /// severity are normal, Minor is low; whatever the issuer thinks
        /// Unlikely is low.
        init(_ alert: WeatherAlert) {
            if alert.certainty == .unlikely {
                self = .low
                return
            }
            switch alert.severity {
            case .extreme, .severe:
                self = alert.urgency == .future || alert.certainty == .possible ? .normal : .critical
            case .moderate, .unknown: self = .normal
            case .minor: self = .low
            }
        }

        static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    static let appName = "raind"
    /// Longest body sent: an agency's description can run to pages.
    static let maximumBodyCharacters = 400

    var replaces: UInt32 = 0
    /// A name from the icon naming specification.
    var icon: String
    var summary: String
    /// Body text; servers may read a little markup, so it is escaped when sent (`arguments`).
    var body: String
    var urgency: Urgency

    /// The arguments of Notify (`susssasa{sv}i`).
    var arguments: [BusValue] {
        [
            .string(Self.appName), .uint32(replaces), .string(icon), .string(summary),
            .string(body.escapingMarkup(quotes: false)),
            .array(element: "s", []),
            .array(element: "{sv}", [.dictEntry(key: .string("urgency"), value: .variant(.byte(urgency.rawValue)))]),
            .int32(-1),
        ]
    }

    /// Most alerts listed in a grouped notification's body; the rest are counted.
    static let maximumListedAlerts = 10
    /// Longest grouped summary: the alerts' names follow the count until it is full.
    static let maximumSummaryCharacters = 120

    /// Severe-weather alerts at a saved place, shown together: one alert as
    /// "TITLE — PLACE" with its severity, description, time span and source;
    /// several as "3 warnings for PLACE: Storm, Frost, Heavy rain" with one
    /// line each (name, severity, time span, source). The urgency is the
    /// highest of theirs. `local`: the place's civil time.
    static func alerts(
        _ alerts: [WeatherAlert], at place: Location, now: Double, local: (Double) -> CivilDateTime, replaces: UInt32
    ) -> DesktopNotification {
        let urgency = alerts.map(Urgency.init).max() ?? .normal
        guard alerts.count > 1 else {
            let alert = alerts.first ?? WeatherAlert(title: "")
            let title = alert.title.isEmpty ? (alert.event ?? tr("Weather alert")) : alert.title
            var body = tr(
                "{severity} alert for {place}",
                ["severity": AlertWording.name(alert.severity), "place": place.localizedDisplayName])
            // An agency's paragraphs run together: the body's lines are raind's own.
            let description = String(alert.description.map { $0.isNewline ? " " : $0 }).trimmingSpaces()
            if !description.isEmpty {
                body +=
                    ": "
                    + (description.count > maximumBodyCharacters
                        ? String(description.prefix(maximumBodyCharacters)) + "…" : description)
            }
            body = body.replacingControlCharacters()
            let details = AlertWording.details(of: alert, at: now, local: local)
            if !details.isEmpty { body += "\n" + details.replacingControlCharacters() }
            return DesktopNotification(
                replaces: replaces, icon: "weather-severe-alert",
                summary: tr("{title} — {place}", ["title": title, "place": place.name]).replacingControlCharacters(),
                body: body, urgency: urgency)
        }
        func name(_ alert: WeatherAlert) -> String {
            let event = alert.event?.trimmingSpaces() ?? ""
            if !event.isEmpty { return event }
            return alert.title.isEmpty ? tr("Weather alert") : alert.title
        }
        func heading(_ names: String) -> String {
            trn(
                "{count} warning for {place}: {names}", "{count} warnings for {place}: {names}", alerts.count,
                ["place": place.name, "names": names])
        }
        var names = ""
        var named = 0
        let room = maximumSummaryCharacters - heading("").count
        for alert in alerts {
            let next = (named == 0 ? "" : ", ") + name(alert)
            guard names.count + next.count <= room || named == 0 else {
                names += ", …"
                break
            }
            names += next
            named += 1
        }
        var summary = heading(names)
        if summary.count > maximumSummaryCharacters { summary = String(summary.prefix(maximumSummaryCharacters)) + "…" }
        var lines = alerts.prefix(maximumListedAlerts).map { alert in
            let details = AlertWording.details(of: alert, at: now, local: local)
            let line = tr("{name} ({severity})", ["name": name(alert), "severity": AlertWording.name(alert.severity)])
            return (line + (details.isEmpty ? "" : " " + details))
                .replacingControlCharacters()
        }
        if alerts.count > maximumListedAlerts {
            lines.append(trn("and {count} more", "and {count} more", alerts.count - maximumListedAlerts))
        }
        return DesktopNotification(
            replaces: replaces, icon: "weather-severe-alert", summary: summary.replacingControlCharacters(),
            body: lines.joined(separator: "\n"), urgency: urgency)
    }

    /// Rain starting soon at the selected place; `summary` is the nowcast's line.
    static func rainSoon(at place: Location, summary: String, replaces: UInt32) -> DesktopNotification {
        DesktopNotification(
            replaces: replaces, icon: "weather-showers",
            summary: tr("Rain soon — {place}", ["place": place.name]).replacingControlCharacters(),
            body: summary.replacingControlCharacters(), urgency: .normal)
    }

    /// The air or the UV at a place reached the configured category
    /// (`AirNotices`): the index's or the WHO's health advice, with the air's credit.
    static func air(_ notice: AirNotices.Notice, credit: String?) -> DesktopNotification {
        // Each line cleaned on its own, so the line break between them stays.
        let lines = [notice.advice] + (credit.map { [$0] } ?? [])
        return DesktopNotification(
            replaces: notice.replaces, icon: notice.kind == .air ? "dialog-warning" : "weather-clear",
            summary: notice.title.replacingControlCharacters(),
            body: lines.map { $0.replacingControlCharacters() }.joined(separator: "\n"), urgency: .normal)
    }
}
