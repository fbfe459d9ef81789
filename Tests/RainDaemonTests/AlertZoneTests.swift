import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// NWS alerts asked by zone (docs/ALERTS.md, "Requests shared by area"):
/// the watcher polling the fixture server over loopback with libcurl, the
/// tests' clock. Two places whose kept `/points` lookups name the same
/// zones ask one question a round, matched for each locally; a place whose
/// zones are not known keeps the point query; the next round is answered
/// 304 and counted as unchanged.
final class AlertZoneTests: XCTestCase {
    /// 2019-12-20 14:00 PST, while the recorded Flood Watch for ORZ004 is in effect.
    static let start = 1_576_879_200.0
    static let zonePath = "/alerts/active?zone=ORC057,ORZ004,ORZ604"

    private var directory: URL!
    private var server: FixtureServer?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-alert-zone-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func testPlacesInOneZone_askOneQuestion_andAnUnknownZoneKeepsThePoint() throws {
        let harness = try ClientHarness()
        // The recorded answer of a zone query (ORZ004), for every alert question.
        let server = try FixtureServer(
            files: ["zone.json": try Fixtures.bytes("alerts/nws-alerts-active-zone-orz004.json")],
            routes: ["/alerts/active": "zone.json"])
        self.server = server
        var places = LocationList()
        func add(_ name: String, _ latitude: Double, _ longitude: Double, id: Int) -> Location {
            places.add(
                PlaceCandidate(
                    name: name, region: "Oregon", country: "United States", countryCode: "US", latitude: latitude,
                    longitude: longitude, timeZone: "America/Los_Angeles", source: .geonames(id: id))
            ).location
        }
        let tillamook = AlertParts.tillamook(&places)
        let bayCity = add("Bay City", 45.5226, -123.8890, id: 5_711_847)
        let portland = add("Portland", 45.5234, -122.6762, id: 5_746_545)
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "alert-zone",
            directory: directory)
        let (clock, store, refresher, watcher) = (parts.clock, parts.store, parts.refresher, parts.watcher)
        // What the NWS's /points answered for the two coast places (as the forecast provider keeps it).
        for place in [tillamook, bayCity] {
            store.keep(
                ProviderLookup(
                    values: [
                        "office": "PQR", "gridX": "60", "gridY": "100", "forecastZone": "ORZ004",
                        "county": "ORC057", "fireWeatherZone": "ORZ604",
                    ], expiresAt: Self.start + 86_400),
                of: place.id, by: .nws)
        }
        watcher.restore(places.locations)

        // Two rounds: at the start, and past the fast interval (no forecast yet: 5 min and its jitter).
        var rounds = [0.0, 331]
        func next() {
            guard !rounds.isEmpty else { return harness.finish() }
            clock.advance(rounds.removeFirst())
            watcher.recorded = { _ in
                guard watcher.isIdle else { return }
                watcher.recorded = { _ in }
                harness.loop.later { next() }
            }
            watcher.timerFired()
        }
        harness.loop.later { next() }
        XCTAssertTrue(try harness.run(timeout: 60), "the polls never ended")

        XCTAssertEqual(try server.countTargets(Self.zonePath), 2, "one zone question a round for both coast places")
        XCTAssertEqual(try server.countTargets("/alerts/active?point=45.52,-122.68"), 2, "Portland: by its point")
        XCTAssertEqual(try server.count("/alerts/active"), 4)
        for place in [tillamook, bayCity, portland] {
            let held = store.officialAlerts(of: place.id)?.messages.map(\.event)
            XCTAssertEqual(held, ["Flood Watch"], "\(place.name)")
        }
        let status = try XCTUnwrap(watcher.sourceStatuses(now: clock.wallNow).first)
        XCTAssertEqual(status.requestsToday, 4)
        XCTAssertEqual(status.unchangedToday, 2, "the second round answered 304, counted apart")
        XCTAssertEqual(status.requestsPerDay, 2 * 288, "two questions every 5 min for three places")
        watcher.cancelAll()
        refresher.cancelAll()
    }
}
