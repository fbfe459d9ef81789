import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A new place's first scores from history (docs/ACCURACY.md, "Backfill"),
/// through the real loop, libcurl and the fixture server on loopback, with
/// the tests' clock: Orlando, verified by Orlando International (KMCO),
/// whose made week of reports the METAR source serves, and Open-Meteo's
/// made Previous Runs answer, 1 °C too warm at +24 h and 2 °C off at +48 h
/// (1 °C too cold on even hours, 3 °C too warm on odd ones).
final class BackfillTests: XCTestCase {
    /// 2026-07-21T21:01Z: a minute into the hour of KMCO's last made report (20:53).
    static let now = 1_784_667_660.0
    static let orlando = (latitude: 28.5383, longitude: -81.3792)

    private var directory: URL!
    private var servers: [FixtureServer] = []

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-backfill-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let refresher: Refresher
        let watcher: ObservationWatcher
        let keeper: AccuracyKeeper
        let paths: DaemonPaths
        let location: Location
    }

    /// raind with one place; `previousRuns` is what the archive answers,
    /// `archiveURL` where it is asked (nil: the fixture server's `/prev`).
    private func rig(
        latitude: Double = orlando.latitude, longitude: Double = orlando.longitude,
        previousRuns: [UInt8]? = nil, archiveURL: String? = nil
    ) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "metar.json": try Fixtures.bytes("observations/aviationweather-metar-json-kmco-168-hours-made.json"),
                "prev.json": try previousRuns ?? Fixtures.bytes("openmeteo-previous-runs-orlando-made.json"),
            ],
            routes: ["/api/data/metar": "metar.json", "/prev/v1/forecast": "prev.json"])
        servers.append(server)
        var configuration = Configuration()
        configuration.providerOrder = [.openMeteo, .metNorway]
        configuration.baseURL = server.url("")
        configuration.observationsBaseURL = server.url("")
        configuration.accuracyBaseURL = archiveURL ?? server.url("/prev")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "backfill-test", threshold: .error)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger,
            clock: FakeClock(wall: Self.now))
        var list = LocationList()
        let added = list.add(
            PlaceCandidate(
                name: "Orlando", region: "Florida", country: "United States", countryCode: "US", latitude: latitude,
                longitude: longitude, timeZone: "America/New_York", source: .coordinates))
        let parts = try AccuracyParts(context: context, http: harness.http, places: list)
        let (refresher, watcher, keeper) = (parts.refresher, parts.watcher, parts.keeper)
        return Rig(
            harness: harness, server: server, refresher: refresher, watcher: watcher, keeper: keeper, paths: paths,
            location: added.location)
    }

    /// The first poll round: the station searched for and polled, and the
    /// backfill it starts settled (or none started).
    private func firstRound(_ rig: Rig) throws {
        var started = false
        rig.watcher.settled = {
            guard rig.watcher.isIdle else { return }
            if rig.keeper.backfilling.isEmpty, !started {
                rig.harness.loop.later { rig.harness.finish() }
            }
        }
        rig.keeper.backfillSettled = { _ in
            started = true
            rig.harness.loop.later { rig.harness.finish() }
        }
        rig.harness.loop.later { rig.watcher.timerFired() }
        XCTAssertTrue(try rig.harness.run(timeout: 60), "the first round never ended")
        XCTAssertEqual(rig.keeper.backfilling.count, 0)
    }

    private func openMeteoCallsToday(_ rig: Rig) -> Double {
        rig.refresher.providerStatuses.first { $0.name == "open-meteo" }?.callsToday ?? -1
    }

    /// What the place's forecast refreshes (at start, from the fixture server) counted.
    private func forecastCalls(_ rig: Rig) throws -> Double {
        Double(try rig.server.countTargets("/v1/forecast?")) * OpenMeteo.callsPerRequest
    }

    func testNewPlace_getsBackfilledScores_markedAsSuch_withinTheFirstPollRound() throws {
        let rig = try rig()
        try firstRound(rig)
        let accuracy = rig.keeper.accuracy(of: rig.location)
        XCTAssertEqual(accuracy.station?.id, "KMCO")
        let backfill = try XCTUnwrap(accuracy.backfill, "no backfill")
        XCTAssertNil(backfill.problem)
        XCTAssertEqual(backfill.provider, "open-meteo")
        XCTAssertEqual(backfill.at, Self.now)
        // 2026-07-14T00:00Z to 21:00Z a week later: 190 hours at each of the two leads.
        XCTAssertEqual(backfill.samples, 2 * 190)
        // A week of reports, less the hour the first poll kept already.
        XCTAssertEqual(backfill.observedHours, 167)

        XCTAssertEqual(accuracy.scores.map(\.leadHours), [24, 48], "no +6 h: the archive has no such run")
        let day = try XCTUnwrap(accuracy.scores.first { $0.leadHours == 24 })
        XCTAssertEqual(day.provider, "open-meteo")
        XCTAssertEqual(day.temperaturePairs, 168)
        XCTAssertEqual(day.backfilledPairs, day.pairs)
        XCTAssertEqual(try XCTUnwrap(day.temperatureError), 1, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(day.temperatureBias), 1, accuracy: 1e-6)
        XCTAssertEqual(day.rainHitRate, 1, "rain forecast exactly when it rained")
        XCTAssertEqual(day.rainFalseAlarmRate, 0)
        XCTAssertEqual(try XCTUnwrap(day.windError), 1, accuracy: 0.01)
        let twoDays = try XCTUnwrap(accuracy.scores.first { $0.leadHours == 48 })
        XCTAssertEqual(try XCTUnwrap(twoDays.temperatureError), 2, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(twoDays.temperatureBias), 1, accuracy: 1e-6)
        XCTAssertEqual(twoDays.rainHitRate, 0, "+48 h forecast no rain")

        // One request each, counted: the archive in Open-Meteo's book, the history in METAR's.
        XCTAssertEqual(try rig.server.countTargets("/prev/v1/forecast?"), 1)
        XCTAssertEqual(try rig.server.countTargets("/api/data/metar?ids=KMCO&format=json&hours=168"), 1)
        XCTAssertEqual(
            openMeteoCallsToday(rig) - (try forecastCalls(rig)), 1, accuracy: 1e-9,
            "six variables over eight days: one call")
        let metar = try XCTUnwrap(rig.watcher.sourceStatuses(now: Self.now).first { $0.name == "metar" })
        XCTAssertEqual(metar.requestsToday, 3, "the box, the poll and the history")

        // Kept at once, marked in the file; raind started again does not ask again.
        let files = AccuracyFiles(stateDirectory: rig.paths.stateDirectory)
        guard case .loaded(let record) = files.load(rig.location.id, now: Self.now) else {
            return XCTFail("the accuracy file does not read back")
        }
        XCTAssertEqual(record.backfill, backfill)
        XCTAssertEqual(record.samples.filter { $0.backfilled == true }.count, 380)
        rig.keeper.cancelAll()
        let again = try self.rig()
        try firstRound(again)
        XCTAssertEqual(try again.server.countTargets("/prev/"), 0, "done once per place")
        XCTAssertEqual(try again.server.countTargets("/api/data/metar?ids=KMCO&format=json&hours="), 0)
        XCTAssertEqual(again.keeper.accuracy(of: again.location).backfill, backfill)
    }

    func testPlaceWithNoStation_asksNothing() throws {
        // Miami: 300 km from Orlando, the only airport the made answers know.
        let rig = try rig(latitude: 25.76, longitude: -80.19)
        try firstRound(rig)
        let accuracy = rig.keeper.accuracy(of: rig.location)
        XCTAssertNil(accuracy.station)
        XCTAssertNil(accuracy.backfill)
        XCTAssertEqual(try rig.server.countTargets("/prev/"), 0)
        XCTAssertEqual(try rig.server.countTargets("/api/data/metar?ids="), 0)
        XCTAssertEqual(openMeteoCallsToday(rig), try forecastCalls(rig), accuracy: 1e-9)
    }

    func testDamagedArchiveAnswer_saysWhy_andKeepsNothingOfIt() throws {
        var text = String(
            decoding: try Fixtures.bytes("openmeteo-previous-runs-orlando-made.json"), as: UTF8.self)
        let marker = "\"temperature_2m_previous_day1\": [\n"
        let range = try XCTUnwrap(text.range(of: marker))
        text.insert(contentsOf: "  900.0,\n", at: range.upperBound)
        let rig = try rig(previousRuns: Array(text.utf8))
        try firstRound(rig)
        let accuracy = rig.keeper.accuracy(of: rig.location)
        let backfill = try XCTUnwrap(accuracy.backfill)
        let problem = try XCTUnwrap(backfill.problem)
        XCTAssertTrue(problem.contains("hourly.temperature_2m_previous_day1"), problem)
        XCTAssertEqual(backfill.samples, 0)
        XCTAssertEqual(accuracy.scores, [])
        let record = try XCTUnwrap(rig.keeper.records[rig.location.id])
        XCTAssertEqual(record.samples.filter { $0.backfilled == true }, [])
        XCTAssertEqual(record.observed.count, 1, "the poll's hour only: nothing of the backfill")
        XCTAssertEqual(openMeteoCallsToday(rig) - (try forecastCalls(rig)), 1, accuracy: 1e-9, "it reached Open-Meteo")
    }

    func testArchiveNeverReached_isGivenBack_andTriedAgainLater() throws {
        // Nothing listens on port 9 of loopback: the request never reaches a server.
        let rig = try rig(archiveURL: "http://127.0.0.1:9")
        var attempts = 0
        var retried = false
        var givenBack: Double?
        var doneAfterFirst: AccuracyBackfill?
        let id = rig.location.id
        // After the first attempt has settled: the place's next comparison
        // round, with the archive reachable; the loop ends when that settles.
        func retryWhenIdle() {
            guard attempts == 1, !retried, rig.watcher.isIdle, rig.keeper.backfilling.isEmpty else { return }
            retried = true
            doneAfterFirst = rig.keeper.accuracy(of: rig.location).backfill
            givenBack = openMeteoCallsToday(rig) - ((try? forecastCalls(rig)) ?? .nan)
            rig.refresher.context.configuration.accuracyBaseURL = rig.server.url("/prev")
            rig.keeper.nextComparison[id] = Self.now
            rig.harness.loop.later { rig.keeper.timerFired() }
        }
        rig.watcher.settled = { retryWhenIdle() }
        rig.keeper.backfillSettled = { _ in
            attempts += 1
            if attempts == 2 { return rig.harness.loop.later { rig.harness.finish() } }
            retryWhenIdle()
        }
        rig.harness.loop.later { rig.watcher.timerFired() }
        XCTAssertTrue(try rig.harness.run(timeout: 60), "the two attempts never ended")
        XCTAssertNil(doneAfterFirst, "not done after the first")
        XCTAssertEqual(try XCTUnwrap(givenBack), 0, accuracy: 1e-9, "given back")
        XCTAssertEqual(rig.keeper.accuracy(of: rig.location).backfill?.samples, 380)
        XCTAssertEqual(try rig.server.countTargets("/prev/"), 1)
    }
}
