import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// The ledger in process: a forecast and an air poll, sent through the real
/// loop and libcurl to the fixture server on loopback, spend from one book
/// (Open-Meteo's), whose numbers the status shows adding up, which a
/// restart reads back, and whose damaged file raind does not trust.
final class LedgerDaemonTests: XCTestCase {
    /// 2026-01-15T00:00:01Z.
    static let start = 1_768_435_201.0

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let context: DaemonContext
        let store: ForecastStore
        let refresher: Refresher
        let air: AirWatcher
        let places: LocationList
    }

    private var directory: URL!
    private var server: FixtureServer?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-ledger-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func rig() throws -> Rig {
        let harness = try ClientHarness()
        let server =
            try self.server
            ?? FixtureServer(
                files: [
                    "om.json": try Fixtures.bytes(
                        "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: Self.start),
                    "air.json": try Fixtures.bytes("openmeteo-airquality-paris-poor.json"),
                ],
                routes: ["/v1/forecast": "om.json", "/v1/air-quality": "air.json"])
        self.server = server
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        configuration.airBaseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "ledger-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        _ = places.add(
            PlaceCandidate(
                name: "Paris", countryCode: "FR", latitude: 48.8534, longitude: 2.3488, timeZone: "",
                source: .coordinates))
        let parts = try AirParts(context: context, http: harness.http, places: places)
        return Rig(
            harness: harness, server: server, clock: clock, context: context, store: parts.store,
            refresher: parts.refresher, air: parts.air, places: places)
    }

    /// A forecast refresh, then an air poll, each answered before the next.
    private func forecastAndAir(_ rig: Rig) throws {
        let paris = try XCTUnwrap(rig.places.selectedID)
        rig.harness.loop.later {
            rig.refresher.refresh([paris]) { results in
                XCTAssertEqual(results[paris], .some(nil), "the forecast arrived")
                rig.air.settled = { rig.harness.finish() }
                rig.air.placesChanged(rig.places)
            }
        }
        XCTAssertTrue(try rig.harness.run(timeout: 30), "the forecast and the air never arrived")
        rig.air.settled = {}
    }

    func testAForecastAndAnAirPollSpendFromOneBookWhoseNumbersAddUp() throws {
        let rig = try rig()
        try forecastAndAir(rig)
        let time = rig.clock.wallNow
        XCTAssertEqual(try rig.server.count("/v1/forecast"), 1)
        XCTAssertEqual(try rig.server.count("/v1/air-quality"), 1)
        let book = rig.refresher.ledger.usage(.openMeteo, now: time)
        XCTAssertEqual(book.requestsToday, 2, "one forecast and one air request")
        XCTAssertEqual(book.callsToday, 3.1 + 1.9, accuracy: 1e-9, "Paris's air (with pollen) counts 1.9 calls")
        // What the status shows: the total is the one provider's book, against its own budget.
        XCTAssertEqual(rig.refresher.budgetUsage(now: time), book)
        XCTAssertEqual(rig.refresher.scheduler.usage(now: time), book, "the scheduler reads the same book")
        XCTAssertTrue(rig.refresher.totalAddsUp)
        let statuses = rig.refresher.providerStatuses(now: time)
        let openMeteo = try XCTUnwrap(statuses.first { $0.name == "open-meteo" })
        XCTAssertEqual(openMeteo.callsToday, book.callsToday, accuracy: 1e-9)
        XCTAssertEqual(openMeteo.requestsToday, book.requestsToday)
        XCTAssertEqual(openMeteo.dailyBudget, rig.refresher.scheduler.policy.dailyBudget)
    }

    func testTheBookSurvivesARestart() throws {
        let before = try rig()
        try forecastAndAir(before)
        let counted = before.refresher.ledger.usage(.openMeteo, now: before.clock.wallNow)
        before.refresher.cancelAll()
        let after = try rig()
        XCTAssertEqual(after.refresher.ledger.usage(.openMeteo, now: after.clock.wallNow), counted)
        XCTAssertEqual(after.refresher.budgetUsage(now: after.clock.wallNow), counted)
    }

    func testADamagedBookFileCountsNothingAndIsReplaced() throws {
        let cache = DaemonPaths.userInstance(under: directory.path).cacheDirectory
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let file = cache + "/budget-open-meteo.json"
        for damage in ["{\"day\": 1768435200.5, \"calls\": 3}", "{\"day\": 1768435200, \"calls\": -4}", "[1, 2", "{}"] {
            try Data(damage.utf8).write(to: URL(fileURLWithPath: file))
            let rig = try rig()
            XCTAssertEqual(
                rig.refresher.ledger.usage(.openMeteo, now: rig.clock.wallNow).requestsToday, 0,
                "\(damage) is not a count raind wrote")
        }
        let rig = try rig()
        try forecastAndAir(rig)
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
        XCTAssertEqual((written as? [String: Any])?["requests"] as? Int, 2, "the book is written anew")
    }
}
