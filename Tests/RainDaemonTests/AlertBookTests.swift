import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// The alert services' books in the one ledger: an NWS alert poll, sent
/// through the real loop and libcurl to the fixture server on loopback,
/// is counted in the ledger under `alerts-nws`, apart from the forecasts'
/// total, against the budget its terms give; the count survives a restart;
/// and a service that keeps failing is asked no more often than its
/// back-off says, then again as usual once it answers.
final class AlertBookTests: XCTestCase {
    /// 2026-01-15T00:00:01Z.
    static let start = 1_768_435_201.0
    static let path = "/alerts/active"
    static let book = ProviderName.alerts("nws")

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let watcher: AlertWatcher
        let places: LocationList
    }

    private var directory: URL!
    private var server: FixtureServer?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-alert-book-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
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
                files: ["alerts.json": Array("{\"type\": \"FeatureCollection\", \"features\": []}".utf8)],
                routes: [Self.path: "alerts.json"])
        self.server = server
        var places = LocationList()
        AlertParts.tillamook(&places)
        // Only its ledger: no forecast is asked for in these tests.
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "alert-book",
            directory: directory)
        let (clock, refresher, watcher) = (parts.clock, parts.refresher, parts.watcher)
        watcher.restore(places.locations)
        return Rig(
            harness: harness, server: server, clock: clock, refresher: refresher, watcher: watcher, places: places)
    }

    /// Runs `wakes` in order in one run of the loop: each moves the clock
    /// its seconds on, lets the watcher act, and, once what it started was
    /// kept (at once when it started nothing), runs its check.
    private func run(_ rig: Rig, _ wakes: [(seconds: Double, check: () throws -> Void)]) throws {
        var index = 0
        func next() {
            guard index < wakes.count else { return rig.harness.finish() }
            let wake = wakes[index]
            index += 1
            rig.clock.advance(wake.seconds)
            let checked = {
                rig.watcher.recorded = { _ in }
                do { try wake.check() } catch { XCTFail("\(error)") }
                rig.harness.loop.later { next() }
            }
            rig.watcher.recorded = { _ in checked() }
            rig.watcher.timerFired()
            if rig.watcher.isIdle { checked() }
        }
        rig.harness.loop.later { next() }
        XCTAssertTrue(try rig.harness.run(timeout: 60), "the polls never ended (at \(index))")
    }

    func testAnAlertPollIsCountedInItsServicesOwnBookApartFromTheForecasts() throws {
        let rig = try rig()
        try run(rig, [(0, {})])
        XCTAssertEqual(try rig.server.count(Self.path), 1)
        let time = rig.clock.wallNow
        XCTAssertEqual(rig.refresher.ledger.usage(Self.book, now: time).requestsToday, 1)
        XCTAssertEqual(rig.refresher.ledger.budgets[Self.book]?.daily, 576, "twice one place polled every 5 min")
        XCTAssertEqual(
            rig.refresher.budgetUsage(now: time).requestsToday, 0, "the forecasts' total counts no alert poll")
        let status = try XCTUnwrap(rig.watcher.sourceStatuses(now: time).first { $0.name == "nws" })
        XCTAssertEqual(status.requestsToday, 1)
        XCTAssertEqual(status.dailyBudget, 576)
        XCTAssertEqual(status.failures, 0)
        XCTAssertNil(status.backoffUntil)

        rig.watcher.cancelAll()
        rig.refresher.cancelAll()
        let after = try self.rig()
        XCTAssertEqual(
            after.refresher.ledger.usage(Self.book, now: after.clock.wallNow).requestsToday, 1,
            "a restart reads the book back: it never renews a budget")
        // Restarted within the interval: the service is asked when it ends, not at once.
        try run(
            after,
            [
                (0, { XCTAssertEqual(try after.server.count(Self.path), 1, "not asked at once") }),
                (299, { XCTAssertEqual(try after.server.count(Self.path), 1) }),
                (1, { XCTAssertEqual(try after.server.count(Self.path), 2, "asked when the interval ends") }),
            ])
    }

    func testAFailingServiceIsAskedNoMoreOftenThanItsBackOffSays() throws {
        let rig = try rig()
        try rig.server.script(Self.path, mode: "status", count: -1, ["status": "503"])
        // Every 5 min (and its jitter, at most 30 s): the back-off of 1, 2
        // and 4 min is shorter than the interval, the 8 min after the 4th failure is not.
        var until = 0.0
        try run(
            rig,
            [
                (0, {}), (331, {}), (331, {}),
                (
                    331,
                    {
                        XCTAssertEqual(try rig.server.count(Self.path), 4)
                        let failing = try XCTUnwrap(rig.watcher.sourceStatuses(now: rig.clock.wallNow).first)
                        XCTAssertEqual(failing.failures, 4)
                        until = try XCTUnwrap(failing.backoffUntil, "backing off after 4 failures")
                        XCTAssertGreaterThan(until - rig.clock.wallNow, 331, "longer than the interval")
                    }
                ),
                (
                    331,
                    {
                        XCTAssertEqual(try rig.server.count(Self.path), 4, "not asked while it backs off")
                        try rig.server.unscript()
                    }
                ),
                // 8 min and at most 10 % of jitter after the 4th failure: over.
                (331, { XCTAssertGreaterThan(rig.clock.wallNow, until) }),
            ])
        // Once the back-off is over it is asked, and an answer ends it.
        XCTAssertEqual(try rig.server.count(Self.path), 5)
        let answered = try XCTUnwrap(rig.watcher.sourceStatuses(now: rig.clock.wallNow).first)
        XCTAssertEqual(answered.failures, 0)
        XCTAssertNil(answered.backoffUntil)
        XCTAssertEqual(answered.requestsToday, 5, "every request that reached it counts, failed or not")
    }
}
