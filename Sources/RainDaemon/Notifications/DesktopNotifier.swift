import RainCore
import RainDaemonCore
import RainSystem

/// Desktop notifications from the user instance, through
/// `org.freedesktop.Notifications` on the session bus: severe-weather alerts
/// of any saved place while they are in effect (`AlertNotices` decides which:
/// those new at one place together in one notification, an update in place
/// of the one it updates, closed when they end) and rain starting soon at the
/// selected place, once per rain episode and updated in place.
///
/// The session bus is opened on the first notification, not before, so a
/// raind that never notifies never connects. Calls go out one at a time: a
/// notification that replaces another is sent once the server has told the
/// id of the one it replaces. When nobody serves notifications (the name is
/// not owned and cannot be activated), that is logged once and nothing is
/// sent or queued until the name gets an owner (NameOwnerChanged, one match:
/// no call per event). What was shown is kept in `recordPath` so a restart
/// shows nothing again.
public final class DesktopNotifier {
    static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let callTimeout = 10.0

    /// Whether notifications can be sent.
    enum Availability: Equatable {
        /// Not asked yet, or the server answered.
        case usable
        /// Nobody owns the name; waiting for an owner.
        case noServer
        /// No session bus: off until raind restarts or reloads.
        case noBus
    }

    /// Where a Notify reply's id goes.
    enum Target {
        /// A notification of alerts: its group in the record.
        case alerts(place: LocationID, group: UInt32)
        case rain(episode: String)
        case air(place: LocationID, kind: AirNotices.Kind)
    }

    enum Outgoing {
        /// Worded when it is sent, in the session's language then.
        case notify(() -> DesktopNotification, Target)
        case close(UInt32)
    }

    /// Where the session's language is read: the user manager's environment
    /// (`systemctl --user set-environment`, `import-environment` at login).
    static let manager = (
        name: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
        interface: "org.freedesktop.systemd1.Manager"
    )

    let connect: () throws(BusError) -> BusConnection
    let configuration: () -> Configuration
    let now: () -> Double
    let recordPath: String?
    let events: DaemonEvents
    let logger: Logger
    /// The saved places, as last written: alerts and outlooks name them.
    var places: LocationList

    var bus: BusConnection?
    var availability = Availability.usable {
        didSet { if availability != oldValue { announceRainSoonInterest() } }
    }
    /// Whether a rain-soon notification could be shown now: the setting is
    /// on and a server is there (or has not been asked yet).
    public var wantsRainSoon: Bool { configuration().notifyRainSoon && availability == .usable }
    /// The rain episode shown, as the nowcast last spoke of it, and its id.
    var rainEpisode: (id: String, spell: RainEpisode)?
    /// Each place's alerts as last reported, so a reload or an alert's onset
    /// or end can be decided anew without a new report.
    var reportedAlerts: [LocationID: (place: Location, alerts: [WeatherAlert])] = [:]
    /// Each place's air as last served.
    var reportedAir: [LocationID: (place: Location, air: AirQuality?)] = [:]
    var ownerWatch: BusSlot?
    /// Whether the server's name has an owner already, asked once the watch is in place.
    var ownerCheck: BusSlot?
    var queue: [Outgoing] = []
    var inFlight: BusSlot?
    /// The user manager's `LANG` and `LC_*` as last read, nil when it could
    /// not be read (raind not under a user manager on its bus): raind's own
    /// environment then. Read again before each run of notifications, so a
    /// language the session changes after raind started is followed.
    var sessionEnvironment: [String: String]?
    /// Whether `sessionEnvironment` was read for the calls queued now.
    var environmentRead = false
    /// Whether it was logged that the user manager's environment could not be read.
    var toldNoManager = false
    var record: NotificationRecord
    var writtenRecord: NotificationRecord?
    /// Whether no call is queued or waiting for its answer.
    var isIdle: Bool { inFlight == nil && queue.isEmpty }
    /// For tests: called when the last call queued was answered, and when
    /// the availability changes.
    var settled: () -> Void = {}

