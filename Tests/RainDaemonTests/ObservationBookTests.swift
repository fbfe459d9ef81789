import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// The observation sources through the real loop and libcurl to the
/// fixture server on loopback, with the tests' clock: a place's station is
/// found (the NWS has no grid there and answers 404, so METAR's box is
/// asked) and polled; places near one station share its poll; a station is
/// asked no more often than hourly; every request is counted in its
/// source's own book in the ledger, apart from the forecasts' total.
final class ObservationBookTests: XCTestCase {
    /// 2026-07-29T14:00:00Z, minutes after the recorded reports.
    static let start = 1_785_333_600.0
    static let metar = "/api/data/metar"

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let watcher: ObservationWatcher
        let ids: [LocationID]
        let store: ForecastStore
        let named: [(String, Double, Double)]
    }

    private var directory: URL!
    private var server: FixtureServer?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-observation-book-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Places near Los Angeles International: `names` with their coordinates.
    /// `server` and `clock`: those of a rig before a restart (new ones by default).
    private func rig(
        _ places: [(String, Double, Double)], server given: FixtureServer? = nil, clock: FakeClock? = nil
    ) throws -> Rig {
        let harness = try ClientHarness()
        let server =
            try given
            ?? FixtureServer(
                files: [
                    "metar.json": try Fixtures.bytes("observations/aviationweather-metar-json-klax-kjfk-kord.json")
                ],
                routes: [Self.metar: "metar.json"])
        self.server = server
        var configuration = Configuration()
        configuration.observationsBaseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "observation-book-test", threshold: .error)
        let clock = clock ?? FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var list = LocationList()
        for (name, latitude, longitude) in places {
            _ = list.add(
                PlaceCandidate(
                    name: name, region: "California", country: "United States", countryCode: "US",
                    latitude: latitude, longitude: longitude, timeZone: "America/Los_Angeles", source: .coordinates))
        }
        let store = ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger))
        let refresher = try Refresher(
            context: context, http: harness.http, store: store, events: DaemonEvents(), places: list,
            settings: Settings(units: .si, refreshMinutes: nil))
        let watcher = try ObservationWatcher(context: context, http: harness.http, books: refresher, cache: store.cache)
        watcher.restore(list.locations)
        return Rig(
            harness: harness, server: server, clock: clock, refresher: refresher, watcher: watcher,
            ids: list.locations.map(\.id), store: store, named: places)
    }

    /// The rig as after a restart: a new loop, ledger and watcher on the
    /// same cache, the same server and clock; the watcher reads what the
    /// first one kept (as raind does after READY=1).
    private func restarted(_ rig: Rig) throws -> Rig {
        rig.watcher.cancelAll()
        let again = try self.rig(rig.named, server: rig.server, clock: rig.clock)
        again.watcher.restoreKept()
        return again
    }

    /// Runs `wakes` in order in one run of the loop: each moves the clock
    /// its seconds on, lets the watcher act, and, once nothing it started
    /// is under way, runs its check.
    private func run(_ rig: Rig, _ wakes: [(seconds: Double, check: () throws -> Void)]) throws {
        var index = 0
        func next() {
            guard index < wakes.count else { return rig.harness.finish() }
            let wake = wakes[index]
            index += 1
            rig.clock.advance(wake.seconds)
            let checked = {
                rig.watcher.settled = {}
                do { try wake.check() } catch { XCTFail("\(error)") }
                rig.harness.loop.later { next() }
            }
            rig.watcher.settled = { if rig.watcher.isIdle { checked() } }
            rig.watcher.timerFired()
            if rig.watcher.isIdle { checked() }
        }
        rig.harness.loop.later { next() }
        XCTAssertTrue(try rig.harness.run(timeout: 60), "the polls never ended (at \(index))")
    }

    func testTwoPlacesNearOneAirportShareItsHourlyPoll() throws {
        let rig = try rig([("Inglewood", 33.96, -118.35), ("El Segundo", 33.92, -118.42)])
        let book = ProviderName.observations("metar")
        try run(
            rig,
            [
                (
                    0,
                    {
                        // One box per place (their boxes differ), one poll for both.
                        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?bbox="), 2)
                        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids=KLAX"), 1)
                        XCTAssertEqual(rig.ids.count, 2)
                        for place in rig.ids {
                            let observed = try XCTUnwrap(rig.watcher.observed(at: place), "\(place)")
                            XCTAssertEqual(observed.station?.id, "KLAX")
                            XCTAssertEqual(observed.observation?.temperature, 21.7)
                            XCTAssertEqual(observed.observation?.time, 1_785_333_180)
                        }
                    }
                ),
                (1800, { XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids="), 1, "not within the hour") }),
                // The hour and its jitter (at most a tenth of it) later.
                (1800 + 360, { XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids="), 2, "asked again") }),
            ])
        let time = rig.clock.wallNow
        // The NWS's /points (404 here: no grid) in its own book; the boxes and polls in METAR's.
        XCTAssertEqual(rig.refresher.ledger.usage(book, now: time).requestsToday, 4)
        XCTAssertEqual(rig.refresher.ledger.usage(.observations("nws"), now: time).requestsToday, 2)
        XCTAssertEqual(rig.refresher.budgetUsage(now: time).requestsToday, 0, "the forecasts' total counts none")
        let status = try XCTUnwrap(rig.watcher.sourceStatuses(now: time).first { $0.name == "metar" })
        XCTAssertEqual(status.stations, ["KLAX"])
        XCTAssertEqual(Set(status.places), Set(rig.ids))
        XCTAssertEqual(status.requestsPerDay, 24)
        XCTAssertEqual(status.requestsToday, 4)
        // The hour's poll sent the first answer's validators back: the report had not changed.
        XCTAssertEqual(status.unchangedToday, 1)
        XCTAssertEqual(status.dailyBudget, 50)
    }

    func testAPlaceFarFromEveryReportingAirportHasNoStationAndSaysWhy() throws {
        // San Diego: the box's answer holds Los Angeles, New York and Chicago only.
        let rig = try rig([("San Diego", 32.72, -117.16)])
        try run(rig, [(0, {})])
        let observed = try XCTUnwrap(rig.watcher.observed(at: try XCTUnwrap(rig.ids.first)))
        XCTAssertNil(observed.station)
        XCTAssertEqual(observed.problem?.hasPrefix("the nearest station, Los Angeles Intl, CA, US, is "), true)
        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids="), 0, "no station is polled")
    }

    func testARestartAsksNothingBeforeItIsDue() throws {
        let first = try rig([("Inglewood", 33.96, -118.35), ("El Segundo", 33.92, -118.42)])
        try run(first, [(0, { XCTAssertEqual(try first.server.countTargets(Self.metar + "?ids=KLAX"), 1) })])
        let rig = try restarted(first)
        // Served at once from the cache: the station, its distance and its latest report.
        for place in rig.ids {
            let observed = try XCTUnwrap(rig.watcher.observed(at: place), "\(place)")
            XCTAssertEqual(observed.station?.id, "KLAX")
            XCTAssertNotNil(observed.distanceMetres)
            XCTAssertEqual(observed.observation?.temperature, 21.7)
        }
        try run(
            rig,
            [
                (
                    0,
                    {
                        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?bbox="), 2, "no box asked again")
                        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids="), 1, "not within the hour")
                    }
                ),
                (1800, { XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids="), 1, "not within the hour") }),
                (
                    1800 + 360,
                    {
                        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?ids="), 2, "its hour's poll")
                        XCTAssertEqual(try rig.server.countTargets(Self.metar + "?bbox="), 2, "the week is not out")
                    }
                ),
            ])
        let status = try XCTUnwrap(rig.watcher.sourceStatuses(now: rig.clock.wallNow).first { $0.name == "metar" })
        XCTAssertEqual(status.stations, ["KLAX"])
        XCTAssertEqual(Set(status.places), Set(rig.ids))
    }

    func testAKeptSearchThatBreaksTheRulesIsDiscardedAndThePlaceSearchedAgain() throws {
        /// The file as raind wrote it, one field changed.
        func edited(_ change: @escaping (inout [String: Any]) -> Void) -> (Data) throws -> Data {
            { bytes in
                var file = try XCTUnwrap(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
                change(&file)
                return try JSONSerialization.data(withJSONObject: file)
            }
        }
        let changes: [(String, (Data) throws -> Data)] = [
            (
                "a station id that is no path segment",
                edited { $0["station"] = ["id": "K/../X", "name": "X", "latitude": 33.9, "longitude": -118.4] }
            ),
            (
                "an observation no station makes",
                edited { file in
                    var latest = file["latest"] as? [String: Any] ?? [:]
                    latest["temperature"] = 500
                    file["latest"] = latest
                }
            ),
            ("a time past the year 3000", edited { $0["nextSearch"] = 1e20 }),
            ("a source raind does not have", edited { $0["source"] = "nowhere" }),
            ("another position", edited { $0["latitude"] = 34.5 }),
            ("another service", edited { $0["baseURL"] = "http://127.0.0.1:9" }),
            ("another version", edited { $0["version"] = 2 }),
            (
                "no station and no reason",
                edited { file in
                    file["station"] = nil
                    file["source"] = nil
                    file["latest"] = nil
                }
            ),
            ("no JSON", { _ in Data("{\"version\":1,".utf8) }),
        ]
        for (what, change) in changes {
            // Each change on a cache of its own.
            try FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let first = try rig([("Inglewood", 33.96, -118.35)])
            try run(first, [(0, {})])
            let id = try XCTUnwrap(first.ids.first)
            let file = URL(fileURLWithPath: try XCTUnwrap(first.store.cache.stationSearchPath(for: id)))
            try change(try Data(contentsOf: file)).write(to: file)
            let rig = try restarted(first)
            XCTAssertNil(rig.watcher.observed(at: id)?.station, what)
            try run(
                rig,
                [
                    (
                        0,
                        {
                            XCTAssertEqual(
                                try rig.server.countTargets(Self.metar + "?bbox="), 2, "\(what): searched again")
                        }
                    )
                ])
            XCTAssertEqual(rig.watcher.observed(at: id)?.station?.id, "KLAX", what)
            // Written again, whole.
            let again = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            XCTAssertEqual((again["station"] as? [String: Any])?["id"] as? String, "KLAX", what)
            rig.watcher.cancelAll()
            first.server.stop()
        }
    }

    func testARemovedPlacesKeptSearchIsDeleted() throws {
        let rig = try rig([("Inglewood", 33.96, -118.35), ("El Segundo", 33.92, -118.42)])
        try run(rig, [(0, {})])
        let paths = try rig.ids.map { try XCTUnwrap(rig.store.cache.stationSearchPath(for: $0)) }
        XCTAssertTrue(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let settings = Settings(units: .si, refreshMinutes: nil)
        let places = try rig.ids.map { id in try XCTUnwrap(rig.refresher.list.locations.first { $0.id == id }) }
        let old = PersistentState(places: LocationList(locations: places), settings: settings)
        let new = PersistentState(places: LocationList(locations: Array(places.prefix(1))), settings: settings)
        rig.watcher.stateChanged(from: old, to: new)
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths[0]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths[1]), "the removed place's file")
        rig.watcher.cancelAll()
    }

    func testWithoutANetworkRouteNothingIsAskedUntilItComesBack() throws {
        let rig = try rig([("Inglewood", 33.96, -118.35)])
        rig.refresher.setNetworkUp(false)
        try run(
            rig,
            [
                (0, { XCTAssertEqual(try rig.server.countTargets(Self.metar), 0, "nothing asked without a route") }),
                (
                    60,
                    {
                        rig.refresher.setNetworkUp(true)
                        XCTAssertEqual(try rig.server.countTargets(Self.metar), 0)
                    }
                ),
                (0, { XCTAssertEqual(try rig.server.countTargets(Self.metar + "?bbox="), 1, "asked once it is back") }),
            ])
    }
}
