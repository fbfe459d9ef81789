import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A refresh of more places than the provider's per-minute limit allows at
/// once is spread: the refresher in process (a real loop, libcurl, the
/// fixture server on loopback) with a fake clock, so no test waits a minute.
final class PacingTests: XCTestCase {
    func testRefreshOfEveryPlace_keepsWithinOpenMeteosMinute_andStartsTheRestWhenTheWindowAllows() throws {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "paris.json": try Fixtures.bytes(
                    "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: 1_800_014_400)
            ],
            routes: ["/v1/forecast": "paris.json"])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-pacing-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "pacing-test", threshold: .error)
        let clock = FakeClock(wall: 1_800_014_400)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        for index in 0..<LocationList.maximumCount {
            _ = places.add(
                PlaceCandidate(
                    name: "Place \(index)", countryCode: "FR", latitude: 40 + Double(index) * 0.05, longitude: 2.35,
                    timeZone: "Europe/Paris", source: .coordinates))
        }
        XCTAssertEqual(places.locations.count, 250)
        // The selected place is the last one asked for: it still goes first.
        let ids = places.locations.map(\.id)
        let selected = try XCTUnwrap(ids.last)
        _ = try places.select(selected)
        let events = DaemonEvents()
        let refresher = try Refresher(
            context: context, source: WeatherSource(configuration: configuration, credentialsDirectory: nil),
            http: harness.http,
            store: ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger)),
            events: events, places: places, settings: Settings(units: .si))
        refresher.restore()

        let perMinute = 600 / OpenMeteo.callsPerRequest  // 193.5: 193 requests fit a minute
        let firstMinute = Int(perMinute)
        var started: [LocationID] = []
        var updated: [LocationID: Int] = [:]
        var startedInFirstMinute: [LocationID]?
        var askedInFirstMinute: Int?
        var askedAgainBeforeTheWindowMoved: Int?
        var answer: [LocationID: RefreshFailure?]?
        let recorder = EventRecorder(events) { event in
            switch event {
            case .refreshStarted(let ids): started += ids
            case .weatherUpdated(let id, _):
                updated[id, default: 0] += 1
                guard updated.count == firstMinute, startedInFirstMinute == nil else { return }
                // The first minute's requests are all answered: the rest still wait.
                startedInFirstMinute = started
                askedInFirstMinute = try? server.count("/v1/forecast")
                harness.loop.later {
                    refresher.timerFired()  // 59 s on: the window has not moved
                    clock.advance(59)
                    refresher.timerFired()
                    askedAgainBeforeTheWindowMoved = try? server.count("/v1/forecast")
                    clock.advance(1)
                    XCTAssertLessThanOrEqual(
                        refresher.nextWake ?? .infinity, clock.wallNow, "the timer is armed for the window")
                    refresher.timerFired()
                }
            default: break
            }
        }
        refresher.refresh(ids) { results in
            answer = results
            harness.finish()
        }
        XCTAssertEqual(started.count, firstMinute, "RefreshStarted names the places whose request went out")
        XCTAssertEqual(started.first, selected, "the selected place goes first")
        XCTAssertGreaterThan(try XCTUnwrap(refresher.nextWake), clock.wallNow, "the timer waits for the window")
        XCTAssertTrue(try harness.run(timeout: 60), "the refresh never answered")
        _ = recorder

        let results = try XCTUnwrap(answer)
        XCTAssertEqual(Set(results.keys), Set(ids), "every place answered")
        XCTAssertTrue(results.values.allSatisfy { $0 == nil }, "\(results.values.compactMap { $0 }.prefix(3))")
        XCTAssertEqual(startedInFirstMinute?.count, firstMinute)
        XCTAssertEqual(askedInFirstMinute, firstMinute, "at most 600 calls' worth in the first minute")
        XCTAssertEqual(askedAgainBeforeTheWindowMoved, firstMinute, "nothing more until the window moves")
        XCTAssertLessThanOrEqual(Double(firstMinute) * OpenMeteo.callsPerRequest, 600)
        XCTAssertEqual(try server.count("/v1/forecast"), 250, "each place asked once, none lost")
        XCTAssertEqual(Set(started), Set(ids))
        XCTAssertEqual(started.count, 250, "RefreshStarted once per place")
        XCTAssertTrue(updated.values.allSatisfy { $0 == 1 } && updated.count == 250, "each place answered once")
        print(
            "pacing: \(askedInFirstMinute ?? 0) requests (\(Double(askedInFirstMinute ?? 0) * OpenMeteo.callsPerRequest) calls) in the first minute, \(250 - (askedInFirstMinute ?? 0)) after it"
        )
    }
}
