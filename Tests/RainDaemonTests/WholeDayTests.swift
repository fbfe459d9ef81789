import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A whole calm day of upstream requests for Paris (selected), Portland,
/// Oregon and Berlin: the forecasts (Open-Meteo), the official alerts
/// (MeteoAlarm, the NWS, the DWD through Bright Sky) and the air, each
/// poller on its own schedule as `Daemon.init` makes them, counted on the
/// fixture server over loopback with the tests' clock moved from wake to
/// wake. docs/SCHEDULING.md ("A whole day") sets the figure beside three
/// per-client pollers' 1,296.
final class WholeDayTests: XCTestCase {
    /// 2026-01-15T00:00:01Z: the day is one budget day.
    static let start = 1_768_435_201.0

    func testACalmDesktopDay_forecastsAlertsAndAir() throws {
        let harness = try ClientHarness()
        let atom = #"<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>"#
        let server = try FixtureServer(
            files: [
                // A calm forecast (June at Tromsø: light cloud, no rain) for every place.
                "om.json": try Fixtures.bytes(
                    "openmeteo-forecast-tromso-june.json", recordedAt: 1_782_036_000, presentAt: Self.start),
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
            .appendingPathComponent("raind-whole-day-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        configuration.airBaseURL = server.url("")
        configuration.officialAlerts = true
        configuration.alertsBaseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "whole-day-test", threshold: .error)
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
        let (refresher, air) = (parts.refresher, parts.air)
        let alerts = try AlertWatcher(
            context: context, http: harness.http, store: parts.store, events: parts.events, books: refresher,
            languages: ["en"])
        alerts.attention = { [weak refresher] in refresher?.placesLookedAt() }
        air.attention = { [weak refresher] in refresher?.placesLookedAt() }
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
        let recorder = EventRecorder(parts.events) { _ in check() }
        var forecastPaces: Set<AlertPace.Reason> = []
        func step() {
            let wakes = [refresher.nextWake, alerts.nextWake, air.schedule.nextWake()].compactMap { $0 }
            guard let next = wakes.min(), next < end else { return harness.finish() }
            clock.advance(max(0, next - clock.wallNow))
            refresher.timerFired()
            alerts.timerFired()
            air.timerFired()
            for place in places.locations {
                if let pace = alerts.pace(of: place.id, at: clock.wallNow) { forecastPaces.insert(pace.reason) }
            }
            waiting = step
            check()
        }
        harness.loop.later { step() }
        XCTAssertTrue(try harness.run(timeout: 300), "the day never ended")
        alerts.recorded = { _ in }
        air.settled = {}
        withExtendedLifetime(recorder) {}
        let nws = try server.count("/alerts/active")
        let counts = [
            "forecasts": try server.count("/v1/forecast"), "air": try server.count("/v1/air-quality"),
            "nws": nws, "dwd": try server.count("/alerts") - nws, "meteoalarm": try server.count("/feeds/"),
        ]
        let total = counts.values.reduce(0, +)
        print(
            "whole day, calm: \(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
                + "\(total) requests; alert paces seen: \(forecastPaces.map(\.rawValue).sorted())")
        XCTAssertEqual(forecastPaces.subtracting([.noForecast]), [.calm], "a calm day")
        // What docs/SCHEDULING.md quotes (252: 78 + 135 + 39), with room for the jitter.
        XCTAssertTrue((72...84).contains(counts["forecasts"] ?? 0), "\(counts)")
        XCTAssertTrue((36...41).contains(counts["air"] ?? 0), "\(counts)")
        for name in ["nws", "dwd", "meteoalarm"] {
            XCTAssertTrue((39...49).contains(counts[name] ?? 0), "\(name): \(counts)")
        }
        XCTAssertLessThanOrEqual(total, 265, "\(counts)")
        XCTAssertLessThanOrEqual(total * 4, 1296, "at least four times fewer than three per-client pollers")
        alerts.cancelAll()
        air.cancelAll()
        refresher.cancelAll()
    }
}
