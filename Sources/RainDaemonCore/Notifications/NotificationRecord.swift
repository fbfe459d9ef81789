import RainCore

/// Which desktop notifications raind has shown, so that an alert is shown
/// once, an update replaces the notification it is in (`replaces_id`), one
/// that ends closes it, and a restart does not show them again. Kept in
/// the cache directory (`notifications.json`, docs/FILES.md): losing it
/// costs at most one repeated notification, so it is written without
/// fsync. Read back, it is checked (`init(bytes:)`) and the alerts that
/// ended meanwhile are dropped (`withoutAlertsEnded(before:)`).
public struct NotificationRecord: Equatable, Sendable, Codable {
    /// One alert shown for one place.
    public struct AlertEntry: Equatable, Sendable, Codable {
        public var place: LocationID
        /// `AlertNotices.key(of:)`.
        public var key: String
        /// The highest severity it was shown at.
        public var severity: AlertSeverity
        /// The server's id for the notification; 0 while the Notify call is under way.
        public var notification: UInt32
        /// The notification it is shown in: the alerts first shown together
        /// share one. nil in a record written before groups (each alert
        /// then had its own, and gets its own number when read).
        public var group: UInt32?
        /// When it ends, as last reported: one that goes unreported after
        /// this ran out; before it, it was withdrawn.
        public var end: Double?

        public init(
            place: LocationID, key: String, severity: AlertSeverity, notification: UInt32, group: UInt32? = nil,
            end: Double? = nil
        ) {
            self.place = place
            self.key = key
            self.severity = severity
            self.notification = notification
            self.group = group
            self.end = end
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

    /// An air or UV episode shown for one place (`AirNotices`).
    public struct AirEntry: Equatable, Sendable, Codable {
        public var place: LocationID
        public var kind: AirNotices.Kind
        /// The worst category shown in the episode: its level (air) or its
        /// place among the UV categories.
        public var rank: Int
        /// The server's id for the notification; 0 while the Notify call is under way.
        public var notification: UInt32

        public init(place: LocationID, kind: AirNotices.Kind, rank: Int, notification: UInt32) {
            self.place = place
            self.kind = kind
            self.rank = rank
            self.notification = notification
        }
    }

    public var alerts: [AlertEntry]
    public var rain: RainEntry?
    /// The air and UV episodes in progress; nil in a record written before them.
    public var air: [AirEntry]?

    public init(alerts: [AlertEntry] = [], rain: RainEntry? = nil, air: [AirEntry]? = nil) {
        self.alerts = alerts
        self.rain = rain
        self.air = air
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
            record.rain.map({ $0.place.isWellFormed }) ?? true,
            (record.air?.count ?? 0) <= Self.maximumAlerts,
            record.air?.allSatisfy({ $0.place.isWellFormed }) ?? true
        else { return nil }
        self = record
    }

    public var bytes: [UInt8] { jsonBytes + [UInt8(ascii: "\n")] }

    /// The record without the alerts that ended before `time` (their last
    /// reported end): read back after a restart, those that ran out while
    /// raind was stopped are no longer kept, so the file holds only what
    /// may still be shown or updated, and never fills with alerts long
    /// over (`maximumAlerts` would then keep new ones from being shown).
    public func withoutAlertsEnded(before time: Double) -> NotificationRecord {
        var record = self
        record.alerts.removeAll { entry in entry.end.map { $0 < time } ?? false }
        return record
    }

    /// The record with a group number on every entry: those without one
    /// (an older record's) each get a number of their own.
    func withGroups() -> NotificationRecord {
        var record = self
        for index in record.alerts.indices where record.alerts[index].group == nil {
            record.alerts[index].group = record.unusedGroup()
        }
        return record
    }

    /// A group number no entry has (never 0). The record holds at most
    /// `maximumAlerts` entries, so one is always free below that bound.
    func unusedGroup() -> UInt32 {
        let used = Set(alerts.compactMap(\.group))
        if let highest = used.max(), highest < UInt32.max { return highest + 1 }
        return (1...UInt32.max).first { !used.contains($0) } ?? 1
    }
}
