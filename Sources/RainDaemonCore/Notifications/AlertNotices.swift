import RainCore

/// Decides which severe-weather alerts make desktop notifications, so that
/// they inform without spamming. Pure: the clock is a parameter, the
/// notifier sends what this returns and calls it again whenever the alerts
/// may read differently (a new list, an alert's onset or end, a reload).
///
/// - Only alerts in effect at `now` notify (`WeatherAlert.isInEffect(at:)`):
///   one whose onset lies ahead is notified when it begins.
/// - All the alerts that notify for the first time at one place in one call
///   make one notification (a group), however many they are.
/// - An alert that updates one already shown (an `Update` naming it in
///   `references`, or the same alert at a higher severity) replaces the
///   notification it is in (`replaces`), which is shown again with the
///   group's alerts as they are now.
/// - When every alert of a notification has ended or been withdrawn
///   (cancelled, or no longer reported), the notification is closed; while
///   some remain, one withdrawn is taken out of it (replaced), one that
///   just ran out leaves it as it is (its end was in it).
/// - `notifies(_:minimum:)` says which alerts `[Notifications]
///   MinimumSeverity=` lets through; an update of an alert already shown is
///   shown whatever its severity.
public enum AlertNotices {
    /// A notification to show: a new one (`replaces` 0) or one in place of
    /// an earlier notification of the same group.
    public struct Notice: Equatable, Sendable {
        public var place: LocationID
        /// The notification's group in the record (`NotificationRecord.AlertEntry.group`).
        public var group: UInt32
        /// The alerts it shows, most severe first; never empty.
        public var alerts: [WeatherAlert]
        /// The notification it replaces; 0 for a new one, or while the
        /// server has not yet told the id of the one it replaces.
        public var replaces: UInt32
        /// Whether it is an update of a notification shown earlier.
        public var isUpdate: Bool
    }

    /// What the notifier does, in order.
    public enum Action: Equatable, Sendable {
        case show(Notice)
        /// Closes the group's notification: none of its alerts holds any
        /// more. `notification` is 0 when the server has not yet answered the
        /// Notify; the notifier closes it once it has.
        case close(place: LocationID, group: UInt32, notification: UInt32)
    }

    /// Longest alert key kept (a URI the provider sends may be long).
    public static let maximumKeyBytes = 512

    /// What makes two reports the same alert: the issuer's identifier of
    /// the message when it gives one (CAP `identifier`, what updates name
    /// in `references`), else the provider's URI (Pirate Weather passes on
    /// the issuing agency's), else the title and start time.
    public static func key(of alert: WeatherAlert) -> String {
        var key: String
        if let id = alert.id, !id.isEmpty {
            key = id
        } else if !alert.uri.isEmpty {
            key = alert.uri
        } else {
            key = "\(alert.title)@\(alert.start.map { Int($0) } ?? 0)"
        }
        while key.utf8.count > maximumKeyBytes { key.removeLast() }
        return key
    }

    /// Whether `alert` notifies under `[Notifications] MinimumSeverity=`
    /// `minimum`: an alert of known severity when it is at least that
    /// severe; one of Unknown severity (the issuer did not say) under every
    /// minimum but `extreme`, so the default (`severe`) does not drop it
    /// unseen: raind cannot tell it is less than severe.
    public static func notifies(_ alert: WeatherAlert, minimum: AlertSeverity) -> Bool {
        alert.severity == .unknown ? minimum != .extreme : alert.severity <= minimum
    }

