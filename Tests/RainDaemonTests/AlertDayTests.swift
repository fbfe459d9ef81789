import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A day of official alert requests for Paris (MeteoAlarm), Portland,
/// Oregon (NWS) and Berlin (DWD through Bright Sky), counted on the fixture
/// server over loopback with the tests' clock moved from wake to wake of
/// the watcher: a calm day (no alert, calm forecasts) and a stormy one (a
/// thunderstorm in every forecast). Before the pace followed the weather,
/// both cost 528 (288 + 144 + 96). docs/SCHEDULING.md quotes the figures.
final class AlertDayTests: XCTestCase {
    /// 2027-01-15 00:00 UTC: the day is the ledger's UTC day.
    static let start = 1_799_971_200.0

    private func day(thunderstorm: Bool) throws -> [String: Int] {
        let harness = try ClientHarness()
        let atom = #"<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>"#
        let server = try FixtureServer(
            files: [
                "nws.json": AlertLifeTests.collection([]), "alerts.json": Array(#"{"alerts": []}"#.utf8),
                "france.xml": Array(atom.utf8),
            ],
            routes: ["/alerts/active": "nws.json", "/feeds/": "france.xml"])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-alert-day-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.officialAlerts = true
        configuration.alertsBaseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "alert-day-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        let candidates = [
            ("Paris", "FR", 48.8534, 2.3488, "Europe/Paris", 2_988_507),
            ("Portland", "US", 45.5234, -122.6762, "America/Los_Angeles", 5_746_545),
            ("Berlin", "DE", 52.5244, 13.4105, "Europe/Berlin", 2_950_159),
        ]
        let store = ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger))
        for (name, country, latitude, longitude, zone, id) in candidates {
            let place = places.add(
                PlaceCandidate(
                    name: name, countryCode: country, latitude: latitude, longitude: longitude, timeZone: zone,
                    source: .geonames(id: id))
            ).location
            // Two days of hours, kept all day: the forecast refreshes are not what is counted here.
            let hours = (0..<48).map {
                HourlyForecast(
                    time: Self.start + Double($0) * 3600, icon: thunderstorm && $0 % 6 == 3 ? "thunderstorm" : "cloudy",
                    temperature: 8, windSpeed: 3, precipIntensity: 0)
            }
            store.store(
                CachedForecast(
                    forecast: Forecast(provider: "open-meteo", fetchedAt: Self.start, timeZone: zone, hourly: hours),
                    latitude: latitude, longitude: longitude, etag: nil, lastModified: nil),
                for: place.id)
        }
        let events = DaemonEvents()
        let refresher = try Refresher(
            context: context, http: harness.http, store: store, events: events, places: places,
            settings: Settings(units: .si, refreshMinutes: nil))
        let watcher = try AlertWatcher(
            context: context, http: harness.http, store: store, events: events, books: refresher, languages: ["en"])
        watcher.restore(places.locations)
        let end = Self.start + 86_399
        func wake() {
            guard let next = watcher.nextWake, next < end else { return harness.finish() }
            clock.advance(max(0, next - clock.wallNow))
            watcher.recorded = { _ in
                guard watcher.isIdle else { return }
                watcher.recorded = { _ in }
                harness.loop.later { wake() }
            }
            watcher.timerFired()
            if watcher.isIdle {
                watcher.recorded = { _ in }
                harness.loop.later { wake() }
            }
        }
        harness.loop.later { wake() }
        XCTAssertTrue(try harness.run(timeout: 120), "the day never ended")
        let counts = [
            "nws": try server.count("/alerts/active"), "meteoalarm": try server.count("/feeds/"),
            "dwd": try server.count("/alerts") - (try server.count("/alerts/active")),
        ]
        for source in watcher.sourceStatuses(now: clock.wallNow) {
            XCTAssertEqual(source.requestsToday, counts[source.name], source.name)
        }
        watcher.cancelAll()
        refresher.cancelAll()
        return counts
    }

    func testACalmDay_costsAboutAThirdOfWhatTheServicesOwnRatesWould() throws {
        let calm = try day(thunderstorm: false)
        print("alert day, calm: \(calm.sorted { $0.key < $1.key }), \(calm.values.reduce(0, +)) requests")
        // Every 30 min and its jitter (at most 10 or 25 %), and the first poll at the start.
        for (name, count) in calm { XCTAssertTrue((39...49).contains(count), "\(name): \(count)") }
        XCTAssertLessThanOrEqual(calm.values.reduce(0, +), 147, "528 at the services' own rates")
    }

    func testAStormyDay_asksAtTheServicesOwnRates() throws {
        let stormy = try day(thunderstorm: true)
        print("alert day, stormy: \(stormy.sorted { $0.key < $1.key }), \(stormy.values.reduce(0, +)) requests")
        XCTAssertTrue((262...289).contains(stormy["nws"] ?? 0), "every 5 min: \(stormy)")
        XCTAssertTrue((131...145).contains(stormy["dwd"] ?? 0), "every 10 min: \(stormy)")
        XCTAssertTrue((77...97).contains(stormy["meteoalarm"] ?? 0), "every 15 min: \(stormy)")
    }
}
