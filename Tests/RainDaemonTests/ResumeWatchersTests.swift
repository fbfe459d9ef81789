import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// After a sleep, the official alerts and the air follow the forecasts'
/// rule (`PlaceAttention`): of the polls that fell due while the machine
/// slept, those of the selected place and of places a client asked for
/// within the hour go out at once; the others are spread over their
/// interval. Through the real loop, libcurl and the fixture server on
/// loopback, with the tests' clock; the watchers read the refresher's
/// attention as `Daemon.init` wires them.
final class ResumeWatchersTests: XCTestCase {
    /// 2027-01-15 00:00 UTC.
    static let start = 1_799_971_200.0

    private func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    func testAfterASleep_alertsPollAtOnceOnlyThePlacesLookedAt_andSpreadTheOthers() throws {
        let harness = try ClientHarness()
        let server = try AlertParts.quietServices()
        defer { server.stop() }
        var places = LocationList()
        let cities = AlertParts.threeCities(&places)
        let (paris, portland, berlin) = (cities[0].id, cities[1].id, cities[2].id)
        XCTAssertEqual(places.selectedID, paris)
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "resume-alerts")
        defer { parts.remove() }
        let (clock, refresher, watcher) = (parts.clock, parts.refresher, parts.watcher)
        // Calm forecasts for two days: every place is at the calm pace.
        parts.keepForecasts(for: cities, from: Self.start)
        watcher.attention = { [weak refresher] in refresher?.placesLookedAt() }
        watcher.restore(places.locations)
        func counts() throws -> [String: Int] {
            let nws = try server.count("/alerts/active")
            return ["nws": nws, "meteoalarm": try server.count("/feeds/"), "dwd": try server.count("/alerts") - nws]
        }
        /// Fires the watcher's timer at the clock's time and goes on once every poll is answered.
        func fire(then next: @escaping () -> Void) {
            watcher.recorded = { _ in
                guard watcher.isIdle else { return }
                watcher.recorded = { _ in }
                harness.loop.later(next)
            }
            watcher.timerFired()
            if watcher.isIdle {
                watcher.recorded = { _ in }
                harness.loop.later(next)
            }
        }
        var first: [String: Int] = [:]
        var resumed: [String: Int] = [:]
        var portlandDue = 0.0
        var wokeAt = 0.0
        var portlandPace: AlertPace?
        /// After the resume: wake to wake until every poll spread has gone out.
        func wake(until end: Double) {
            guard let next = watcher.nextWake, next < end else { return harness.finish() }
            clock.advance(max(0, next - clock.wallNow))
            fire { wake(until: end) }
        }
        harness.loop.later {
            fire {
                first = (try? counts()) ?? [:]
                // Asleep two hours: every place's poll fell due; a client asked for Berlin by name.
                clock.advance(2 * 3600)
                wokeAt = clock.wallNow
                refresher.lookedAt(berlin)
                fire {
                    resumed = (try? counts()) ?? [:]
                    portlandDue = watcher.watches[portland]?.nextPoll ?? 0
                    portlandPace = watcher.pace(of: portland, at: clock.wallNow)
                    wake(until: portlandDue + 1)
                }
            }
        }
        XCTAssertTrue(try harness.run(timeout: 60), "never answered")
        XCTAssertEqual(first, ["nws": 1, "meteoalarm": 1, "dwd": 1])
        XCTAssertEqual(
            resumed, ["nws": 1, "meteoalarm": 2, "dwd": 2], "Paris (selected) and Berlin (asked for) at once")
        XCTAssertGreaterThan(portlandDue, wokeAt, "Portland's poll is spread, not at once")
        XCTAssertEqual(portlandPace?.reason, .calm)
        XCTAssertLessThanOrEqual(portlandDue, wokeAt + (portlandPace?.pollingSeconds ?? 0), "within its calm interval")
        XCTAssertEqual(try counts()["nws"], 2, "Portland asked once, when its spread time came")
        watcher.cancelAll()
        refresher.cancelAll()
    }

    func testAfterASleep_theAirAsksAtOnceOnlyThePlacesLookedAt_andSpreadsTheOthers() throws {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "om.json": try Fixtures.bytes(
                    "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: Self.start),
                "air.json": try Fixtures.bytes("openmeteo-airquality-paris-poor.json"),
            ],
            routes: ["/v1/forecast": "om.json", "/v1/air-quality": "air.json"])
        defer { server.stop() }
        let directory = try temporaryDirectory("resume-air")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        configuration.airBaseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "resume-air-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        var ids: [LocationID] = []
        for (name, latitude, longitude, id) in [
            ("Paris", 48.8534, 2.3488, 2_988_507), ("Versailles", 48.8048, 2.1203, 2_969_679),
            ("Lyon", 45.7485, 4.8467, 2_996_944),
        ] {
            ids.append(
                places.add(
                    PlaceCandidate(
                        name: name, countryCode: "FR", latitude: latitude, longitude: longitude,
                        timeZone: "Europe/Paris", source: .geonames(id: id))
                ).location.id)
        }
        let (paris, versailles, lyon) = (ids[0], ids[1], ids[2])
        XCTAssertEqual(places.selectedID, paris)
        let parts = try AirParts(context: context, http: harness.http, places: places)
        let air = parts.air
        air.attention = { [weak refresher = parts.refresher] in refresher?.placesLookedAt() }
        func requests() -> Int { (try? server.count("/v1/air-quality")) ?? -1 }
        /// Goes on once every request under way is answered.
        func whenSettled(_ next: @escaping () -> Void) {
            var pending = air.schedule.places.filter(\.value.inFlight).count
            guard pending > 0 else { return harness.loop.later(next) }
            air.settled = {
                pending -= 1
                if pending == 0 { harness.loop.later(next) }
            }
        }
        var first = 0
        var resumed = 0
        var wokeAt = 0.0
        var versaillesDue = 0.0
        var atItsTime = 0
        var versaillesAsked: Double?
        harness.loop.later {
            air.placesChanged(places)
            whenSettled {
                first = requests()
                // Asleep four hours: every place is due; a client asked for Lyon by name.
                clock.advance(4 * 3600)
                wokeAt = clock.wallNow
                parts.refresher.lookedAt(lyon)
                air.timerFired()
                whenSettled {
                    resumed = requests()
                    versaillesDue = air.schedule.places[versailles]?.due ?? 0
                    clock.advance(max(0, versaillesDue - clock.wallNow))
                    air.timerFired()
                    whenSettled {
                        atItsTime = requests()
                        versaillesAsked = air.schedule.places[versailles]?.lastSuccess
                        harness.finish()
                    }
                }
            }
        }
        XCTAssertTrue(try harness.run(timeout: 60), "never answered")
        air.settled = {}
        XCTAssertEqual(first, 3)
        XCTAssertEqual(resumed, 5, "Paris (selected) and Lyon (asked for), not Versailles")
        XCTAssertGreaterThan(versaillesDue, wokeAt, "Versailles is spread, not asked at once")
        XCTAssertLessThanOrEqual(versaillesDue, wokeAt + air.schedule.interval(selected: false))
        XCTAssertGreaterThan(atItsTime, resumed)
        XCTAssertEqual(versaillesAsked, versaillesDue, "Versailles asked when its spread time came")
        air.cancelAll()
        parts.refresher.cancelAll()
    }
}
