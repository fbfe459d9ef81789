/// Which desktop notifications raind has shown, so that an alert is shown
/// once, an upgrade replaces it (`replaces_id`), and a restart does not show
/// them again. Kept in the cache directory (`notifications.json`): losing it
/// costs at most one repeated notification, so it is written without fsync.
public struct NotificationRecord: Equatable, Sendable, Codable {
    /// One alert shown for one place.
    public struct AlertEntry: Equatable, Sendable, Codable {
        public var place: LocationID
        /// `AlertNotices.key(of:)`.
        public var key: String
        public var severity: AlertSeverity
        /// The server's id for the notification; 0 while the Notify call is under way.
        public var notification: UInt32

        public init(place: LocationID, key: String, severity: AlertSeverity, notification: UInt32) {
            self.place = place
            self.key = key
            self.severity = severity
            self.notification = notification
        }
    }

    /// The rain episode last announced.
    public struct RainEntry: Equatable, Sendable, Codable {
        public var place: LocationID
        public var episode: String
        public var summary: String
        public var notification: UInt32

        public init(place: LocationID, episode: String, summary: String, notification: UInt32) {
            self.place = place
            self.episode = episode
            self.summary = summary
            self.notification = notification
        }
    }

    public var alerts: [AlertEntry]
    public var rain: RainEntry?

    public init(alerts: [AlertEntry] = [], rain: RainEntry? = nil) {
        self.alerts = alerts
        self.rain = rain
    }

    /// Most alerts remembered: a hostile or broken file cannot grow without bound.
    public static let maximumAlerts = 512

    /// Reads the file's content; nil when it is not a record (a damaged file
    /// is forgotten: the worst outcome is one alert shown again).
    public init?(bytes: [UInt8]) {
        guard let value = try? JSON(parsing: bytes),
            let record = try? NotificationRecord(json: value, context: "notifications"),
            record.alerts.count <= Self.maximumAlerts,
            record.alerts.allSatisfy({ $0.place.isWellFormed && $0.key.utf8.count <= AlertNotices.maximumKeyBytes }),
            record.rain.map({ $0.place.isWellFormed }) ?? true
        else { return nil }
        self = record
    }

    public var bytes: [UInt8] { jsonBytes + [UInt8(ascii: "\n")] }
}