    /// - Parameters:
    ///   - connect: opens the session bus (`BusConnection(.user, loop:)` in the daemon).
    ///   - configuration: the configuration in force (`[Notifications]`), read at each event.
    ///   - now: the wall clock, Unix seconds.
    ///   - recordPath: the file that remembers what was shown; nil keeps it in memory.
    public init(
        connect: @escaping () throws(BusError) -> BusConnection, configuration: @escaping () -> Configuration,
        now: @escaping () -> Double, recordPath: String?, places: LocationList = LocationList(),
        events: DaemonEvents = DaemonEvents(), logger: Logger
    ) {
        self.connect = connect
        self.configuration = configuration
        self.now = now
        self.recordPath = recordPath
        self.places = places
        self.events = events
        self.logger = logger
        if let recordPath,
            case .success(let bytes) = FileIO.readFile(recordPath, limit: 1 << 20, followingLinks: false),
            let saved = NotificationRecord(bytes: bytes)
        {
            // Alerts that ended while raind was stopped are over: the file
            // keeps what may still be shown (`NotificationRecord.ended`).
            record = saved.withoutAlertsEnded(before: now())
            writtenRecord = saved
        } else {
            record = NotificationRecord()
        }
    }

    // MARK: Inputs

    /// Routes the events that concern notifications; `places` are the saved ones.
    /// Emits `.rainSoonInterestChanged` with `wantsRainSoon`, which may have
    /// changed (notifications became possible or impossible, a reload): the
    /// nowcast's short refreshes run without subscribers only while rain soon
    /// can be shown.
    func announceRainSoonInterest() {
        events.emit(.rainSoonInterestChanged(wantsRainSoon))
    }

    public func observe(_ event: Event, places: LocationList) {
        switch event {
        case .alertsChanged(let id, let alerts):
            if let place = places[id] { alertsChanged(at: place, alerts: alerts) }
        case .locationRemoved(let place):
            placeRemoved(place.id)
        case .nowcastChanged(let id, let nowcast, let change):
            if let place = places[id] { nowcastChanged(at: place, nowcast: nowcast, change: change) }
        case .weatherUpdated(let id, let forecast):
            if let place = places[id] { airChanged(at: place, air: forecast.air) }
        default:
            break
        }
    }

    /// A place's alerts changed (`AlertsChanged`): those in effect that
    /// `[Notifications] MinimumSeverity=` lets through and were not shown
    /// are shown together, updates replace what they update, and the
    /// notifications of alerts that no longer hold are closed.
    public func alertsChanged(at place: Location, alerts: [WeatherAlert]) {
        reportedAlerts[place.id] = (place, alerts)
        decideAlerts(at: place)
    }

