/// Decides which severe-weather alerts deserve a desktop notification: a new
/// alert at or above the minimum severity is shown once; the same alert
/// upgraded to a higher severity replaces its earlier notification; nothing
/// else is shown again. Pure: the notifier sends what this returns.
public enum AlertNotices {
    /// One notification to send.
    public struct Notice: Equatable, Sendable {
        public var place: LocationID
        public var key: String
        public var alert: WeatherAlert
        /// The earlier notification this one replaces (an upgrade); 0 for a new one.
        public var replaces: UInt32
    }

    /// Longest alert key kept (a URI the provider sends may be long).
    public static let maximumKeyBytes = 512

    /// What makes two reports the same alert: the provider's URI when it
    /// gives one (Pirate Weather passes on the issuing agency's), else the
    /// title and start time.
    public static func key(of alert: WeatherAlert) -> String {
        var key = alert.uri.isEmpty ? "\(alert.title)@\(alert.start.map { Int($0) } ?? 0)" : alert.uri
        while key.utf8.count > maximumKeyBytes { key.removeLast() }
        return key
    }

    /// The notifications `alerts`, the place's current alerts, call for, and
    /// the record with them entered (notification id 0 until the server
    /// answers) and with the place's alerts that ended forgotten.
    /// `minimum`: the least severity that notifies; `now`: Unix seconds, an
    /// alert whose end has passed does not notify.
    public static func decide(
        place: LocationID, alerts: [WeatherAlert], record: NotificationRecord, minimum: AlertSeverity, now: Double
    ) -> (notices: [Notice], record: NotificationRecord) {
        var record = record
        let current = Set(alerts.map(key))
        record.alerts.removeAll { $0.place == place && !current.contains($0.key) }
        var notices: [Notice] = []
        for alert in alerts where alert.severity <= minimum && (alert.end.map { $0 > now } ?? true) {
            let key = key(of: alert)
            if let index = record.alerts.firstIndex(where: { $0.place == place && $0.key == key }) {
                guard alert.severity < record.alerts[index].severity else { continue }
                notices.append(
                    Notice(place: place, key: key, alert: alert, replaces: record.alerts[index].notification))
                record.alerts[index].severity = alert.severity
                record.alerts[index].notification = 0
            } else {
                guard record.alerts.count < NotificationRecord.maximumAlerts else { break }
                notices.append(Notice(place: place, key: key, alert: alert, replaces: 0))
                record.alerts.append(.init(place: place, key: key, severity: alert.severity, notification: 0))
            }
        }
        return (notices, record)
    }

    /// The record without a removed place's alerts.
    public static func forget(place: LocationID, in record: NotificationRecord) -> NotificationRecord {
        var record = record
        record.alerts.removeAll { $0.place == place }
        if record.rain?.place == place { record.rain = nil }
        return record
    }
}
