import Foundation
import Glibc
import RainCore
import RainDaemonCore
import XCTest

@testable import RainDaemon

/// The notifier against a fake notification server (tests/fakes/fake_notifications.py)
/// on a private bus playing the session bus: what is shown, once, and what replaces what.
final class DesktopNotifierTests: XCTestCase {
    let logger = Logger(subsystem: "test", threshold: .debug)
    let paris = Location(
        id: LocationID("paris-fr"), name: "Paris", region: "Île-de-France", country: "France", countryCode: "FR",
        latitude: 48.85, longitude: 2.35, source: .geonames(id: 2_988_507))
    let now = 1_800_000_000.0

    struct Setup {
        let bus: PrivateBus
        let loop: EventLoop
        let notifier: DesktopNotifier
    }

    /// What a test changes while the notifier runs: the clock and the configuration.
    final class Knobs {
        var now: Double
        var configuration: Configuration
        init(now: Double, configuration: Configuration) {
            self.now = now
            self.configuration = configuration
        }
    }

    private func makeNotifier(
        bus: PrivateBus, recordPath: String? = nil, configuration: Configuration = Configuration(), knobs: Knobs? = nil
    ) throws -> Setup {
        let loop = try EventLoop()
        let address = bus.address
        let knobs = knobs ?? Knobs(now: now, configuration: configuration)
        let notifier = DesktopNotifier(
            connect: { () throws(BusError) in try BusConnection(address: address, loop: loop) },
            configuration: { knobs.configuration }, now: { knobs.now }, recordPath: recordPath, logger: logger)
        return Setup(bus: bus, loop: loop, notifier: notifier)
    }

    /// Runs `steps` in order on one run of the loop: each step's calls are
    /// answered (the notifier settles) before the next runs, so a step reads
    /// exactly the calls its action caused. An sd-event loop runs once.
    /// `waiting`: the indexes of steps after which the notifier settles
    /// without a call (a server appears).
    private func run(_ setup: Setup, waiting: Set<Int> = [], _ steps: [() throws -> Void]) throws {
        var index = 0
        var remaining = steps[...]
        var failure: Error?
        func next() {
            guard failure == nil, let step = remaining.popFirst() else { return setup.loop.exit(code: 0) }
            do { try step() } catch { failure = error; setup.loop.exit(code: 0) }
            // A step that sent nothing is followed at once.
            if setup.notifier.isIdle, !waiting.contains(index) { setup.loop.later(next) }
            index += 1
        }
        setup.notifier.settled = { setup.loop.later(next) }
        // The handler holds the steps, which hold the fakes: released here, they stop.
        defer { setup.notifier.settled = {} }
        setup.loop.later(next)
        XCTAssertTrue(
            try runLoop(setup.loop, timeout: 15), "the notifier never settled (\(remaining.count) steps left)")
        if let failure { throw failure }
    }

