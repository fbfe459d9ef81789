import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// GetStatus's reply is kept between changes (`StatusVersion`): whatever
/// changes, and whenever, the reply written must be the one a fresh
/// encoding of the status gives at that moment. A real service, refresher,
/// loop and HTTP client against the fixture server; a test clock.
final class StatusReplyTests: XCTestCase {
    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let service: WeatherService
        let refresher: Refresher
        let directory: URL
    }

    /// 00:00 UTC, 2027-01-16.
    private let midnight: Double = 1_800_057_600

    /// `answer`: what the fixture server answers a forecast request with.
    private func rig(wall: Double, answer: [UInt8]? = nil) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: ["paris.json": try answer ?? Fixtures.bytes("openmeteo-forecast-paris-unixtime.json")],
            routes: ["/v1/forecast": "paris.json"])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-status-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var configuration = Configuration()
        // One provider: these tests are about the status reply, not failover.
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        try FileManager.default.createDirectory(atPath: paths.stateDirectory, withIntermediateDirectories: true)
        let logger = Logger(subsystem: "status-test", threshold: .warning)
        let clock = FakeClock(wall: wall)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        _ = places.add(
            PlaceCandidate(
                name: "Paris", countryCode: "FR", latitude: 48.8534, longitude: 2.3488, timeZone: "Europe/Paris",
                source: .geonames(id: 2_988_507)))
        let state = PersistentState(places: places, settings: Settings(units: .si))
        let events = DaemonEvents()
        let forecasts = ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger))
        let refresher = try Refresher(
            context: context, source: WeatherSource(configuration: configuration, credentialsDirectory: nil),
            http: harness.http, store: forecasts, events: events, places: places, settings: state.settings)
        events.connect(EventParts(refresher: refresher))
        refresher.restore()
        let publisher = Publisher(
            maximumQueuedBytes: 1 << 20, forecasts: forecasts, clock: clock, events: events, logger: logger)
        let service = WeatherService(
            context: context, places: PlaceLookup(loop: harness.loop, environment: [:], logger: logger),
            geocoder: OnlineGeocoder(http: harness.http, logger: logger),
            geoclue: GeoClueClient(loop: harness.loop, logger: logger), refresher: refresher, state: state,
            store: StateStore(path: paths.stateFile), publisher: publisher, events: events)
        return Rig(
            harness: harness, server: server, clock: clock, service: service, refresher: refresher,
            directory: directory)
    }

    /// The reply as GetStatus writes it.
    private func reply(_ rig: Rig) -> String {
        var bytes: [UInt8] = []
        rig.service.writeStatusReply(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The status encoded anew, at the same moment.
    private func fresh(_ rig: Rig) -> String {
        var bytes: [UInt8] = []
        VarlinkFramer.frameReply(GetStatusCall.Reply(status: rig.service.status()), into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func status(_ text: String) throws -> JSON {
        try XCTUnwrap(try JSON(parsing: Array(text.utf8.dropLast()))["parameters"]?["status"])
    }

    /// Runs a person's refresh of every place to its end.
    private func refresh(_ rig: Rig) throws {
        var answered = false
        rig.refresher.refresh(rig.service.state.places.locations.map(\.id)) { _ in
            answered = true
            rig.harness.finish()
        }
        if !answered { XCTAssertTrue(try rig.harness.run(timeout: 10), "the refresh never answered") }
    }

    func testReply_withinASecond_isKept_withItsUptimeWrittenIn() throws {
        let rig = try rig(wall: midnight - 3600.75)
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        let first = reply(rig)
        XCTAssertEqual(first, fresh(rig))
        let version = try XCTUnwrap(rig.service.statusReplyCache?.version)
        rig.clock.advance(0.5)
        let second = reply(rig)
        XCTAssertEqual(second, fresh(rig))
        XCTAssertEqual(rig.service.statusReplyCache?.version, version, "answering GetStatus changes nothing it counts")
        XCTAssertEqual(try status(second)["uptimeSeconds"], .number(0.5))
        XCTAssertEqual(try status(first)["uptimeSeconds"], .number(0))
    }

    /// A burst of subscribers: the first one's coming moves the version (its
    /// watchingChanged) but not the status. The snapshot found to match is
    /// kept at the new version, so the next subscriber builds no status.
    func testSnapshot_foundToMatchAfterAChange_isKeptAtTheNewVersion() throws {
        let rig = try rig(wall: midnight - 3600.75)
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        var first: [UInt8] = []
        rig.service.snapshotWriter()(&first)
        let built = try XCTUnwrap(rig.service.snapshotCache)
        // An event no part of this rig acts on: the version moves, the status does not.
        rig.service.events.emit(.published(.reachabilityChanged(online: true)))
        XCTAssertNotEqual(rig.service.statusVersion(now: rig.refresher.now), built.version)
        var second: [UInt8] = []
        rig.service.snapshotWriter()(&second)
        XCTAssertEqual(second, first)
        let kept = try XCTUnwrap(rig.service.snapshotCache)
        XCTAssertTrue(kept.reply === built.reply, "the matching reply is reused")
        XCTAssertEqual(
            kept.version, rig.service.statusVersion(now: rig.refresher.now), "and kept at the version it matched")
    }

    func testReply_followsAChangeOfState_aBudgetAndTheNextSecond() throws {
        let rig = try rig(wall: midnight - 3600.25)
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        XCTAssertEqual(reply(rig), fresh(rig))

        var next = rig.service.state
        next.settings.units = .us
        try rig.service.commit(next, events: [.settingsChanged(next.settings)])
        let changed = reply(rig)
        XCTAssertEqual(changed, fresh(rig))
        XCTAssertEqual(try status(changed)["units"], .string("us"))

        try refresh(rig)
        let refreshed = reply(rig)
        XCTAssertEqual(refreshed, fresh(rig))
        XCTAssertEqual(try status(refreshed)["requestsToday"], .number(1))
        XCTAssertNotEqual(try status(refreshed)["lastRefresh"], .null)

        rig.clock.advance(1)
        XCTAssertEqual(reply(rig), fresh(rig))
    }

    /// The day's budget renews at 00:00 UTC with no event: the reply of the
    /// second before counts the day's request, the reply of the first
    /// second of the next day does not.
    func testReply_atMidnight_countsTheNewDay() throws {
        let rig = try rig(wall: midnight - 0.75)
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        try refresh(rig)
        let before = reply(rig)
        XCTAssertEqual(before, fresh(rig))
        XCTAssertEqual(try status(before)["requestsToday"], .number(1))
        rig.clock.advance(0.5)
        XCTAssertEqual(reply(rig), fresh(rig), "still 23:59:59")
        rig.clock.advance(0.5)
        let after = reply(rig)
        XCTAssertEqual(after, fresh(rig))
        XCTAssertEqual(try status(after)["requestsToday"], .number(0))
        XCTAssertEqual(try status(after)["requestsThisMonth"], .number(1), "the month goes on")
    }

    /// A clock set back is followed at the next call, as the refresher follows it.
    func testReply_afterTheWallClockIsSetBack_isTheFreshOne() throws {
        let rig = try rig(wall: midnight + 0.5)
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        try refresh(rig)
        XCTAssertEqual(try status(reply(rig))["requestsToday"], .number(1))
        // Set back across midnight: yesterday's budget, as counted before, is not today's.
        rig.clock.wallNow -= 3600
        let setBack = reply(rig)
        XCTAssertEqual(setBack, fresh(rig))
        XCTAssertEqual(try status(setBack)["requestsToday"], .number(0))
    }

    /// Rain-soon notifications turned on start the nowcast's short refreshes:
    /// the refresher's own change, with no event, shows in the next reply.
    func testReply_showsTheRefreshersOwnChanges() throws {
        let origin = NowcastRefresherTests.origin
        let rig = try rig(
            wall: origin + 60, answer: Array(NowcastRefresherTests.body(quarter: 0, plan: .dry).utf8))
        defer { try? FileManager.default.removeItem(at: rig.directory) }
        try refresh(rig)
        let before = reply(rig)
        XCTAssertEqual(try status(before)["nowcast"]?["active"], .bool(false))
        let emitted = rig.service.events.emitted
        rig.refresher.notificationsWantNowcast = true
        XCTAssertEqual(rig.service.events.emitted, emitted, "no event tells of it")
        let after = reply(rig)
        XCTAssertEqual(after, fresh(rig))
        XCTAssertEqual(try status(after)["nowcast"]?["active"], .bool(true))
        XCTAssertNotEqual(try status(after)["nextRefresh"], try status(before)["nextRefresh"])
    }
}
