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
    /// One line; made markup-safe when sent (`arguments`).
    var summary: String
    /// Body text; made markup-safe when sent (`arguments`).
    var body: String
    var urgency: Urgency

    /// The arguments of Notify (`susssasa{sv}i`). The summary and the body
    /// go out as the specification's markup would read them as text
    /// (`wire`): servers read markup in the body, and some in the summary.
    var arguments: [BusValue] {
        [
            .string(Self.appName), .uint32(replaces), .string(icon), .string(Self.wire(summary, lines: false)),
            .string(Self.wire(body, lines: true)),
            .array(element: "s", []),
            .array(element: "{sv}", [.dictEntry(key: .string("urgency"), value: .variant(.byte(urgency.rawValue)))]),
            .int32(-1),
        ]
    }

    /// Text from outside (a service's headline, a place's name) as it goes
    /// to the server: entities decoded (an `&lt;a href&gt;` is the text
    /// `<a href>`), control characters and the invisible ones that turn
    /// text around (bidi overrides and isolates) removed as raindctl
    /// removes them from what it prints, line breaks kept only in the body,
    /// and `&`, `<` and `>` escaped so that no server reads markup in it.
    static func wire(_ text: String, lines: Bool) -> String {
        AlertText.decodingEntities(text).strippingControlCharacters(keepingLineBreaks: lines)
            .escapingMarkup(quotes: false)
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
                let shown =
                    description.count > maximumBodyCharacters
                    ? String(description.prefix(maximumBodyCharacters)) + "…" : description
                // Translators: an alert's heading and the service's description after it ("Severe alert for Berlin, Germany: Gusts up to 100 km/h."): French " : " with a no-break space, Japanese and Chinese "：".
                body = tr("{heading}: {description}", ["heading": body, "description": shown])
            }
            body = body.notificationLine
            let details = AlertWording.details(of: alert, at: now, local: local)
            if !details.isEmpty { body += "\n" + details.notificationLine }
            return DesktopNotification(
                replaces: replaces, icon: "weather-severe-alert",
                summary: tr("{title} — {place}", ["title": title, "place": place.name]).notificationLine,
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
        let separator = Localization.listSeparator
        for alert in alerts {
            let next = (named == 0 ? "" : separator) + name(alert)
            guard names.count + next.count <= room || named == 0 else {
                names += separator + "…"
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
                .notificationLine
        }
        if alerts.count > maximumListedAlerts {
            lines.append(trn("and {count} more", "and {count} more", alerts.count - maximumListedAlerts))
        }
        return DesktopNotification(
            replaces: replaces, icon: "weather-severe-alert", summary: summary.notificationLine,
            body: lines.joined(separator: "\n"), urgency: urgency)
    }

    /// Rain starting soon at the selected place; `summary` is the nowcast's line.
    static func rainSoon(at place: Location, summary: String, replaces: UInt32) -> DesktopNotification {
        DesktopNotification(
            replaces: replaces, icon: "weather-showers",
            summary: tr("Rain soon — {place}", ["place": place.name]).notificationLine,
            body: summary.notificationLine, urgency: .normal)
    }

    /// The air or the UV at a place reached the configured category
    /// (`AirNotices`): the index's or the WHO's health advice, with the air's credit.
    static func air(_ notice: AirNotices.Notice, credit: String?) -> DesktopNotification {
        // Each line cleaned on its own, so the line break between them stays.
        let lines = [notice.advice] + (credit.map { [$0] } ?? [])
        return DesktopNotification(
            replaces: notice.replaces, icon: notice.kind == .air ? "dialog-warning" : "weather-clear",
            summary: notice.title.notificationLine,
            body: lines.map(\.notificationLine).joined(separator: "\n"), urgency: .normal)
    }
}

extension String {
    /// One line of a notification: line breaks and tabs read as spaces;
    /// the other control characters, and those that turn text around, go
    /// (`strippingControlCharacters`, as raindctl prints text).
    fileprivate var notificationLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }))
            .strippingControlCharacters()
    }
}