    private func call(_ server: FakeService) throws -> [String: Any] {
        let line = try XCTUnwrap(server.readLine(timeout: 5), "no call reached the server")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    private func alert(_ severity: AlertSeverity, uri: String = "https://alerts.example/1") -> WeatherAlert {
        WeatherAlert(
            title: "Wind warning", severity: severity, start: now - 600, end: now + 3600,
            description: "Gusts <b>of</b> 110 km/h & more", uri: uri)
    }

    func testAlert_isShownOnce_andAnUpgradeReplacesIt() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        var id = 0
        try run(
            setup,
            [
                { setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.severe)]) },
                {
                    let first = try self.call(server)
                    XCTAssertEqual(first["call"] as? String, "Notify")
                    XCTAssertEqual(first["app_name"] as? String, "raind")
                    XCTAssertEqual(first["replaces_id"] as? Int, 0)
                    XCTAssertEqual(first["summary"] as? String, "Wind warning — Paris")
                    XCTAssertEqual(first["urgency"] as? Int, 2, "severe is critical")
                    XCTAssertEqual(
                        first["body"] as? String,
                        "Severe alert for Paris, Île-de-France, France: Gusts &lt;b&gt;of&lt;/b&gt; 110 km/h &amp; more"
                            + "\nuntil Fri 15 Jan 09:00", "the alert's time span follows (UTC: the place has no zone)"
                    )
                    id = try XCTUnwrap(first["id"] as? Int)
                    // The same alert again shows nothing; the upgrade that follows is the next call.
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.severe)])
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.extreme)])
                },
                {
                    let upgrade = try self.call(server)
                    XCTAssertEqual(upgrade["replaces_id"] as? Int, id)
                    XCTAssertEqual(upgrade["id"] as? Int, id, "replaced in place")
                    XCTAssertTrue((upgrade["body"] as? String ?? "").hasPrefix("Extreme alert for Paris"))
                },
            ])
    }

    func testAlertBelowTheMinimum_isNotShown_andAlertsCanBeTurnedOff() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        var configuration = Configuration()
        configuration.notifyRainSoon = false
        let setup = try makeNotifier(bus: bus, configuration: configuration)
        try run(
            setup,
            [
                {
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.moderate)])
                    setup.notifier.rainSoon(place: self.paris, summary: "Rain starting in about 10 min", episode: "a")
                    XCTAssertTrue(
                        setup.notifier.record.alerts.isEmpty, "moderate is below the default minimum (severe)")
                    // What follows is the first call the server sees.
                    setup.notifier.alertsChanged(
                        at: self.paris, alerts: [self.alert(.moderate), self.alert(.severe, uri: "u2")])
                },
                { XCTAssertEqual(try self.call(server)["urgency"] as? Int, 2) },
            ])
        configuration.notifyAlerts = false
        let off = try makeNotifier(bus: bus, configuration: configuration)
        off.notifier.alertsChanged(at: paris, alerts: [alert(.extreme, uri: "u3")])
        XCTAssertTrue(off.notifier.record.alerts.isEmpty)
    }

    func testRainSoon_isShownOncePerEpisode_updatedInPlace_andClosedWhenItEnds() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        var id = 0
        try run(
            setup,
            [
                {
                    setup.notifier.rainSoon(
                        place: self.paris, summary: "Light rain starting in about 20 min", episode: "e1")
                },
                {
                    let first = try self.call(server)
                    XCTAssertEqual(first["summary"] as? String, "Rain soon — Paris")
                    XCTAssertEqual(first["body"] as? String, "Light rain starting in about 20 min")
                    XCTAssertEqual(first["replaces_id"] as? Int, 0)
                    XCTAssertEqual(first["urgency"] as? Int, 1)
                    id = try XCTUnwrap(first["id"] as? Int)
                    setup.notifier.rainSoon(
                        place: self.paris, summary: "Light rain starting in about 20 min", episode: "e1")
                    setup.notifier.rainSoon(
                        place: self.paris, summary: "Moderate rain starting in about 10 min", episode: "e1")
                },
                {
                    let update = try self.call(server)
                    XCTAssertEqual(update["replaces_id"] as? Int, id, "the same episode is updated in place")
                    XCTAssertEqual(update["body"] as? String, "Moderate rain starting in about 10 min")
                    setup.notifier.rainEnded(episode: "e1")
                },
                {
                    XCTAssertEqual(
                        try self.call(server) as NSDictionary, ["call": "CloseNotification", "id": id] as NSDictionary)
                    setup.notifier.rainEnded(episode: "e1")  // already ended: nothing
                    setup.notifier.rainSoon(place: self.paris, summary: "Rain starting in about 5 min", episode: "e2")
                },
                {
                    let next = try self.call(server)
                    XCTAssertEqual(next["replaces_id"] as? Int, 0, "a new episode is a new notification")
                    XCTAssertNotEqual(next["id"] as? Int, id)
                },
            ])
    }

    /// A quarter-hourly nowcast as of `time` whose steps from `now` are `rain` (mm/h).
    private func nowcast(_ rain: [Double], at time: Double) throws -> Nowcast {
        let steps = rain.enumerated().map {
            NowcastStep(time: now + Double($0.offset) * 900, precipIntensity: $0.element)
        }
        return try XCTUnwrap(Nowcast(steps: steps, resolutionSeconds: 900, now: time))
    }

    func testNowcastChanges_showRainSoonOnce_updateItAsTheRainNears_andCloseItWhenNoLongerExpected() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        let coming = try nowcast([0, 0, 1, 1, 1, 0, 0, 0], at: now)
        let nearer = try nowcast([0, 0, 1, 5, 1, 0, 0, 0], at: now + 900)
        let gone = try nowcast([0, 0, 0, 0, 0, 0, 0, 0], at: now + 1800)
        var id = 0
        try run(
            setup,
            [
                {
                    let change = try XCTUnwrap(NowcastChange.between(nil, coming))
                    setup.notifier.nowcastChanged(at: self.paris, nowcast: coming, change: change)
                },
                {
                    let first = try self.call(server)
                    XCTAssertEqual(first["replaces_id"] as? Int, 0)
                    XCTAssertEqual(first["body"] as? String, coming.summary)
                    XCTAssertEqual(coming.summary, "Light rain starting in about 30 min, for about 45 min")
                    id = try XCTUnwrap(first["id"] as? Int)
                    let change = try XCTUnwrap(NowcastChange.between(coming, nearer))
                    XCTAssertFalse(change.newEpisode)
                    setup.notifier.nowcastChanged(at: self.paris, nowcast: nearer, change: change)
                },
                {
                    let update = try self.call(server)
                    XCTAssertEqual(update["replaces_id"] as? Int, id, "the same rain is updated in place")
                    XCTAssertEqual(update["body"] as? String, nearer.summary)
                    let change = try XCTUnwrap(NowcastChange.between(nearer, gone))
                    setup.notifier.nowcastChanged(at: self.paris, nowcast: gone, change: change)
                },
                {
                    XCTAssertEqual(
                        try self.call(server) as NSDictionary, ["call": "CloseNotification", "id": id] as NSDictionary)
                },
            ])
    }

    func testShownAlerts_surviveARestart_throughTheRecordFile() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let record = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json").path
        defer { unlink(record) }
        let before = try makeNotifier(bus: bus, recordPath: record)
        try run(before, [{ before.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.severe)]) }])
        let id = try XCTUnwrap(try call(server)["id"] as? Int)

        let after = try makeNotifier(bus: bus, recordPath: record)
        try run(
            after,
            [
                {
                    after.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.severe)])
                    after.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.extreme)])
                },
                {
                    XCTAssertEqual(
                        try self.call(server)["replaces_id"] as? Int, id,
                        "the restart showed nothing again and knew the id")
                },
            ])
    }

    func testWithoutServer_nothingIsSentUntilOneAppears() throws {
        let bus = try PrivateBus()
        let setup = try makeNotifier(bus: bus)
        var server: FakeService?
        defer { server?.stop() }
        try run(
            setup, waiting: [1],
            [
                { setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.severe)]) },
                {
                    XCTAssertEqual(setup.notifier.availability, .noServer)
                    XCTAssertTrue(setup.notifier.record.alerts.isEmpty, "not shown, so not remembered")
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.extreme)])
                    setup.notifier.rainSoon(place: self.paris, summary: "Rain", episode: "e")
                    XCTAssertTrue(setup.notifier.record.alerts.isEmpty)
                    XCTAssertNil(setup.notifier.record.rain)
                    // A server appears: NameOwnerChanged turns notifications back on.
                    server = try FakeService("fake_notifications.py", bus: bus)
                },
                {
                    XCTAssertEqual(setup.notifier.availability, .usable)
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.extreme)])
                },
                { XCTAssertEqual(try self.call(try XCTUnwrap(server))["call"] as? String, "Notify") },
            ])
    }

    func testAnUpgradeSentBeforeTheFirstAnswer_stillReplacesIt() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        try run(
            setup,
            [
                {
                    // Both in one go: the upgrade is queued while the first Notify waits for its id.
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.severe)])
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.alert(.extreme)])
                },
                {
                    let first = try self.call(server)
                    let upgrade = try self.call(server)
                    XCTAssertEqual(first["replaces_id"] as? Int, 0)
                    XCTAssertEqual(upgrade["replaces_id"] as? Int, first["id"] as? Int, "replaced, not stacked")
                },
            ])
    }

    func testRainEndedBeforeItsNotificationWasAnswered_closesItOnceAnswered() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        try run(
            setup,
            [
                {
                    setup.notifier.rainSoon(place: self.paris, summary: "Rain starting in about 10 min", episode: "e")
                    setup.notifier.rainEnded(episode: "e")
                },
                {
                    let shown = try XCTUnwrap(try self.call(server)["id"] as? Int)
                    XCTAssertEqual(
                        try self.call(server) as NSDictionary,
                        ["call": "CloseNotification", "id": shown] as NSDictionary)
                    XCTAssertNil(setup.notifier.record.rain)
                },
            ])
    }

    func testAlertsQueuedWhenNoServerAnswers_areNotTakenForShown() throws {
        let bus = try PrivateBus()
        let setup = try makeNotifier(bus: bus)
        var server: FakeService?
        defer { server?.stop() }
        let two = [self.alert(.severe), self.alert(.extreme, uri: "https://alerts.example/2")]
        try run(
            setup, waiting: [1],
            [
                { setup.notifier.alertsChanged(at: self.paris, alerts: two) },
                {
                    XCTAssertEqual(setup.notifier.availability, .noServer)
                    XCTAssertTrue(setup.notifier.record.alerts.isEmpty, "neither was shown, so neither is remembered")
                    server = try FakeService("fake_notifications.py", bus: bus)
                },
                { setup.notifier.alertsChanged(at: self.paris, alerts: two) },
                {
                    // Both shown, together: one notification for the alerts new at once.
                    let shown = try self.call(try XCTUnwrap(server))
                    XCTAssertEqual(shown["call"] as? String, "Notify")
                    XCTAssertEqual(shown["summary"] as? String, "2 warnings for Paris: Wind warning, Wind warning")
                    XCTAssertEqual(setup.notifier.record.alerts.count, 2)
                },
            ])
    }

    /// An official warning as the alert sources report it.
    private func official(
        _ id: String, _ event: String, _ severity: AlertSeverity = .severe, onset: Double? = nil,
        type: AlertMessageType = .alert, references: [String]? = nil
    ) -> WeatherAlert {
        WeatherAlert(
            title: "\(event) warning", severity: severity, start: now - 600, end: now + 86_400,
            description: "\(event) expected", id: id, event: event, onset: onset, messageType: type,
            references: references, source: "dwd")
    }

    func testAlertsNewTogether_makeOneNotification_anUpdateReplacesIt_andTheirEndClosesIt() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        let storm = official("s1", "Storm")
        let frost = official("f1", "Frost", .moderate)
        let rain = official("r1", "Heavy rain", .extreme)
        let stormWorse = official("s2", "Storm", .extreme, type: .update, references: ["s1"])
        var id = 0
        try run(
            setup,
            [
                { setup.notifier.alertsChanged(at: self.paris, alerts: [storm, frost, rain]) },
                {
                    let grouped = try self.call(server)
                    XCTAssertEqual(grouped["summary"] as? String, "2 warnings for Paris: Heavy rain, Storm")
                    XCTAssertEqual(
                        grouped["body"] as? String,
                        "Heavy rain (Extreme) until Sat 16 Jan 08:00 · dwd\nStorm (Severe) until Sat 16 Jan 08:00 · dwd",
                        "Frost is below the default minimum")
                    XCTAssertEqual(grouped["urgency"] as? Int, 2)
                    XCTAssertEqual(grouped["replaces_id"] as? Int, 0)
                    id = try XCTUnwrap(grouped["id"] as? Int)
                    setup.notifier.alertsChanged(at: self.paris, alerts: [stormWorse, frost, rain])
                },
                {
                    let update = try self.call(server)
                    XCTAssertEqual(update["replaces_id"] as? Int, id, "the update replaces the notification it is in")
                    XCTAssertEqual(update["id"] as? Int, id)
                    XCTAssertEqual(
                        update["body"] as? String,
                        "Storm (Extreme) until Sat 16 Jan 08:00 · dwd\nHeavy rain (Extreme) until Sat 16 Jan 08:00 · dwd",
                        "most severe first, the order reported among equals")
                    // Both withdrawn (the lifecycle dropped the cancelled ones): the notification closes.
                    setup.notifier.alertsChanged(at: self.paris, alerts: [frost])
                },
                {
                    XCTAssertEqual(
                        try self.call(server) as NSDictionary, ["call": "CloseNotification", "id": id] as NSDictionary)
                    XCTAssertTrue(setup.notifier.record.alerts.isEmpty)
                },
            ])
    }

    func testAnUpcomingAlert_isShownAtItsOnset_andALowerMinimumOnReload_showsWhatItLetsThrough() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let knobs = Knobs(now: now, configuration: Configuration())
        let setup = try makeNotifier(bus: bus, knobs: knobs)
        let frost = official("f1", "Frost", onset: now + 3600)
        let wind = official("w1", "Wind", .moderate)
        try run(
            setup,
            [
                {
                    setup.notifier.alertsChanged(at: self.paris, alerts: [frost, wind])
                    XCTAssertTrue(setup.notifier.isIdle, "upcoming, and below the minimum: nothing yet")
                    XCTAssertTrue(setup.notifier.record.alerts.isEmpty)
                    knobs.now += 3600
                    setup.notifier.reconsiderAlerts()
                },
                {
                    let atOnset = try self.call(server)
                    XCTAssertEqual(atOnset["summary"] as? String, "Frost warning — Paris")
                    XCTAssertEqual(
                        atOnset["body"] as? String,
                        "Severe alert for Paris, Île-de-France, France: Frost expected\nuntil Sat 16 Jan 08:00 · dwd")
                    knobs.configuration.minimumAlertSeverity = .moderate
                    setup.notifier.configurationReloaded()
                },
                {
                    let lowered = try self.call(server)
                    XCTAssertEqual(lowered["summary"] as? String, "Wind warning — Paris")
                    XCTAssertEqual(lowered["urgency"] as? Int, 1, "moderate is normal")
                    XCTAssertEqual(lowered["replaces_id"] as? Int, 0)
                },
            ])
    }

    func testAlertsEndedBeforeTheirNotificationWasAnswered_closeItOnceAnswered() throws {
        let bus = try PrivateBus()
        let server = try FakeService("fake_notifications.py", bus: bus)
        let setup = try makeNotifier(bus: bus)
        try run(
            setup,
            [
                {
                    setup.notifier.alertsChanged(at: self.paris, alerts: [self.official("s1", "Storm")])
                    setup.notifier.alertsChanged(at: self.paris, alerts: [])
                },
                {
                    let shown = try XCTUnwrap(try self.call(server)["id"] as? Int)
                    XCTAssertEqual(
                        try self.call(server) as NSDictionary,
                        ["call": "CloseNotification", "id": shown] as NSDictionary)
                    XCTAssertTrue(setup.notifier.record.alerts.isEmpty)
                },
            ])
    }
}
