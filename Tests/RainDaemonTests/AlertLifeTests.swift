import Foundation
import RainCore
import RainDaemonCore
import RainSystem
import XCTest

@testable import RainDaemon

/// One official alert's life through the daemon's parts, in process: the
/// alert watcher polling the NWS's point query on the fixture server
/// (loopback, real libcurl, the real loop), the forecast store serving it,
/// and the desktop notifier showing it on a fake notification server on a
/// private bus, with the tests' clock. Upcoming, it is listed and not
/// shown; at its onset it is shown without a poll; its update replaces
/// the notification; its cancellation closes it. The transcript each
/// step prints is the one docs/ALERTS.md and the issue quote.
final class AlertLifeTests: XCTestCase {
    /// 2027-01-15 08:00 UTC.
    static let start = 1_800_000_000.0
    static let path = "/alerts/active"
    let tillamook = PlaceCandidate(
        name: "Tillamook", region: "Oregon", country: "United States", countryCode: "US", latitude: 45.4562,
        longitude: -123.844, timeZone: "America/Los_Angeles", source: .geonames(id: 5_756_758))

    /// An NWS alert feature (made for this test, in the shape of the
    /// recorded `nws-alerts-point-update.json`).
    static func feature(
        id: String, type: String, headline: String, severity: String, sent: String, onset: String, ends: String,
        references: [String] = []
    ) -> String {
        let refs = references.map { "{\"identifier\": \"\($0)\", \"sender\": \"w-nws.webmaster@noaa.gov\"}" }
        return """
            {"id": "https://api.weather.gov/alerts/\(id)", "type": "Feature", "geometry": null,
             "properties": {"id": "\(id)", "areaDesc": "North Oregon Coast", "sent": "\(sent)",
              "effective": "\(sent)", "onset": "\(onset)", "expires": "\(ends)", "ends": "\(ends)",
              "status": "Actual", "messageType": "\(type)", "severity": "\(severity)", "certainty": "Likely",
              "urgency": "Expected", "event": "High Wind Warning", "headline": "\(headline)",
              "description": "South winds 40 to 50 mph with gusts up to 70 mph.",
              "instruction": "Secure outdoor objects.", "references": [\(refs.joined(separator: ", "))]}}
            """
    }

    static func collection(_ features: [String]) -> [UInt8] {
        Array("{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ", "))]}".utf8)
    }

    static let warning = feature(
        id: "urn:oid:2.49.0.1.840.0.life.1", type: "Alert",
        headline: "High Wind Warning issued January 15 at 12:00AM PST until January 15 at 2:00PM PST",
        severity: "Severe", sent: "2027-01-15T08:00:00Z", onset: "2027-01-15T10:00:00Z",
        ends: "2027-01-15T22:00:00Z")
    static let update = feature(
        id: "urn:oid:2.49.0.1.840.0.life.2", type: "Update",
        headline: "High Wind Warning issued January 15 at 2:30AM PST until January 15 at 4:00PM PST",
        severity: "Extreme", sent: "2027-01-15T10:30:00Z", onset: "2027-01-15T10:00:00Z",
        ends: "2027-01-16T00:00:00Z", references: ["urn:oid:2.49.0.1.840.0.life.1"])
    static let cancel = feature(
        id: "urn:oid:2.49.0.1.840.0.life.3", type: "Cancel",
        headline: "The High Wind Warning has been cancelled", severity: "Minor", sent: "2027-01-15T11:00:00Z",
        onset: "2027-01-15T10:00:00Z", ends: "2027-01-16T00:00:00Z",
        references: ["urn:oid:2.49.0.1.840.0.life.1", "urn:oid:2.49.0.1.840.0.life.2"])

    final class Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let watcher: AlertWatcher
        let notifier: DesktopNotifier
        let notifications: FakeService
        let store: ForecastStore
        let directory: URL
        let place: Location
        let events: DaemonEvents
        var published: [Event] = []
        var recorder: EventRecorder?
        var transcript: [String] = []

