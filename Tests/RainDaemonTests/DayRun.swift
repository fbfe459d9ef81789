import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A whole day of upstream requests for Paris (selected), Portland, Oregon
/// and Berlin: the forecasts (Open-Meteo), the official alerts (MeteoAlarm,
/// the NWS, the DWD through Bright Sky) and the air, each poller on its own
/// schedule and wired to the event table as `Daemon.init` wires them,
/// counted on the fixture server over loopback with the tests' clock moved
/// from wake to wake. A laptop's suspends and network losses go through
/// the triggers' own paths: a resume is logind's `becameActive`
/// (`DaemonEvent.resumeReason`) after the clock jumped over the sleep, a
/// network loss and its end the route monitor's `networkChanged`.
/// `bench/day_model.py` models the same days; `WholeDayTests` holds the
/// runs to it.
struct DayRun {
    /// 2026-01-15T00:00:01Z: the day is one budget day.
    static let start = 1_768_435_201.0

    /// A time the machine sleeps or has no network route, in seconds from the start.
    struct Span {
        var from: Double
        var to: Double
    }

    /// Every hour a thunderstorm in six hours' time or less (stormy), or a calm sky.
    var stormy = false
    var suspends: [Span] = []
    var networkLosses: [Span] = []

    /// Requests by kind: forecasts, air, nws, dwd, meteoalarm.
    struct Counts {
        var requests: [String: Int]
        /// The alert paces seen at the wakes (`AlertPace.Reason`).
        var paces: Set<AlertPace.Reason>
        var total: Int { requests.values.reduce(0, +) }
    }

    /// The forecast every place is given: June at Tromsø (light cloud, no
    /// rain), with, on a stormy day, a thunderstorm (WMO 95) every sixth hour.
    private func forecast() throws -> [UInt8] {
        let calm = try Fixtures.bytes(
            "openmeteo-forecast-tromso-june.json", recordedAt: 1_782_036_000, presentAt: Self.start)
        guard stormy else { return calm }
        guard case .object(var answer) = try JSON(parsing: calm), case .object(var hourly)? = answer["hourly"],
            case .array(let codes)? = hourly["weather_code"]
        else { throw FixtureError(message: "the forecast fixture has no hourly weather codes") }
        hourly["weather_code"] = .array(codes.indices.map { .number($0 % 6 == 3 ? 95 : 2) })
        answer["hourly"] = .object(hourly)
        return Array(JSON.object(answer).serialized().utf8)
    }