    /// Decides every place's alerts anew at the present time, as last
    /// reported: after a reload (`MinimumSeverity=` may have changed: a
    /// lower one shows the alerts in effect it now lets through), and when
    /// an alert begins or ends (the daemon calls it then; an upcoming alert
    /// is shown at its onset).
    public func reconsiderAlerts() {
        for id in reportedAlerts.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let place = places[id] ?? reportedAlerts[id]?.place { decideAlerts(at: place) }
        }
    }

    func decideAlerts(at place: Location) {
        let settings = configuration()
        let time = now()
        let decision = AlertNotices.decide(
            place: place.id, alerts: reportedAlerts[place.id]?.alerts ?? [], record: record,
            minimum: settings.minimumAlertSeverity, now: time)
        guard settings.notifyAlerts, availability == .usable else {
            // Not shown, so not remembered as shown; alerts that no longer hold are forgotten.
            var next = decision.record
            for case .show(let notice) in decision.actions where !notice.isUpdate {
                next.alerts.removeAll { $0.place == place.id && $0.group == notice.group }
            }
            update(next)
            if availability == .usable {
                for case .close(_, _, let id) in decision.actions where id != 0 { send(.close(id)) }
            }
            return
        }
        update(decision.record)
        let zone = ZoneInfo.system.rules(named: place.timeZone)
        // Without the zone's rules, times are UTC: an alert's span is still told.
        let local = { (time: Double) in zone?.local(time) ?? CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0) }
        for action in decision.actions {
            switch action {
            case .close(_, let group, let id):
                logger.info("closing the alert notification of \(place.id) (group \(group)): its alerts no longer hold")
                // 0: not answered yet; closed once it is (`notified`).
                if id != 0 { send(.close(id)) }
            case .show(let notice):
                let names = notice.alerts.map { "\($0.severity.rawValue) '\($0.title)'" }.joined(separator: ", ")
                logger.info(
                    "notifying \(notice.alerts.count == 1 ? "alert" : "\(notice.alerts.count) alerts") \(names) for \(place.id)"
                        + (notice.isUpdate ? " (an update)" : ""))
                // Worded in the session's language when sent (`sessionEnvironment`).
                let wording = {
                    DesktopNotification.alerts(
                        notice.alerts, at: place, now: time, local: local, replaces: notice.replaces)
                }
                send(.notify(wording, .alerts(place: place.id, group: notice.group)))
            }
        }
    }

    /// The selected place's outlook changed materially (`NowcastChanged`):
    /// rain coming or falling is shown, once per episode and updated in place
    /// as its summary changes; rain no longer spoken of closes it.
    func nowcastChanged(at place: Location, nowcast: Nowcast?, change: NowcastChange) {
        guard let nowcast, let spell = nowcast.episode else {
            if let shown = rainEpisode { rainEnded(episode: shown.id) }
            rainEpisode = nil
            return
        }
        let tolerance = Double(nowcast.resolutionSeconds)
        if change.newEpisode || rainEpisode.map({ !$0.spell.isSame(as: spell, tolerance: tolerance) }) ?? true {
            if let shown = rainEpisode { rainEnded(episode: shown.id) }
            // Named by place and start. The last episode's notification was
            // closed just above, so the new one never stacks beside it.
            rainEpisode = ("\(place.id.rawValue)@\(Int(spell.start / 60) * 60)", spell)
        } else {
            rainEpisode?.spell = spell
        }
        if let shown = rainEpisode {
            rainSoon(place: place, summary: nowcast.summary, episode: shown.id) { nowcast.at(nowcast.time)?.summary }
        }
    }

    /// Rain is expected soon at `place` (the selected one). Shown once per
    /// `episode`; a new summary for the same episode updates the notification
    /// in place, and a new episode replaces the previous one's.
    /// `speak`: the summary in the locale it is called in, when it differs
    /// (the nowcast's own sentence); called when the notification is sent.
    public func rainSoon(place: Location, summary: String, episode: String, speak: (() -> String?)? = nil) {
        guard configuration().notifyRainSoon, availability == .usable else { return }
        if let shown = record.rain, shown.episode == episode, shown.summary == summary, shown.place == place.id {
            return
        }
        let replaces = record.rain?.notification ?? 0
        var next = record
        next.rain = .init(place: place.id, episode: episode, summary: summary, notification: replaces)
        update(next)
        logger.info("notifying rain soon at \(place.id): \(summary)")
        let wording = { DesktopNotification.rainSoon(at: place, summary: speak?() ?? summary, replaces: replaces) }
        send(.notify(wording, .rain(episode: episode)))
    }

    /// The rain episode is over (it rained and stopped, or it will not come):
    /// its notification is closed, and the next episode is shown anew.
    public func rainEnded(episode: String) {
        guard let shown = record.rain, shown.episode == episode else { return }
        var next = record
        next.rain = nil
        update(next)
        if shown.notification != 0, availability == .usable { send(.close(shown.notification)) }
    }

    /// A saved place was removed: its alerts are forgotten.
    public func placeRemoved(_ id: LocationID) {
        reportedAlerts[id] = nil
        reportedAir[id] = nil
        var next = AlertNotices.forget(place: id, in: record)
        let (episodes, closing) = AirNotices.forget(place: id, in: record.air ?? [])
        next.air = episodes
        update(next)
        if availability == .usable {
            for notification in closing where notification != 0 { send(.close(notification)) }
        }
    }
}

/// What the notifier acts on (the event table, `DaemonEvents.connect`): the
/// published changes, the places they name, a reload (`RainSoon=` and
/// `MinimumSeverity=` may have changed), and an alert's onset or end.
extension DesktopNotifier {
    func published(_ change: Event) { observe(change, places: places) }

    func stateChanged(from old: PersistentState, to new: PersistentState) {
        places = new.places
        // Only the selected place's air notifies unless AirQualityPlaces=all.
        if old.places.selectedID != new.places.selectedID { reconsiderAir() }
    }

    func configurationReloaded() {
        // A session bus that was missing may be there now (it started after
        // raind): the next notification tries again.
        if availability == .noBus { availability = .usable }
        announceRainSoonInterest()
        reconsiderAlerts()
        reconsiderAir()
    }
}
