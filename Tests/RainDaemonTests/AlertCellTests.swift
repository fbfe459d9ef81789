import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// DWD alerts asked by warn cell (docs/ALERTS.md, "Requests shared by
/// area"): the watcher polling the fixture server as Bright Sky over
/// loopback with libcurl, the tests' clock. Two Berlin places ask by their
/// points first; the answers name their cell, and from the next round on
/// they ask one question, by the cell. A cell kept survives a restart with
/// the place's forecast; an answer naming no usable cell keeps the point query.
final class AlertCellTests: XCTestCase {
    /// 2026-03-06 12:37 UTC: an hour after the recorded frost warning was issued.
    static let start = 1_772_800_620.0
    static let cellPath = "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin"
    static let mittePoint = "/alerts?lat=52.52&lon=13.39&tz=Europe%2FBerlin"
    static let alexanderplatzPoint = "/alerts?lat=52.52&lon=13.41&tz=Europe%2FBerlin"

    private var directory: URL!
    private var server: FixtureServer?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-alert-cell-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Berlin-Mitte, and Alexanderplatz when `both`, added to `places`.
    static func berlin(_ places: inout LocationList, both: Bool = true) -> [Location] {
        [("Berlin-Mitte", 52.5208, 13.3889, 2_950_159), ("Alexanderplatz", 52.5219, 13.4132, 6_945_992)]
            .prefix(both ? 2 : 1).map {
                name, latitude, longitude, id in
                places.add(
                    PlaceCandidate(
                        name: name, region: "Berlin", country: "Germany", countryCode: "DE", latitude: latitude,
                        longitude: longitude, timeZone: "Europe/Berlin", source: .geonames(id: id))
                ).location
            }
    }

    /// Polls `rounds` (seconds to advance before each) and waits for each to end.
    static func poll(_ rounds: [Double], harness: ClientHarness, parts: AlertParts) throws {
        var rounds = rounds
        func next() {
            guard !rounds.isEmpty else { return harness.finish() }
            parts.clock.advance(rounds.removeFirst())
            parts.watcher.recorded = { _ in
                guard parts.watcher.isIdle else { return }
                parts.watcher.recorded = { _ in }
                harness.loop.later { next() }
            }
            parts.watcher.timerFired()
        }
        harness.loop.later { next() }
        XCTAssertTrue(try harness.run(timeout: 60), "the polls never ended")
    }

    func testPlacesInOneWarnCell_askOneQuestionFromTheSecondRound_andKeepTheCellOverARestart() throws {
        let harness = try ClientHarness()
        // The recorded answer for a point in Berlin-Mitte (warn cell 711000101), for every question.
        let server = try FixtureServer(
            files: ["cell.json": try Fixtures.bytes("alerts/brightsky-alerts-berlin-mitte.json")],
            routes: ["/alerts": "cell.json"])
        self.server = server
        var places = LocationList()
        let berlin = Self.berlin(&places)
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "alert-cell",
            directory: directory)
        parts.watcher.restore(places.locations)
        // At the start, and past the fast interval (no forecast yet: 10 min and its jitter).
        try Self.poll([0, 661], harness: harness, parts: parts)

        XCTAssertEqual(try server.countTargets(Self.mittePoint), 1, "the first round by point")
        XCTAssertEqual(try server.countTargets(Self.alexanderplatzPoint), 1, "the first round by point")
        XCTAssertEqual(try server.countTargets(Self.cellPath), 1, "one cell question for both places")
        XCTAssertEqual(try server.count("/alerts"), 3)
        for place in berlin {
            let held = parts.store.officialAlerts(of: place.id)?.messages.map(\.event)
            XCTAssertEqual(held, ["frost"], "\(place.name): every alert of the cell is the place's")
        }
        parts.watcher.cancelAll()
        parts.refresher.cancelAll()

        // The cell is written with the place's forecast and read back at the next start.
        parts.keepForecasts(for: berlin, from: parts.clock.wallNow)
        let later = try ClientHarness()
        let again = try AlertParts(
            harness: later, server: server, places: places, start: parts.clock.wallNow, name: "alert-cell",
            directory: directory)
        for place in berlin { XCTAssertNotNil(again.store.restore(place)) }
        let source = DWDAlertSource()
        for place in berlin {
            XCTAssertEqual(
                again.watcher.plan(for: place, source: source, at: again.clock.wallNow),
                .requests([ProviderRequest(path: Self.cellPath)]), "\(place.name)")
        }
        again.watcher.cancelAll()
        again.refresher.cancelAll()
    }

    func testAnAnswerNamingNoWarnCell_keepsThePointQuery() throws {
        let harness = try ClientHarness()
        // A warn cell of five digits: not the DWD's, and not sent on.
        let body = #"{"alerts": [], "location": {"warn_cell_id": "71100", "name": "Berl. - Mitte"}}"#
        let server = try FixtureServer(files: ["bad.json": Array(body.utf8)], routes: ["/alerts": "bad.json"])
        self.server = server
        var places = LocationList()
        let mitte = Self.berlin(&places, both: false)[0]
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "alert-cell",
            directory: directory)
        parts.watcher.restore([mitte])
        try Self.poll([0, 661], harness: harness, parts: parts)

        XCTAssertEqual(try server.countTargets(Self.mittePoint), 2, "by point in both rounds")
        XCTAssertEqual(try server.count("/alerts"), 2)
        XCTAssertEqual(parts.store.officialAlerts(of: mitte.id)?.service.problem, nil, "the alerts were read")
        XCTAssertNotNil(parts.store.officialAlerts(of: mitte.id)?.service.checkedAt)
        parts.watcher.cancelAll()
        parts.refresher.cancelAll()
    }
}