    func run() throws -> Counts {
        let harness = try ClientHarness()
        let atom = #"<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>"#
        let server = try FixtureServer(
            files: [
                "om.json": try forecast(),
                "air.json": try Fixtures.bytes("openmeteo-airquality-paris-poor.json"),
                "nws.json": AlertLifeTests.collection([]), "alerts.json": Array(#"{"alerts": []}"#.utf8),
                "france.xml": Array(atom.utf8),
            ],
            routes: [
                "/v1/forecast": "om.json", "/v1/air-quality": "air.json", "/alerts/active": "nws.json",
                "/alerts": "alerts.json", "/feeds/": "france.xml",
            ])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-day-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        configuration.airBaseURL = server.url("")
        configuration.officialAlerts = true
        configuration.alertsBaseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "day-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        for (name, country, latitude, longitude, zone, id) in [
            ("Paris", "FR", 48.8534, 2.3488, "Europe/Paris", 2_988_507),
            ("Portland", "US", 45.5234, -122.6762, "America/Los_Angeles", 5_746_545),
            ("Berlin", "DE", 52.5244, 13.4105, "Europe/Berlin", 2_950_159),
        ] {
            _ = places.add(
                PlaceCandidate(
                    name: name, countryCode: country, latitude: latitude, longitude: longitude, timeZone: zone,
                    source: .geonames(id: id)))
        }
        let parts = try AirParts(context: context, http: harness.http, places: places)
        let (refresher, air, events) = (parts.refresher, parts.air, parts.events)
        let alerts = try AlertWatcher(
            context: context, http: harness.http, store: parts.store, events: events, books: refresher,
            languages: ["en"])
        alerts.attention = { [weak refresher] in refresher?.placesLookedAt() }
        air.attention = { [weak refresher] in refresher?.placesLookedAt() }
        events.connect(EventParts(refresher: refresher, alerts: alerts, air: air))
        alerts.restore(places.locations)
        air.restore(places)
        let end = Self.start + 86_400 - 2
        var idle: Bool {
            refresher.inFlight.isEmpty && alerts.isIdle && !air.schedule.places.values.contains(where: \.inFlight)
        }
        var waiting: (() -> Void)?
        /// Goes on once nothing is under way, looked at after the handler that called it.
        func check() {
            harness.loop.later {
                guard idle, let next = waiting else { return }
                waiting = nil
                next()
            }
        }
        alerts.recorded = { _ in check() }
        air.settled = { check() }
        // The refresher's answers and failures are told as events.
        let recorder = EventRecorder(events) { _ in check() }
        // What the machine does, in time order: (when, what); a loss's end before a resume at the same time.
        var moments: [(at: Double, act: () -> Void)] = []
        var online = true
        for span in suspends {
            // Asleep: nothing runs until the resume, when the clock has jumped over the sleep.
            moments.append((Self.start + span.to, { events.emit(.becameActive(reason: DaemonEvent.resumeReason)) }))
        }
        for span in networkLosses {
            moments.append(
                (
                    Self.start + span.from,
                    {
                        online = false
                        events.emit(.networkChanged(hasRoute: false))
                    }
                ))
            moments.append(
                (
                    Self.start + span.to,
                    {
                        online = true
                        events.emit(.networkChanged(hasRoute: true))
                    }
                ))
        }
        moments.sort { $0.at < $1.at }
        let asleep = suspends.map { (Self.start + $0.from, Self.start + $0.to) }
        var paces: Set<AlertPace.Reason> = []
        func step() {
            var wakes = [refresher.nextWake, alerts.nextWake].compactMap { $0 }
            // Offline the air asks nothing: its schedule's time is not a wake.
            if online, let wake = air.schedule.nextWake() { wakes.append(wake) }
            let wake = wakes.min().map { max($0, clock.wallNow) }
            if let moment = moments.first, moment.at <= min(wake ?? .infinity, end) {
                moments.removeFirst()
                clock.advance(max(0, moment.at - clock.wallNow))
                moment.act()
            } else {
                guard let next = wake, next < end else { return harness.finish() }
                // A wake while asleep waits for the resume (the timers count the sleep: they fire then).
                if let sleep = asleep.first(where: { $0.0 <= next && next < $0.1 }) {
                    // Asleep until the next day: the day is over.
                    guard sleep.1 < end else { return harness.finish() }
                    clock.advance(max(0, sleep.1 - clock.wallNow))
                } else {
                    clock.advance(max(0, next - clock.wallNow))
                }
            }
            if let sleep = asleep.first(where: { $0.0 <= clock.wallNow && clock.wallNow < $0.1 }) {
                guard sleep.1 < end else { return harness.finish() }
                // The sleep began before this wake: jump to its end and resume there.
                clock.advance(max(0, sleep.1 - clock.wallNow))
                waiting = step
                return check()
            }
            refresher.timerFired()
            alerts.timerFired()
            air.timerFired()
            for place in places.locations {
                if let pace = alerts.pace(of: place.id, at: clock.wallNow) { paces.insert(pace.reason) }
            }
            waiting = step
            check()
        }
        harness.loop.later { step() }
        XCTAssertTrue(try harness.run(timeout: 600), "the day never ended")
        alerts.recorded = { _ in }
        air.settled = {}
        withExtendedLifetime(recorder) {}
        let nws = try server.count("/alerts/active")
        let counts = [
            "forecasts": try server.count("/v1/forecast"), "air": try server.count("/v1/air-quality"),
            "nws": nws, "dwd": try server.count("/alerts") - nws, "meteoalarm": try server.count("/feeds/"),
        ]
        alerts.cancelAll()
        air.cancelAll()
        refresher.cancelAll()
        return Counts(requests: counts, paces: paces)
    }
}
