import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A service's back-off after failed transfers ends when the network comes
/// back or the machine resumes, for the places a person looks at, as the
/// forecasts are fetched then: the selected place's alerts do not wait out
/// a back-off of up to an hour. Through the event table (`networkChanged`,
/// `becameActive`), the real loop, libcurl and the fixture server on
/// loopback, with the tests' clock.
final class AlertNetworkBackTests: XCTestCase {
    /// 2027-01-15 00:00 UTC.
    static let start = 1_799_971_200.0

    /// Paris (selected, MeteoAlarm), Portland (NWS) and Berlin (DWD), calm;
    /// MeteoAlarm's transfers fail until its back-off (32 minutes or more)
    /// holds Paris's next poll past its calm interval;
    /// a minute later the machine loses its network (`networkLost`) or
    /// sleeps, the service is well again, and a minute later `comeBack`
    /// tells raind the network or the machine is back. The MeteoAlarm requests before and after,
    /// the others' requests at that moment, and the back-off left.
    private func backOffThenComeBack(
        networkLost: Bool, _ comeBack: @escaping (DaemonEvents) -> Void
    ) throws -> (before: Int, after: Int, othersBefore: Int, othersAfter: Int, backoff: Double?) {
        let harness = try ClientHarness()
        let atom = #"<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>"#
        let server = try FixtureServer(
            files: [
                "nws.json": AlertLifeTests.collection([]), "alerts.json": Array(#"{"alerts": []}"#.utf8),
                "france.xml": Array(atom.utf8),
            ],
            routes: ["/alerts/active": "nws.json", "/alerts": "alerts.json", "/feeds/": "france.xml"])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-alert-back-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.officialAlerts = true
        configuration.alertsBaseURL = server.url("")
        // The forecasts a trigger asks for go to the test server too (and are not counted here).
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "alert-back-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        let store = ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger))
        for (name, country, latitude, longitude, zone, id) in [
            ("Paris", "FR", 48.8534, 2.3488, "Europe/Paris", 2_988_507),
            ("Portland", "US", 45.5234, -122.6762, "America/Los_Angeles", 5_746_545),
            ("Berlin", "DE", 52.5244, 13.4105, "Europe/Berlin", 2_950_159),
        ] {
            let place = places.add(
                PlaceCandidate(
                    name: name, countryCode: country, latitude: latitude, longitude: longitude, timeZone: zone,
                    source: .geonames(id: id))
            ).location
            let hours = (0..<48).map {
                HourlyForecast(
                    time: Self.start + Double($0) * 3600, icon: "cloudy", temperature: 8, windSpeed: 3,
                    precipIntensity: 0)
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
        watcher.attention = { [weak refresher] in refresher?.placesLookedAt() }
        events.connect(EventParts(refresher: refresher, alerts: watcher))
        watcher.restore(places.locations)
        let meteoAlarm = ProviderName.alerts("meteoalarm")
        let paris = try XCTUnwrap(places.selectedID)
        let portland = try XCTUnwrap(places.locations.first { $0.name == "Portland" }).id
        func counts() -> (Int, Int) {
            let feeds = (try? server.count("/feeds/")) ?? -1
            return (feeds, ((try? server.count("/alerts")) ?? -1))
        }
        /// Goes on once every poll under way is answered.
        func settled(then next: @escaping () -> Void) {
            watcher.recorded = { _ in
                guard watcher.isIdle else { return }
                watcher.recorded = { _ in }
                harness.loop.later(next)
            }
            if watcher.isIdle {
                watcher.recorded = { _ in }
                harness.loop.later(next)
            }
        }
        /// Wake to wake until MeteoAlarm's back-off is longer than Paris's calm interval and holds its next poll.
        func failing(then next: @escaping () -> Void) {
            guard watcher.watches[paris]?.held != true, let wake = watcher.nextWake else { return next() }
            clock.advance(max(0, wake - clock.wallNow))
            watcher.timerFired()
            settled { failing(then: next) }
        }
        var result: (before: Int, after: Int, othersBefore: Int, othersAfter: Int, backoff: Double?) = (
            0, 0, 0, 0, nil
        )
        var heldFor = 0.0
        var offlineWake: Double?
        var offlineRequests = 0
        harness.loop.later {
            watcher.timerFired()
            settled {
                try? server.script("/feeds/", mode: "reset", count: -1)
                failing {
                    // A minute into the back-off the network goes (or the machine sleeps), and the
                    // service is well again.
                    clock.advance(60)
                    heldFor = (watcher.watches[paris]?.nextPoll ?? 0) - clock.wallNow
                    if networkLost {
                        events.emit(.networkChanged(hasRoute: false))
                        // Without a route nothing is asked, even a poll that is due (Portland's).
                        offlineWake = watcher.nextWake
                        let portlandDue = watcher.watches[portland]?.nextPoll
                        watcher.watches[portland]?.nextPoll = clock.wallNow
                        watcher.timerFired()
                        offlineRequests = watcher.watches.values.reduce(0) { $0 + $1.transfers.count }
                        watcher.watches[portland]?.nextPoll = portlandDue ?? clock.wallNow
                    }
                    try? server.unscript()
                    clock.advance(60)
                    (result.before, result.othersBefore) = counts()
                    comeBack(events)
                    settled {
                        (result.after, result.othersAfter) = counts()
                        result.backoff = refresher.book(of: meteoAlarm).health.backoffUntil
                            .flatMap { $0 > clock.wallNow ? $0 - clock.wallNow : nil }
                        harness.finish()
                    }
                }
            }
        }
        XCTAssertTrue(try harness.run(timeout: 60), "never answered")
        XCTAssertGreaterThan(heldFor, 15 * 60, "Paris's poll was held by the back-off")
        if networkLost {
            XCTAssertNil(offlineWake, "no poll is armed without a network route")
            XCTAssertEqual(offlineRequests, 0, "nothing is asked without a network route")
        }
        watcher.cancelAll()
        refresher.cancelAll()
        return result
    }

    func testTheNetworkBack_endsTheBackOff_andAsksForTheSelectedPlaceAtOnce() throws {
        let outcome = try backOffThenComeBack(networkLost: true) { $0.emit(.networkChanged(hasRoute: true)) }
        XCTAssertEqual(outcome.after, outcome.before + 1, "Paris's alerts asked at once: \(outcome)")
        XCTAssertEqual(outcome.othersAfter, outcome.othersBefore, "Portland and Berlin keep their schedule")
        XCTAssertNil(outcome.backoff, "the answer ended the back-off")
    }

    func testAResume_endsTheBackOff_andAsksForTheSelectedPlaceAtOnce() throws {
        let outcome = try backOffThenComeBack(networkLost: false) {
            $0.emit(.becameActive(reason: DaemonEvent.resumeReason))
        }
        XCTAssertEqual(outcome.after, outcome.before + 1, "Paris's alerts asked once, at once: \(outcome)")
        XCTAssertEqual(outcome.othersAfter, outcome.othersBefore, "Portland and Berlin keep their schedule")
        XCTAssertNil(outcome.backoff)
    }
}