    /// The actions `alerts`, the place's alerts as reported now, call for,
    /// and the record with them entered (a new notification's id is 0 until
    /// the server answers) and with the alerts that no longer hold
    /// forgotten. `minimum`: `[Notifications] MinimumSeverity=`; `now`: Unix
    /// seconds.
    public static func decide(
        place: LocationID, alerts: [WeatherAlert], record: NotificationRecord, minimum: AlertSeverity, now: Double
    ) -> (actions: [Action], record: NotificationRecord) {
        var record = record.withGroups()
        // A message that an update or a cancellation in the same list names is superseded.
        let superseding = alerts.filter { $0.messageType == .update || $0.messageType == .cancel }
        let superseded = Set(superseding.flatMap { $0.references ?? [] })
        let cancelled = Set(alerts.filter { $0.messageType == .cancel }.flatMap { $0.references ?? [] })
        var live: [(key: String, alert: WeatherAlert)] = []
        var liveKeys: Set<String> = []
        for alert in alerts where alert.isInEffect(at: now) && !(alert.id.map(superseded.contains) ?? false) {
            let key = key(of: alert)
            if liveKeys.insert(key).inserted { live.append((key, alert)) }
        }
        func entry(_ key: String) -> Int? {
            record.alerts.firstIndex { $0.place == place && $0.key == key }
        }
        var changed: Set<UInt32> = []

        // Updates and upgrades of alerts shown: their entries follow them.
        for (key, alert) in live {
            if let index = entry(key) {
                if alert.severity < record.alerts[index].severity { changed.insert(record.alerts[index].group ?? 0) }
                record.alerts[index].severity = min(record.alerts[index].severity, alert.severity)
                record.alerts[index].end = alert.end
            } else if let references = alert.references, alert.messageType != .alert,
                let index = record.alerts.firstIndex(where: {
                    $0.place == place && references.contains($0.key) && !liveKeys.contains($0.key)
                })
            {
                record.alerts[index].key = key
                record.alerts[index].severity = alert.severity
                record.alerts[index].end = alert.end
                changed.insert(record.alerts[index].group ?? 0)
            }
        }

        // Alerts shown that hold no more: withdrawn ones change their group, ended ones do not.
        var emptied: [UInt32: UInt32] = [:]
        var touched: Set<UInt32> = []
        for gone in record.alerts where gone.place == place && !liveKeys.contains(gone.key) {
            let group = gone.group ?? 0
            touched.insert(group)
            emptied[group] = max(emptied[group] ?? 0, gone.notification)
            let ran = !cancelled.contains(gone.key) && (gone.end.map { $0 <= now } ?? false)
            if !ran { changed.insert(group) }
        }
        record.alerts.removeAll { $0.place == place && !liveKeys.contains($0.key) }
        var actions: [Action] = []
        for group in touched.sorted() {
            guard !record.alerts.contains(where: { $0.place == place && $0.group == group }) else { continue }
            changed.remove(group)
            actions.append(.close(place: place, group: group, notification: emptied[group] ?? 0))
        }

        for group in changed.sorted() {
            let members = record.alerts.filter { $0.place == place && $0.group == group }
            let keys = Set(members.map(\.key))
            let shown = live.filter { keys.contains($0.key) }.map(\.alert)
            guard !shown.isEmpty else { continue }
            actions.append(
                .show(
                    Notice(
                        place: place, group: group, alerts: mostSevereFirst(shown),
                        replaces: members.map(\.notification).max() ?? 0, isUpdate: true)))
        }

        // The alerts shown for the first time: one notification for them all.
        let group = record.unusedGroup()
        var fresh: [WeatherAlert] = []
        for (key, alert) in live where entry(key) == nil && notifies(alert, minimum: minimum) {
            guard record.alerts.count < NotificationRecord.maximumAlerts else { break }
            fresh.append(alert)
            record.alerts.append(
                .init(place: place, key: key, severity: alert.severity, notification: 0, group: group, end: alert.end))
        }
        if !fresh.isEmpty {
            actions.append(
                .show(Notice(place: place, group: group, alerts: mostSevereFirst(fresh), replaces: 0, isUpdate: false)))
        }
        return (actions, record)
    }

    /// Most severe first, the order given among equals.
    static func mostSevereFirst(_ alerts: [WeatherAlert]) -> [WeatherAlert] {
        alerts.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
    }

    /// The record without a removed place's alerts.
    public static func forget(place: LocationID, in record: NotificationRecord) -> NotificationRecord {
        var record = record
        record.alerts.removeAll { $0.place == place }
        if record.rain?.place == place { record.rain = nil }
        return record
    }
}
