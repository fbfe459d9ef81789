import RainCore

/// One notification as `org.freedesktop.Notifications.Notify` takes it
/// (Desktop Notifications Specification 1.2): the app name is always raind.
struct DesktopNotification: Equatable {
    /// The specification's urgency levels (hint `urgency`, a byte).
    enum Urgency: UInt8 {
        case low = 0, normal = 1, critical = 2

        /// Extreme and severe alerts are critical (they stay until dismissed),
        /// moderate ones normal, the rest low.
        init(_ severity: AlertSeverity) {
            switch severity {
            case .extreme, .severe: self = .critical
            case .moderate: self = .normal
            case .minor, .unknown: self = .low
            }
        }
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

    /// A severe-weather alert at a saved place.
    static func alert(_ alert: WeatherAlert, at place: Location, replaces: UInt32) -> DesktopNotification {
        let title = alert.title.isEmpty ? "Weather alert" : alert.title
        var body = "\(alert.severity.rawValue) alert for \(place.displayName)"
        let description = alert.description.trimmingSpaces()
        if !description.isEmpty {
            body +=
                ": "
                + (description.count > maximumBodyCharacters
                    ? String(description.prefix(maximumBodyCharacters)) + "…" : description)
        }
        return DesktopNotification(
            replaces: replaces, icon: "weather-severe-alert",
            summary: "\(title) — \(place.name)".replacingControlCharacters(),
            body: body.replacingControlCharacters(), urgency: Urgency(alert.severity))
    }

    /// Rain starting soon at the selected place; `summary` is the nowcast's line.
    static func rainSoon(at place: Location, summary: String, replaces: UInt32) -> DesktopNotification {
        DesktopNotification(
            replaces: replaces, icon: "weather-showers",
            summary: "Rain soon — \(place.name)".replacingControlCharacters(),
            body: summary.replacingControlCharacters(), urgency: .normal)
    }
}
