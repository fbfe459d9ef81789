import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// The air watcher in process: the real loop, libcurl and the fixture server
/// on loopback answering as Open-Meteo's forecast and air-quality APIs, the
/// refresher's budgets, and a fake clock. A whole day costs what
/// docs/SCHEDULING.md ("Air quality") says, counted in Open-Meteo's calls.
final class AirWatcherTests: XCTestCase {
    /// 2026-01-15T00:00:01Z: a whole UTC day ahead, one budget day.
    static let start = 1_768_435_201.0

    private final class Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let air: AirWatcher
        let store: ForecastStore
        let directory: URL
        let places: LocationList

        init(
            harness: ClientHarness, server: FixtureServer, clock: FakeClock, refresher: Refresher, air: AirWatcher,
            store: ForecastStore, directory: URL, places: LocationList
        ) {
            self.harness = harness
            self.server = server
            self.clock = clock
            self.refresher = refresher
            self.air = air
            self.store = store
            self.directory = directory
            self.places = places
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func rig(dailyBudget: Int? = nil) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "om.json": try Fixtures.bytes(
                    "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: Self.start),
                "air.json": try Fixtures.bytes("openmeteo-airquality-paris-poor.json"),
            ],
            routes: ["/v1/forecast": "om.json", "/v1/air-quality": "air.json"])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-air-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        configuration.airBaseURL = server.url("")
        configuration.dailyBudget = dailyBudget
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "air-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        for (name, code, latitude, longitude) in [
            ("Paris", "FR", 48.8534, 2.3488), ("Oslo", "NO", 59.91, 10.75), ("New York", "US", 40.71, -74.01),
        ] {
            _ = places.add(
                PlaceCandidate(
                    name: name, countryCode: code, latitude: latitude, longitude: longitude, timeZone: "",
                    source: .coordinates))
        }
        let parts = try AirParts(context: context, http: harness.http, places: places)
        return Rig(
            harness: harness, server: server, clock: clock, refresher: parts.refresher, air: parts.air,
            store: parts.store, directory: directory, places: places)
    }

    /// Runs the air's schedule for `seconds` of the fake clock from the
    /// places' first requests, each request answered before the clock moves
    /// on; returns the requests made per place.
    private func runSchedule(_ rig: Rig, for seconds: Double) throws -> [LocationID: Int] {
        let end = rig.clock.wallNow + seconds
        var counts: [LocationID: Int] = [:]
        /// Counts the requests under way and goes on once all are answered.
        func whenSettled(_ next: @escaping () -> Void) {
            let asked = rig.air.schedule.places.filter(\.value.inFlight).map(\.key)
            for id in asked { counts[id, default: 0] += 1 }
            var pending = asked.count
            guard pending > 0 else { return rig.harness.loop.later(next) }
            rig.air.settled = {
                pending -= 1
                if pending == 0 { rig.harness.loop.later(next) }
            }
        }
        func tick() {
            guard let next = rig.air.schedule.nextWake(), next < end else { return rig.harness.finish() }
            rig.clock.advance(max(0, next - rig.clock.wallNow))
            rig.air.timerFired()
            whenSettled(tick)
        }
        rig.harness.loop.later {
            rig.air.placesChanged(rig.places)
            whenSettled(tick)
        }
        XCTAssertTrue(try rig.harness.run(timeout: 120), "the day never ended")
        rig.air.settled = {}  // the closures hold the rig: let it go, and its server stop
        return counts
    }

    func testADay_costsWhatTheSchedulingDocsSay_inOpenMeteosCalls() throws {
        let rig = try rig()
        let paris = LocationID("paris-fr")
        let counts = try runSchedule(rig, for: 86400 - 2)
        let requests = try rig.server.count("/v1/air-quality")
        XCTAssertEqual(requests, counts.values.reduce(0, +))
        let selected = counts[rig.places.selectedID ?? paris] ?? 0
        XCTAssertTrue((22...24).contains(selected), "\(counts)")
        for (id, count) in counts where id != rig.places.selectedID {
            XCTAssertEqual(count, 8, "\(id): every 3 hours, jittered")
        }
        let usage = rig.refresher.budgetUsage(now: rig.clock.wallNow)
        let forecasts = try rig.server.count("/v1/forecast")
        // Paris and Oslo (pollen) 1.9 calls a request, New York (US index, no pollen) 1.3.
        let newYork = counts.first { $0.key.rawValue.hasPrefix("new-york") }?.value ?? 0
        let expectedAir = Double(requests - newYork) * 1.9 + Double(newYork) * 1.3
        XCTAssertEqual(usage.callsToday, Double(forecasts) * 3.1 + expectedAir, accuracy: 1e-6)
        XCTAssertEqual(usage.requestsToday, forecasts + requests)
        print(
            "air figures: \(counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); "
                + "\(requests) air requests = \(expectedAir) calls; \(forecasts) forecast requests")
        // Every place has its air, validated, in the store and in the cache.
        for location in rig.places.locations {
            let air = rig.store.air(of: location.id)
            XCTAssertNotNil(air, "\(location.id)")
            // The answer served is on the European index; New York asks for the US one, which it lacks.
            XCTAssertEqual(air?.aqi, location.countryCode == "US" ? nil : 74, "\(location.id)")
            XCTAssertTrue(
                FileManager.default.fileExists(
                    atPath: DaemonPaths.userInstance(under: rig.directory.path).cacheDirectory
                        + "/air/\(location.id.rawValue).json"), "\(location.id)")
        }
    }

    func testABudgetKeptForTheForecasts_defersTheAir_untilItRenews() throws {
        // 3 places: 48 + 2 × 16 = 80 forecast requests a day, 248 calls kept back of 249.
        let rig = try rig(dailyBudget: 249)
        let counts = try runSchedule(rig, for: 3600)
        XCTAssertEqual(try rig.server.count("/v1/air-quality"), 0, "\(counts)")
        for location in rig.places.locations {
            XCTAssertGreaterThanOrEqual(
                rig.air.schedule.places[location.id]?.due ?? 0, BudgetUsage.dayStart(Self.start) + 86400)
        }
    }
}
