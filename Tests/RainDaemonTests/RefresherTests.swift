import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A clock the test sets: rules measured in minutes are crossed by moving it.
final class FakeClock: DaemonClock {
    var wallNow: Double
    var monotonicNow: Double

    init(wall: Double) {
        wallNow = wall
        monotonicNow = 1000
    }

    func advance(_ seconds: Double) {
        wallNow += seconds
        monotonicNow += seconds
    }
}

/// The refresher in process: a real loop, the real libcurl client and the
/// fixture server on loopback, with a fake clock. No test waits for time to pass.
final class RefresherTests: XCTestCase {
    let paris = Location(
        id: LocationID("paris-fr"), name: "Paris", countryCode: "FR", latitude: 48.8534, longitude: 2.3488,
        timeZone: "Europe/Paris", source: .geonames(id: 2_988_507))

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let directory: URL
    }

    /// A refresher with its own directories, or with `directory`'s (a
    /// restart), fetching from `provider` through the fixture server, which
    /// adds `headers` to every answer.
    private func rig(
        directory existing: URL? = nil, provider: Configuration.ProviderName = .openMeteo, headers: [String] = []
    ) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                // As if made at the test clock's noon below.
                "paris.json": try Fixtures.bytes(
                    "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: 1_800_014_400),
                "pirate.json": try Fixtures.bytes("pirateweather-forecast-san-francisco.json"),
            ],
            routes: ["/v1/forecast": "paris.json", "/forecast/": "pirate.json"], headers: headers)
        let directory =
            existing
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-refresher-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.provider = provider
        configuration.baseURL = server.url("")
        configuration.staleAfterMinutes = 15
        let keyFile = directory.appendingPathComponent("api-key")
        try Data("test-key\n".utf8).write(to: keyFile)
        configuration.apiKeyFile = keyFile.path
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "refresher-test", threshold: .warning)
        // A fixed noon (UTC, 2027-01-15): the tests move the clock by minutes and
        // never cross into a new budget day, whatever the day they run.
        let clock = FakeClock(wall: 1_800_014_400)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        _ = places.add(
            PlaceCandidate(
                name: paris.name, countryCode: paris.countryCode, latitude: paris.latitude,
                longitude: paris.longitude, timeZone: paris.timeZone, source: paris.source))
        let refresher = try Refresher(
            context: context, source: WeatherSource(configuration: configuration, credentialsDirectory: nil),
            http: harness.http,
            store: ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger)),
            events: DaemonEvents(), places: places, settings: Settings(units: .si))
        refresher.restore()
        return Rig(harness: harness, server: server, clock: clock, refresher: refresher, directory: directory)
    }

    /// Runs a person's refresh to its end and returns what it answered.
    private func refresh(_ rig: Rig, _ ids: [LocationID]) throws -> [LocationID: RefreshFailure?] {
        var answer: [LocationID: RefreshFailure?]?
        rig.refresher.refresh(ids) { results in
            answer = results
            rig.harness.finish()
        }
        if answer == nil { XCTAssertTrue(try rig.harness.run(timeout: 10), "the refresh never answered") }
        return try XCTUnwrap(answer)
    }

    private var requests: (Rig) -> Int { { $0.refresher.budgetUsage.requestsToday } }

    func testRefresh_withinAMinute_isAnsweredFromTheCache_andAfterItAsksAgain() throws {
        let rig = try rig()
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        // An sd-event loop runs once: the three refreshes follow each other inside it.
        var counted: [Int] = []
        var failures: [RefreshFailure?] = []
        rig.refresher.refresh([paris.id]) { first in
            failures.append(first[self.paris.id] ?? nil)
            counted.append(self.requests(rig))
            rig.clock.advance(30)
            rig.refresher.refresh([self.paris.id]) { second in
                failures.append(second[self.paris.id] ?? nil)
                counted.append(self.requests(rig))
                rig.clock.advance(31)
                rig.refresher.refresh([self.paris.id]) { third in
                    failures.append(third[self.paris.id] ?? nil)
                    counted.append(self.requests(rig))
                    rig.harness.finish()
                }
            }
        }
        XCTAssertTrue(try rig.harness.run(timeout: 20), "the refreshes never answered")
        XCTAssertEqual(failures.count, 3)
        XCTAssertTrue(failures.allSatisfy { $0 == nil }, "\(failures)")
        XCTAssertEqual(counted, [1, 1, 2], "30 s old answers a person's refresh; past a minute it asks again")
    }

    func testBecameActive_fetchesOnlyOnceTheDataIsStale() throws {
        let rig = try rig()
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        _ = try refresh(rig, [paris.id])
        rig.clock.advance(14 * 60)
        rig.refresher.refreshIfStale(reason: "test")
        XCTAssertEqual(requests(rig), 1, "14 minutes old is fresh: nothing to fetch")
        XCTAssertEqual(rig.refresher.forecast(for: paris.id)?.stale, false)
        rig.clock.advance(2 * 60)
        XCTAssertEqual(rig.refresher.forecast(for: paris.id)?.stale, true)
        rig.refresher.refreshIfStale(reason: "test")
        XCTAssertEqual(requests(rig), 2, "16 minutes old is stale: one request")
    }

    /// A site proxy's copy (docs/DEPLOYMENT-PROXY.md): as old as its Age says,
    /// stale by that age, yet neither a person's refresh within a minute of its
    /// arrival nor a "became active" moment asks again.
    func testProxysOldCopy_isAsOldAsItsAge_butCountsAsJustFetchedForAsking() throws {
        let rig = try rig(headers: ["Age: 1200", "Cache-Control: max-age=900"])
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        var served: (forecast: Forecast, age: Double, stale: Bool)?
        var expiresAt: Double?
        var counted: [Int] = []
        // An sd-event loop runs once: the refreshes follow each other inside it.
        rig.refresher.refresh([paris.id]) { _ in
            served = rig.refresher.forecast(for: self.paris.id)
            expiresAt = served?.forecast.expiresAt
            rig.refresher.refreshIfStale(reason: "test")
            counted.append(self.requests(rig))
            rig.clock.advance(59)
            rig.refresher.refresh([self.paris.id]) { _ in
                counted.append(self.requests(rig))
                rig.clock.advance(2)
                rig.refresher.refresh([self.paris.id]) { _ in
                    counted.append(self.requests(rig))
                    rig.harness.finish()
                }
            }
        }
        XCTAssertTrue(try rig.harness.run(timeout: 20), "the refreshes never answered")
        let first = try XCTUnwrap(served)
        XCTAssertEqual(first.age, 1200, accuracy: 0.001)
        XCTAssertTrue(first.stale, "older than StaleAfterMinutes= (15)")
        XCTAssertEqual(try XCTUnwrap(expiresAt), first.forecast.fetchedAt + 1200, accuracy: 0.001, "no freshness left")
        XCTAssertEqual(
            counted, [1, 1, 2],
            "just arrived: neither becoming active nor a person's refresh within the minute asks again; past it, it does"
        )
    }

    func testRefresh_ofAPlaceRemovedMeanwhile_isAnsweredLocationNotFound() throws {
        let rig = try rig()
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        var answer: [LocationID: RefreshFailure?]?
        rig.refresher.refresh([paris.id]) { answer = $0 }
        XCTAssertNil(answer, "the request is under way")
        rig.refresher.placesChanged(LocationList())
        XCTAssertEqual(answer?[paris.id]??.error, .locationNotFound, "the waiter is answered, not forgotten")
    }

    func testCancelAll_answersEveryWaiter() throws {
        let rig = try rig()
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        var answers: [[LocationID: RefreshFailure?]] = []
        rig.refresher.refresh([paris.id]) { answers.append($0) }
        rig.refresher.refresh([paris.id]) { answers.append($0) }
        XCTAssertTrue(answers.isEmpty)
        rig.refresher.cancelAll()
        XCTAssertEqual(answers.count, 2)
        XCTAssertTrue(answers.allSatisfy { $0[paris.id]??.message.contains("stopping") == true })
    }

    func testRefresh_afterARestartWithAnotherProvider_fetchesAnew() throws {
        let before = try rig()
        defer { try? FileManager.default.removeItem(at: before.directory) }
        XCTAssertEqual(try refresh(before, [paris.id])[paris.id] ?? nil, nil)
        XCTAssertEqual(before.refresher.forecast(for: paris.id)?.forecast.provider, "open-meteo")
        // raind restarts at once with [Provider] Name=pirateweather over the same cache.
        let after = try rig(directory: before.directory, provider: .pirateWeather)
        XCTAssertEqual(after.refresher.forecast(for: paris.id)?.forecast.provider, "open-meteo", "still served")
        let counted = requests(after)
        XCTAssertEqual(try refresh(after, [paris.id])[paris.id] ?? nil, nil)
        XCTAssertEqual(requests(after), counted + 1, "seconds-old data from another provider answers no refresh")
        XCTAssertEqual(after.refresher.forecast(for: paris.id)?.forecast.provider, "pirateweather")
    }
}
