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
        /// No session bus: off until raind restarts.
        case noBus
    }

    /// Where a Notify reply's id goes.
    private enum Target {
        /// A notification of alerts: its group in the record.
        case alerts(place: LocationID, group: UInt32)
        case rain(episode: String)
        case air(place: LocationID, kind: AirNotices.Kind)
    }

    private enum Outgoing {
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

    private let connect: () throws(BusError) -> BusConnection
    private let configuration: () -> Configuration
    private let now: () -> Double
    private let recordPath: String?
    private let events: DaemonEvents
    private let logger: Logger
    /// The saved places, as last written: alerts and outlooks name them.
    private var places: LocationList

    private var bus: BusConnection?
    private(set) var availability = Availability.usable {
        didSet { if availability != oldValue { announceRainSoonInterest() } }
    }
    /// Whether a rain-soon notification could be shown now: the setting is
    /// on and a server is there (or has not been asked yet).
    public var wantsRainSoon: Bool { configuration().notifyRainSoon && availability == .usable }
    /// The rain episode shown, as the nowcast last spoke of it, and its id.
    private var rainEpisode: (id: String, spell: RainEpisode)?
    /// Each place's alerts as last reported, so a reload or an alert's onset
    /// or end can be decided anew without a new report.
    private var reportedAlerts: [LocationID: (place: Location, alerts: [WeatherAlert])] = [:]
    private var ownerWatch: BusSlot?
    private var queue: [Outgoing] = []
    private var inFlight: BusSlot?
    /// The user manager's `LANG` and `LC_*` as last read, nil when it could
    /// not be read (raind not under a user manager on its bus): raind's own
    /// environment then. Read again before each run of notifications, so a
    /// language the session changes after raind started is followed.
    private(set) var sessionEnvironment: [String: String]?
    /// Whether `sessionEnvironment` was read for the calls queued now.
    private var environmentRead = false
    private(set) var record: NotificationRecord
    private var writtenRecord: NotificationRecord?
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
            record = saved
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

    private func decideAlerts(at place: Location) {
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

    // MARK: Air

    /// Each place's air as last served.
    private var reportedAir: [LocationID: (place: Location, air: AirQuality?)] = [:]

    /// A place's air (or the rest of its data) changed: its air and UV
    /// episodes are decided anew (`AirNotices`).
    public func airChanged(at place: Location, air: AirQuality?) {
        reportedAir[place.id] = (place, air)
        decideAir(at: place)
    }

    /// Decides every place's air anew: after a reload (the thresholds may
    /// have changed) and when the selection moves.
    public func reconsiderAir() {
        for id in reportedAir.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let place = places[id] ?? reportedAir[id]?.place { decideAir(at: place) }
        }
    }

    private func decideAir(at place: Location) {
        let settings = configuration()
        let time = now()
        var air = reportedAir[place.id]?.air
        // Data older than the views show it is no reading of now; another
        // place than the selected one notifies only with AirQualityPlaces=all.
        if let fetched = air?.fetchedAt, time - fetched >= ForecastPresenter.airShownFor { air = nil }
        if !settings.notifyAirEveryPlace, place.id != places.selectedID { air = nil }
        let episodes = record.air ?? []
        let decision = AirNotices.decide(
            place: place.id, placeName: place.name, air: air, episodes: episodes,
            airLevel: settings.notifyAirQualityLevel, uv: settings.notifyUVCategory)
        var next = record
        next.air = decision.episodes
        guard availability == .usable else {
            // Not shown, so not remembered as shown.
            next.air = decision.episodes.filter { $0.place != place.id || $0.notification != 0 }
            update(next)
            return
        }
        update(next)
        // In the session's language when sent (the log lines stay raind's):
        // the same pure decision, worded in that locale.
        let words = { (position: Int, notice: AirNotices.Notice) -> DesktopNotification in
            let worded = AirNotices.decide(
                place: place.id, placeName: place.name, air: air, episodes: episodes,
                airLevel: settings.notifyAirQualityLevel, uv: settings.notifyUVCategory
            ).actions
            var shown = notice
            if position < worded.count, case .show(let spoken) = worded[position] { shown = spoken }
            return .air(shown, credit: air.map(ForecastPresenter.creditLine))
        }
        for (position, action) in decision.actions.enumerated() {
            switch action {
            case .close(_, let kind, let id):
                logger.info("closing the \(kind.rawValue) notification of \(place.id): the episode ended")
                if id != 0 { send(.close(id)) }
            case .show(let notice):
                logger.info("notifying \(notice.title)" + (notice.replaces != 0 ? " (in place of the one shown)" : ""))
                send(.notify({ words(position, notice) }, .air(place: place.id, kind: notice.kind)))
            }
        }
    }

    // MARK: Sending

    private func send(_ outgoing: Outgoing) {
        queue.append(outgoing)
        sendNext()
    }

    private func sendNext() {
        if inFlight == nil && queue.isEmpty { environmentRead = false }
        guard inFlight == nil, !queue.isEmpty, availability == .usable else { return }
        let connection: BusConnection
        if let bus, bus.isOpen {
            connection = bus
        } else {
            do throws(BusError) {
                connection = try connect()
                bus = connection
            } catch {
                availability = .noBus
                dropQueue()
                logger.warning("no session bus (\(error)): desktop notifications are off until raind restarts")
                settled()
                return
            }
        }
        if case .notify = queue.first, !environmentRead {
            environmentRead = true
            if readSessionEnvironment(on: connection) { return }
        }
        let outgoing = queue.removeFirst()
        do throws(BusError) {
            switch outgoing {
            case .notify(let wording, let target):
                var notification = Localization.inLocale(of: sessionEnvironment, wording)
                // An earlier call in the queue may have told the id this one replaces.
                if notification.replaces == 0 { notification.replaces = shownID(of: target) }
                inFlight = try connection.call(
                    destination: Self.busName, path: Self.objectPath, interface: Self.interface, member: "Notify",
                    arguments: notification.arguments, timeout: Self.callTimeout,
                    read: { message throws(BusError) in try message.readUInt32() }
                ) { [weak self] result in
                    self?.notified(result, target: target)
                }
            case .close(let id):
                inFlight = try connection.call(
                    destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                    member: "CloseNotification", arguments: [.uint32(id)], timeout: Self.callTimeout,
                    read: { _ throws(BusError) in () }
                ) { [weak self] result in
                    guard let self else { return }
                    self.inFlight = nil
                    if case .failure(let error) = result {
                        self.failed(error, Self.account(of: outgoing))
                    }
                    self.sendNext()
                    if self.inFlight == nil { self.settled() }
                }
            }
        } catch {
            if case .notify(_, let target) = outgoing {
                var next = record
                Self.forget(target, in: &next)
                update(next)
            }
            failed(error, Self.account(of: outgoing))
            sendNext()
        }
    }

    /// Asks the user manager for its environment, then goes on sending;
    /// false when the call could not even be sent.
    private func readSessionEnvironment(on connection: BusConnection) -> Bool {
        do throws(BusError) {
            inFlight = try connection.getProperty(
                destination: Self.manager.name, path: Self.manager.path, interface: Self.manager.interface,
                name: "Environment", timeout: Self.callTimeout
            ) { [weak self] result in
                guard let self else { return }
                self.inFlight = nil
                switch result {
                case .success(let value):
                    self.sessionEnvironment = Self.localeVariables(of: value)
                case .failure(let error):
                    if self.sessionEnvironment != nil || !self.toldNoManager {
                        self.logger.info(
                            "no user manager's environment (\(error)): notifications speak raind's own locale")
                        self.toldNoManager = true
                    }
                    self.sessionEnvironment = nil
                }
                self.sendNext()
                if self.inFlight == nil { self.settled() }
            }
            return true
        } catch {
            sessionEnvironment = nil
            return false
        }
    }

    /// Whether it was logged that the user manager's environment could not be read.
    private var toldNoManager = false

    /// The locale's variables among a manager's `Environment` (`as`, each
    /// `NAME=value`); nil when it sets none, so raind's own are used.
    static func localeVariables(of value: BusValue) -> [String: String]? {
        guard case .array(_, let items) = value else { return nil }
        var found: [String: String] = [:]
        for case .string(let assignment) in items {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            let name = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            // A locale's name is short and printable; anything else is not one.
            guard Localization.localeVariables.contains(name), text.utf8.count <= 128,
                text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f })
            else { continue }
            found[name] = text
        }
        return found.isEmpty ? nil : found
    }

    private func notified(_ result: Result<UInt32, BusError>, target: Target) {
        inFlight = nil
        var next = record
        switch (result, target) {
        case (.success(let id), .alerts(let place, let group)):
            let members = next.alerts.indices.filter {
                next.alerts[$0].place == place && next.alerts[$0].group == group
            }
            if members.isEmpty {
                // Its alerts ended while this was on its way, so nothing else will ever close it.
                queue.append(.close(id))
            }
            for index in members { next.alerts[index].notification = id }
        case (.success(let id), .air(let place, let kind)):
            if let index = next.air?.firstIndex(where: { $0.place == place && $0.kind == kind }) {
                next.air?[index].notification = id
            } else {
                // The episode ended while this was on its way, so nothing else will ever close it.
                queue.append(.close(id))
            }
        case (.success(let id), .rain(let episode)):
            if next.rain?.episode == episode {
                next.rain?.notification = id
            } else {
                // The episode ended (or another took its place) while this was
                // on its way, so nothing else will ever close it.
                queue.append(.close(id))
            }
        case (.failure, _):
            // Not shown: shown again when it is next reported.
            Self.forget(target, in: &next)
        }
        update(next)
        if case .failure(let error) = result {
            failed(error, Self.account(of: target))
        }
        sendNext()
        if inFlight == nil { settled() }
    }

    /// The id of the notification `target` would replace (0: none yet).
    private func shownID(of target: Target) -> UInt32 {
        switch target {
        case .alerts(let place, let group):
            return record.alerts.filter { $0.place == place && $0.group == group }.map(\.notification).max() ?? 0
        case .rain:
            return record.rain?.notification ?? 0
        case .air(let place, let kind):
            return record.air?.first { $0.place == place && $0.kind == kind }?.notification ?? 0
        }
    }

    /// Takes `target` out of the record: it was not shown, so it is shown
    /// when next reported rather than taken for shown.
    private static func forget(_ target: Target, in record: inout NotificationRecord) {
        switch target {
        case .alerts(let place, let group): record.alerts.removeAll { $0.place == place && $0.group == group }
        case .rain(let episode): if record.rain?.episode == episode { record.rain = nil }
        case .air(let place, let kind): record.air?.removeAll { $0.place == place && $0.kind == kind }
        }
    }

    /// Drops every call not yet sent, forgetting what they would have shown.
    private func dropQueue() {
        var next = record
        for case .notify(_, let target) in queue { Self.forget(target, in: &next) }
        queue.removeAll()
        update(next)
    }

    /// What was being done when a call for `target` failed, and what happens next.
    private static func account(of target: Target) -> (doing: String, then: String) {
        switch target {
        case .alerts(let place, let group):
            return (
                "showing the alerts of \(place) (group \(group))",
                "they are shown when the place's alerts are next reported"
            )
        case .rain(let episode):
            return ("showing rain soon (\(episode))", "it is shown at the next change of the rain outlook")
        case .air(let place, let kind):
            return ("showing the \(kind.rawValue) of \(place)", "it is shown when the place's air is next reported")
        }
    }

    private static func account(of outgoing: Outgoing) -> (doing: String, then: String) {
        switch outgoing {
        case .notify(_, let target): return account(of: target)
        case .close(let id): return ("closing notification \(id)", "close it by hand if it stays")
        }
    }

    /// A call failed while `account.doing`: a missing server turns
    /// notifications off until one appears; any other failure is logged with
    /// what happens `account.then`.
    private func failed(_ error: BusError, _ account: (doing: String, then: String)) {
        guard error.isServiceMissing else {
            logger.warning("\(account.doing) as a desktop notification failed (\(error)); \(account.then)")
            return
        }
        availability = .noServer
        dropQueue()
        logger.notice(
            "no notification server on the session bus (\(Self.busName)); notifications resume when one starts")
        watchForServer()
    }

    /// One match on the bus daemon's NameOwnerChanged for the server's name:
    /// nothing is sent, and nothing wakes raind, until a server appears.
    private func watchForServer() {
        guard ownerWatch == nil, let bus else { return }
        do throws(BusError) {
            ownerWatch = try bus.subscribe(
                BusMatch(
                    sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged", arg0: Self.busName)
            ) { [weak self] message in
                guard let self else { return }
                let owner = (try? message.readString(), try? message.readString(), try? message.readString())
                guard owner.0 == Self.busName, let newOwner = owner.2, !newOwner.isEmpty else { return }
                self.logger.info("a notification server appeared on the session bus; notifications are on")
                self.availability = .usable
                self.ownerWatch = nil
                self.settled()
            }
        } catch {
            logger.warning(
                "cannot watch the session bus for a notification server (\(error)); "
                    + "desktop notifications stay off until raind restarts")
        }
    }

    // MARK: Record

    private func update(_ next: NotificationRecord) {
        record = next
        guard let recordPath, writtenRecord != next else { return }
        do {
            try FileIO.makeDirectories(FileIO.parentDirectory(of: recordPath), mode: 0o700)
            try FileIO.writeAtomically(next.bytes, to: recordPath, durability: .disposable)
            writtenRecord = next
        } catch {
            logger.warning("cannot record the notifications shown (\(error)); after a restart some may be shown again")
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
        announceRainSoonInterest()
        reconsiderAlerts()
        reconsiderAir()
    }
}
