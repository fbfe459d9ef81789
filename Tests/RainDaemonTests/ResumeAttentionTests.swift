import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A "became active" moment (a resume, the network back) refetches only the
/// stale places a person looks at — the selected one, and those a client
/// asked for within the hour — through the real refresher, libcurl and
/// the fixture server on loopback, with the tests' clock; the others keep
/// their schedule.
final class ResumeAttentionTests: XCTestCase {
    func testBecomingActive_refetchesOnlyThePlacesLookedAt() throws {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "paris.json": try Fixtures.bytes(
                    "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: 1_800_014_400)
            ],
            routes: ["/v1/forecast": "paris.json"])
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-resume-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        configuration.staleAfterMinutes = 15
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "resume-test", threshold: .error)
        let clock = FakeClock(wall: 1_800_014_400)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        func add(_ name: String, _ latitude: Double, _ longitude: Double, id: Int) -> LocationID {
            places.add(
                PlaceCandidate(
                    name: name, countryCode: "FR", latitude: latitude, longitude: longitude,
                    timeZone: "Europe/Paris", source: .geonames(id: id))
            ).location.id
        }
        let paris = add("Paris", 48.8534, 2.3488, id: 2_988_507)
        let versailles = add("Versailles", 48.8048, 2.1203, id: 2_969_679)
        let lyon = add("Lyon", 45.7485, 4.8467, id: 2_996_944)
        XCTAssertEqual(places.selectedID, paris)
        let events = DaemonEvents()
        let refresher = try Refresher(
            context: context, source: WeatherSource(configuration: configuration, credentialsDirectory: nil),
            http: harness.http,
            store: ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger)),
            events: events, places: places, settings: Settings(units: .si))
        refresher.restore()
        func requests() -> Int { (try? server.count("/v1/forecast")) ?? -1 }
        // The places a refresh started and not yet answered, from the refresher's own events.
        var pending: Set<LocationID> = []
        var resumed = false
        let recorder = EventRecorder(events) { event in
            switch event {
            case .refreshStarted(let ids): pending.formUnion(ids)
            case .weatherUpdated(let id, _), .refreshFailed(let id, _):
                pending.remove(id)
                if pending.isEmpty, resumed { harness.finish() }
            default: break
            }
        }
        var first = 0
        // An sd-event loop runs once: the resume follows the first refresh inside it.
        refresher.refresh([paris, versailles, lyon]) { _ in
            first = requests()
            // Asleep 16 minutes: every place is stale; a client asked for Lyon by name.
            clock.advance(16 * 60)
            refresher.lookedAt(lyon)
            harness.loop.later {
                resumed = true
                refresher.refreshIfStale(reason: "resumed from suspend")
                if pending.isEmpty { harness.finish() }
            }
        }
        XCTAssertTrue(try harness.run(timeout: 20), "never answered")
        XCTAssertEqual(first, 3)
        XCTAssertEqual(requests(), 5, "Paris (selected) and Lyon (asked for), not Versailles")
        XCTAssertEqual(refresher.forecast(for: versailles)?.stale, true, "Versailles waits for its schedule")
        XCTAssertEqual(refresher.forecast(for: lyon)?.stale, false)
        XCTAssertEqual(refresher.forecast(for: paris)?.stale, false)
        refresher.cancelAll()
        withExtendedLifetime(recorder) {}
    }
}
