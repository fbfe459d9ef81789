import Foundation
import RainCore
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

    private func rig() throws -> Rig {
        let harness = try ClientHarness()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/openmeteo-forecast-paris-unixtime.json")
        let body = try Data(contentsOf: fixture)
        let server = try FixtureServer(files: ["paris.json": Array(body)], routes: ["/v1/forecast": "paris.json"])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-refresher-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.baseURL = server.url("")
        configuration.staleAfterMinutes = 15
        let paths = DaemonPaths(
            mode: .user,
            environment: [
                "XDG_RUNTIME_DIR": directory.path, "XDG_STATE_HOME": directory.path + "/state",
                "XDG_CACHE_HOME": directory.path + "/cache", "XDG_CONFIG_HOME": directory.path + "/config",
            ])
        let logger = Logger(subsystem: "refresher-test", threshold: .warning)
        // Noon UTC today: moving the clock by minutes never crosses into another budget day.
        let clock = FakeClock(wall: (Date().timeIntervalSince1970 / 86400).rounded(.down) * 86400 + 43200)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        _ = places.add(
            PlaceCandidate(
                name: paris.name, countryCode: paris.countryCode, latitude: paris.latitude,
                longitude: paris.longitude, timeZone: paris.timeZone, source: paris.source))
        let refresher = try Refresher(
            context: context, source: WeatherSource(configuration: configuration, credentialsDirectory: nil),
            http: harness.http, cache: ForecastCache(directory: paths.cacheDirectory, logger: logger),
            publisher: Publisher(maximumQueuedBytes: 1 << 20, logger: logger), places: places, refreshMinutes: nil)
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
}