        init(
            harness: ClientHarness, server: FixtureServer, clock: FakeClock, watcher: AlertWatcher,
            notifier: DesktopNotifier, notifications: FakeService, store: ForecastStore, directory: URL,
            place: Location, events: DaemonEvents
        ) {
            self.place = place
            self.events = events
            self.harness = harness
            self.server = server
            self.clock = clock
            self.watcher = watcher
            self.notifier = notifier
            self.notifications = notifications
            self.store = store
            self.directory = directory
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        var alertsChanged: [[WeatherAlert]] {
            published.compactMap {
                if case .alertsChanged(_, let alerts) = $0 { return alerts }
                return nil
            }
        }

        func serve(_ body: [UInt8]) throws {
            try Data(body).write(to: server.directory.appendingPathComponent("alerts.json"))
        }

        /// The calls the notification server got, as they are read.
        func calls() throws -> [[String: Any]] {
            var calls: [[String: Any]] = []
            while let line = notifications.readLine(timeout: 0.2) {
                calls.append(try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]))
            }
            return calls
        }

        func note(_ text: String) {
            let minutes = Int(((clock.wallNow - AlertLifeTests.start) / 60).rounded())
            transcript.append("+\(minutes) min: \(text)")
        }
    }

    private func rig(bus: PrivateBus) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: ["alerts.json": Self.collection([])], routes: [Self.path: "alerts.json"])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-alert-life-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.officialAlerts = true
        configuration.alertsBaseURL = server.url("")
        configuration.minimumAlertSeverity = .severe
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "alert-life-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        let place = places.add(tillamook).location
        let store = ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger))
        store.store(
            CachedForecast(
                forecast: Forecast(provider: "nws", fetchedAt: Self.start, timeZone: "America/Los_Angeles"),
                latitude: place.latitude, longitude: place.longitude, etag: nil, lastModified: nil),
            for: place.id)
        let events = DaemonEvents()
        let notifications = try FakeService("fake_notifications.py", bus: bus)
        let address = bus.address
        let loop = harness.loop
        let notifier = DesktopNotifier(
            connect: { () throws(BusError) in try BusConnection(address: address, loop: loop) },
            configuration: { configuration }, now: { clock.wallNow }, recordPath: nil, places: places,
            events: events, logger: logger)
        // The refresher keeps the ledger the watcher's services keep their books in.
        let refresher = try Refresher(
            context: context, http: harness.http, store: store, events: events, places: places,
            settings: Settings(units: .si, refreshMinutes: nil))
        let watcher = try AlertWatcher(
            context: context, http: harness.http, store: store, events: events, books: refresher,
            languages: AlertWatcher.languages(ProcessEnvironment.current()))
        // As Daemon.init wires them: the notifier sees a change first.
        events.connect(EventParts(notifier: notifier, alerts: watcher))
        let rig = Rig(
            harness: harness, server: server, clock: clock, watcher: watcher, notifier: notifier,
            notifications: notifications, store: store, directory: directory, place: place,
            events: events)
        rig.recorder = EventRecorder(events) { [unowned rig] in rig.published.append($0) }
        return rig
    }

    typealias Step = (_ done: @escaping () -> Void) -> Void

    /// Runs `steps` in order in one run of the loop.
    private func run(_ rig: Rig, _ steps: [Step]) throws {
        var index = 0
        func next() {
            guard index < steps.count else { return rig.harness.finish() }
            let step = steps[index]
            index += 1
            rig.harness.loop.later { step(next) }
        }
        next()
        XCTAssertTrue(try rig.harness.run(timeout: 60), "the steps never ended (at step \(index))")
    }

    /// Moves the clock `minutes` on and lets the watcher's timer act (poll
    /// what is due, announce onsets and ends); ends once every poll it
    /// started has been kept and the notifier's calls were answered.
    private func wake(_ rig: Rig, after minutes: Double, _ check: @escaping () throws -> Void) -> Step {
        { done in
            rig.clock.advance(minutes * 60)
            rig.watcher.timerFired()
            self.settle(rig) {
                do { try check() } catch { XCTFail("\(error)") }
                done()
            }
        }
    }

    /// Calls `then` once the watcher and the notifier are both idle, waiting
    /// for their own signals (a poll kept, a call answered).
    private func settle(_ rig: Rig, then: @escaping () -> Void) {
        if !rig.watcher.isIdle {
            rig.watcher.recorded = { [unowned self] _ in
                rig.watcher.recorded = { _ in }
                rig.harness.loop.later { self.settle(rig, then: then) }
            }
        } else if !rig.notifier.isIdle {
            rig.notifier.settled = { [unowned self] in
                rig.notifier.settled = {}
                rig.harness.loop.later { self.settle(rig, then: then) }
            }
        } else {
            then()
        }
    }

    func testAnAlertsLife_upcomingThenShownAtItsOnset_updatedInPlace_closedWhenCancelled() throws {
        let bus = try PrivateBus()
        let rig = try rig(bus: bus)
        try rig.serve(Self.collection([Self.warning]))
        var shownID = 0
        try run(
            rig,
            [
                { done in
                    rig.watcher.placesChanged([rig.place])
                    self.settle(rig) {
                        let alerts = rig.store.served(rig.place.id, at: rig.clock.wallNow)?.alerts ?? []
                        XCTAssertEqual(alerts.map(\.severity), [.severe])
                        XCTAssertEqual(alerts.first?.onset, Self.start + 2 * 3600, "upcoming: it starts at 10:00 UTC")
                        XCTAssertEqual(rig.alertsChanged.count, 1, "published once")
                        XCTAssertTrue(AlertLifecycle.isUpcoming(alerts[0], now: rig.clock.wallNow))
                        XCTAssertEqual(try? rig.calls().count, 0, "an upcoming alert is not notified")
                        rig.note("poll: AlertsChanged [Severe \"\(alerts[0].title)\", from 02:00 PST]; not notified")
                        done()
                    }
                },
                wake(rig, after: 60) {
                    XCTAssertEqual(try rig.calls().count, 0, "an hour before its onset, still nothing")
                    XCTAssertEqual(rig.alertsChanged.count, 1, "polls that bring nothing new publish nothing")
                    rig.note("poll: nothing new; nothing published, nothing shown")
                },
                wake(rig, after: 60) {
                    let calls = try rig.calls()
                    XCTAssertEqual(calls.count, 1, "shown at its onset: \(calls)")
                    let shown = try XCTUnwrap(calls.first)
                    XCTAssertEqual(shown["call"] as? String, "Notify")
                    XCTAssertEqual(shown["replaces_id"] as? Int, 0)
                    XCTAssertEqual(shown["urgency"] as? Int, 2, "severe is critical")
                    let body = shown["body"] as? String ?? ""
                    XCTAssertTrue(body.contains("until"), "with its time span: \(body)")
                    XCTAssertTrue(body.contains("nws"), "and its source: \(body)")
                    shownID = try XCTUnwrap(shown["id"] as? Int)
                    rig.note(
                        "onset (the poll brought nothing new): Notify id \(shownID), urgency critical, "
                            + "summary \"\(shown["summary"] as? String ?? "")\", body \"\(body)\"")
                },
                { done in
                    do { try rig.serve(Self.collection([Self.warning, Self.update])) } catch { XCTFail("\(error)") }
                    done()
                },
                wake(rig, after: 30) {
                    let alerts = rig.store.served(rig.place.id, at: rig.clock.wallNow)?.alerts ?? []
                    XCTAssertEqual(alerts.map(\.severity), [.extreme], "the update replaces what it updates")
                    XCTAssertEqual(rig.alertsChanged.last?.map(\.messageType), [.update])
                    let calls = try rig.calls()
                    XCTAssertEqual(calls.count, 1, "\(calls)")
                    XCTAssertEqual(calls.first?["replaces_id"] as? Int, shownID, "replaced in place")
                    XCTAssertEqual(calls.first?["id"] as? Int, shownID)
                    rig.note(
                        "poll: Update (Extreme, until 16:00 PST) → AlertsChanged [Extreme]; "
                            + "Notify replaces_id \(shownID)")
                },
                { done in
                    do { try rig.serve(Self.collection([Self.warning, Self.update, Self.cancel])) } catch {
                        XCTFail("\(error)")
                    }
                    done()
                },
                wake(rig, after: 30) {
                    let alerts = rig.store.served(rig.place.id, at: rig.clock.wallNow)?.alerts ?? []
                    XCTAssertEqual(alerts, [], "the cancellation withdraws it")
                    XCTAssertEqual(rig.alertsChanged.last?.count, 0, "AlertsChanged with no alert")
                    let calls = try rig.calls()
                    XCTAssertEqual(calls.count, 1, "\(calls)")
                    XCTAssertEqual(calls.first?["call"] as? String, "CloseNotification")
                    XCTAssertEqual(calls.first?["id"] as? Int, shownID)
                    rig.note("poll: Cancel → AlertsChanged []; CloseNotification id \(shownID)")
                    XCTAssertEqual(rig.alertsChanged.count, 3, "three changes, each published once")
                },
            ])
        // What the service cost: one request a poll, those not answered 304 included.
        let status = rig.watcher.sourceStatuses(now: rig.clock.wallNow)
        XCTAssertEqual(status.map(\.name), ["nws"])
        XCTAssertEqual(status.first?.places, [rig.place.id])
        // The alert cancelled and the forecast calm, the place is asked at the calm pace (docs/ALERTS.md).
        XCTAssertEqual(status.first?.requestsPerDay, 48, "every 30 minutes, no alert and a calm forecast")
        XCTAssertEqual(status.first?.paces?.map(\.reason), [.calm])
        XCTAssertEqual(status.first?.requestsToday, try rig.server.count(Self.path))
        rig.note(
            "cost: \(status.first?.requestsToday ?? 0) requests to nws in 3 h 00 min "
                + "(\(try rig.server.count(Self.path)) reached the server); 48 a day at the calm 30-minute interval")
        for line in rig.transcript { print("alert life: " + line) }
    }

    /// Two places whose question is the same (one point of the request
    /// grid, as MeteoAlarm's places share their country's feed) share one
    /// request a round; the next round asks conditionally, and a 304 still
    /// gives each place the whole answer.
    func testPlacesAskingTheSameQuestion_shareOneRequestARound() throws {
        let bus = try PrivateBus()
        let rig = try rig(bus: bus)
        try rig.serve(Self.collection([Self.warning]))
        var list = LocationList()
        _ = list.add(tillamook)
        let neighbour = list.add(
            PlaceCandidate(
                name: "Tillamook Bay", countryCode: "US", latitude: 45.4558, longitude: -123.8437,
                timeZone: "America/Los_Angeles", source: .geonames(id: 5_756_759))
        ).location
        rig.store.store(
            CachedForecast(
                forecast: Forecast(provider: "nws", fetchedAt: Self.start), latitude: neighbour.latitude,
                longitude: neighbour.longitude, etag: nil, lastModified: nil),
            for: neighbour.id)
        let both = [rig.place, neighbour]
        let alertsOf = { (place: Location) in rig.store.served(place.id, at: rig.clock.wallNow)?.alerts.count }
        try run(
            rig,
            [
                { done in
                    rig.watcher.placesChanged(both)
                    self.settle(rig, then: done)
                },
                wake(rig, after: 0) {
                    XCTAssertEqual(try rig.server.count(Self.path), 1, "both asked at once: one request")
                    XCTAssertEqual(both.map(alertsOf), [1, 1])
                },
                wake(rig, after: 6) {
                    XCTAssertEqual(try rig.server.count(Self.path), 2, "one request a round")
                    XCTAssertEqual(both.map(alertsOf), [1, 1], "a 304 gives the whole answer again")
                    let status = rig.watcher.sourceStatuses(now: rig.clock.wallNow)
                    XCTAssertEqual(status.first?.places.count, 2)
                    XCTAssertEqual(status.first?.requestsToday, 2)
                    XCTAssertEqual(status.first?.unchangedToday, 1)
                    XCTAssertEqual(status.first?.requestsPerDay, 288, "one question: what one place costs")
                },
            ])
    }

    /// A forecast refresh publishes the place's alerts with its forecast
    /// (`Refresher.succeeded`); the watcher takes that as what clients
    /// were sent, and does not publish the same list again.
    func testAlertsPublishedWithAForecast_areNotPublishedAgainByTheWatcher() throws {
        let bus = try PrivateBus()
        let rig = try rig(bus: bus)
        try rig.serve(Self.collection([Self.warning]))
        try run(
            rig,
            [
                { done in
                    rig.watcher.placesChanged([rig.place])
                    self.settle(rig, then: done)
                },
                { done in
                    // The provider's own alert arrives with a new forecast, published as the refresher does.
                    var forecast = Forecast(provider: "nws", fetchedAt: rig.clock.wallNow)
                    forecast.alerts = [
                        WeatherAlert(
                            title: "Small Craft Advisory", severity: .minor, start: rig.clock.wallNow,
                            end: rig.clock.wallNow + 3600)
                    ]
                    rig.store.store(
                        CachedForecast(
                            forecast: forecast, latitude: rig.place.latitude, longitude: rig.place.longitude,
                            etag: nil, lastModified: nil),
                        for: rig.place.id)
                    let served = rig.store.served(rig.place.id, at: rig.clock.wallNow)?.alerts ?? []
                    XCTAssertEqual(served.count, 2)
                    rig.events.emit(.published(.alertsChanged(rig.place.id, served)))
                    done()
                },
                wake(rig, after: 5) {
                    XCTAssertEqual(rig.alertsChanged.count, 2, "the first poll's, and the refresher's; no third")
                },
            ])
    }

    func testASelectionAlone_isNotTakenUpAsAChangeOfPlaces_butAPlaceAddedIs() throws {
        let bus = try PrivateBus()
        let rig = try rig(bus: bus)
        var places = LocationList()
        let place = places.add(tillamook).location
        let before = PersistentState(
            places: LocationList(locations: places.locations, selectedID: nil), settings: Settings(units: .si))
        rig.watcher.placesChanged(before.places.locations)
        let changes = rig.watcher.changes
        var selected = before
        _ = try selected.places.select(place.id)
        rig.events.emit(.stateChanged(from: before, to: selected))
        XCTAssertEqual(rig.watcher.changes, changes, "the places are the same: no service or poll changes")
        var added = selected
        _ = added.places.add(
            PlaceCandidate(
                name: "Portland", region: "Oregon", country: "United States", countryCode: "US", latitude: 45.5234,
                longitude: -122.6762, timeZone: "America/Los_Angeles", source: .geonames(id: 5_746_545)))
        rig.events.emit(.stateChanged(from: selected, to: added))
        XCTAssertGreaterThan(rig.watcher.changes, changes, "a place added is taken up")
        rig.watcher.cancelAll()
    }
}
