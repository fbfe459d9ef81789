import Foundation
import RainCore
import RainDaemonCore
import XCTest

@testable import RainDaemon

/// The nowcast in the refresher, in process: the real loop, libcurl and the
/// fixture server on loopback, a fake clock moved a quarter hour at a time
/// through one rain episode. `NowcastChanged` comes when the outlook changes
/// materially and not on a refresh that brings the same outlook; the selected
/// place refreshes on the short interval only while someone can use it.
final class NowcastRefresherTests: XCTestCase {
    /// A quarter-hour boundary; the fake clock starts a minute after it.
    static let origin = 1_800_000_000.0

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let events: DaemonEvents
        let directory: URL
        let id: LocationID
    }

    /// `headers`: added by the fixture server to every answer.
    private func rig(headers: [String] = []) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: ["nowcast.json": Array(Self.body(quarter: 0, plan: .dry).utf8)],
            routes: ["/v1/forecast": "nowcast.json"], headers: headers)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-nowcast-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        // One provider: these tests are about one provider's answers, not failover.
        configuration.provider = .openMeteo
        configuration.baseURL = server.url("")
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "nowcast-test", threshold: .warning)
        let clock = FakeClock(wall: Self.origin + 60)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        let place = places.add(
            PlaceCandidate(
                name: "Paris", countryCode: "FR", latitude: 48.8534, longitude: 2.3488, timeZone: "Europe/Paris",
                source: .geonames(id: 2_988_507)))
        let events = DaemonEvents()
        let refresher = try Refresher(
            context: context, source: WeatherSource(configuration: configuration, credentialsDirectory: nil),
            http: harness.http,
            store: ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger)),
            events: events, places: places, settings: Settings(units: .si))
        refresher.restore()
        return Rig(
            harness: harness, server: server, clock: clock, refresher: refresher, events: events,
            directory: directory, id: place.location.id)
    }

    /// What the provider forecasts for the quarter hours around the test.
    enum Plan {
        case dry
        /// Light rain (1.2 mm/h) in quarters 4, 5 and 6.
        case lightRain
        /// As light, but quarters 5 and 6 heavy (10 mm/h).
        case heavier
    }

    static func rate(_ plan: Plan, quarter: Int) -> Double {
        switch plan {
        case .dry: return 0
        case .lightRain: return (4...6).contains(quarter) ? 1.2 : 0
        case .heavier: return quarter == 4 ? 1.2 : (5...6).contains(quarter) ? 10 : 0
        }
    }

    /// An Open-Meteo answer from the current quarter: ten `minutely_15` rows,
    /// each the millimetres of the quarter hour before it.
    static func body(quarter: Int, plan: Plan) -> String {
        let rows = (0..<10).map { quarter + $0 }
        let times = rows.map { String(Int(origin) + 900 * $0) }
        let sums = rows.map { String(rate(plan, quarter: $0 - 1) / 4) }
        return """
            {"utc_offset_seconds": 0, "timezone": "UTC",
             "current": {"time": \(times[0]), "temperature_2m": 12},
             "minutely_15_units": {"time": "unixtime", "precipitation": "mm"},
             "minutely_15": {"time": [\(times.joined(separator: ","))], "precipitation": [\(sums.joined(separator: ","))]}}
            """
    }

    /// Runs `steps` one after the other, each a refresh after its setup, in
    /// one run of the loop (an sd-event loop runs once).
    private func run(_ rig: Rig, _ steps: [() throws -> Void], after last: @escaping () -> Void = {}) throws {
        var failure: Error?
        func step(_ index: Int) {
            guard index < steps.count, failure == nil else {
                last()
                rig.harness.finish()
                return
            }
            do {
                try steps[index]()
            } catch {
                failure = error
                rig.harness.finish()
                return
            }
            rig.refresher.refresh([rig.id]) { results in
                XCTAssertEqual(results[rig.id] ?? nil, nil, "refresh \(index) failed")
                step(index + 1)
            }
        }
        step(0)
        XCTAssertTrue(try rig.harness.run(timeout: 30), "the refreshes never answered")
        if let failure { throw failure }
    }

    private func serve(_ rig: Rig, _ body: String) throws {
        try Data(body.utf8).write(to: rig.server.directory.appendingPathComponent("nowcast.json"))
    }

    func testARainEpisode_publishesNowcastChangedOnlyWhenTheOutlookChanges() throws {
        let rig = try rig()
        defer {
            rig.server.stop()
            try? FileManager.default.removeItem(at: rig.directory)
        }
        var transcript: [String] = []
        var changes: [(quarter: Int, change: NowcastChange, summary: String?)] = []
        var quarter = 0
        // The observer holds the clock, not the rig.
        let clock = rig.clock
        let recorder = EventRecorder(rig.events) { event in
            let minutes = Int((clock.wallNow - Self.origin) / 60)
            let stamp = String(format: "+%03d min", minutes)
            switch event {
            case .weatherUpdated(_, let forecast):
                transcript.append("\(stamp) WeatherUpdated   nowcast: \(forecast.nowcast?.summary ?? "none")")
            case .nowcastChanged(_, let nowcast, let change):
                changes.append((quarter, change, nowcast?.summary))
                let reasons = change.reasons.map(\.rawValue).joined(separator: ",")
                transcript.append(
                    "\(stamp) NowcastChanged   \(nowcast?.summary ?? "none") [\(reasons)\(change.newEpisode ? ", new episode" : "")]"
                )
            default:
                break
            }
        }
        defer { withExtendedLifetime(recorder) {} }
        let plans: [Plan] = [.dry, .dry, .lightRain, .lightRain, .lightRain, .heavier, .heavier, .heavier]
        try run(
            rig,
            plans.enumerated().map { index, plan in
                {
                    quarter = index
                    if index > 0 { rig.clock.advance(900) }
                    try self.serve(rig, Self.body(quarter: index, plan: plan))
                }
            })
        print(
            "Rain episode, one refresh a quarter hour (Open-Meteo minutely_15, fake clock):\n  "
                + transcript.joined(separator: "\n  "))
        XCTAssertEqual(changes.map(\.quarter), [2, 4, 5, 7], "\(transcript)")
        XCTAssertEqual(
            changes.map(\.change.reasons), [[.rainExpected], [.rainStarted], [.intensityChanged], [.rainStopped]])
        XCTAssertEqual(changes.map(\.change.newEpisode), [true, false, false, false], "one episode")
        XCTAssertEqual(changes.first?.summary, "Light rain starting in about 30 min, for about 45 min")
        XCTAssertEqual(changes.last?.summary, "No rain in the next 2 h")
        XCTAssertEqual(rig.refresher.budgetUsage.requestsToday, 8)
    }

    func testAProxysOlderCopy_isPublishedWithItsNowcastAsOfNow() throws {
        let rig = try rig(headers: ["Age: 300"])
        defer {
            rig.server.stop()
            try? FileManager.default.removeItem(at: rig.directory)
        }
        var published: [Forecast] = []
        let recorder = EventRecorder(rig.events) { event in
            if case .weatherUpdated(_, let forecast) = event { published.append(forecast) }
        }
        defer { withExtendedLifetime(recorder) {} }
        try run(rig, [{ try self.serve(rig, Self.body(quarter: 0, plan: .lightRain)) }])
        let forecast = try XCTUnwrap(published.last)
        XCTAssertEqual(forecast.fetchedAt, rig.clock.wallNow - 300, "the copy is as old as its Age")
        XCTAssertEqual(forecast.nowcast?.time, rig.clock.wallNow, "the outlook speaks of now, not of when it was made")
    }

    func testARegularIntervalShorterThanTheNowcasts_isTheIntervalStatusReports() throws {
        let rig = try rig()
        defer {
            rig.server.stop()
            try? FileManager.default.removeItem(at: rig.directory)
        }
        var configuration = Configuration()
        // One provider: these tests are about one provider's answers, not failover.
        configuration.provider = .openMeteo
        configuration.baseURL = rig.server.url("")
        rig.refresher.reconfigure(
            source: WeatherSource(configuration: configuration, credentialsDirectory: nil), refreshMinutes: 10,
            retryRefused: false)
        let status = rig.refresher.nowcastStatus
        XCTAssertEqual(status.intervalMinutes, 10, "every 10 minutes already: the nowcast's 15 would be slower")
        XCTAssertEqual(status.requestsPerDay, 0, "and it adds nothing")
    }

    func testShortRefreshes_runOnlyWhileSomeoneCanUseTheNowcast() throws {
        let rig = try rig()
        defer {
            rig.server.stop()
            try? FileManager.default.removeItem(at: rig.directory)
        }
        var fetched = 0.0
        var checkedShortInterval = false
        try run(
            rig,
            [
                {},
                {
                    fetched = rig.clock.wallNow
                    // Waiters are answered before the timer is set again; the hook sets it.
                    rig.refresher.nowcastDemandChanged()
                    XCTAssertFalse(rig.refresher.nowcastStatus.active, "no subscriber, no notifications")
                    XCTAssertEqual(rig.refresher.nextWake.map { $0 - fetched >= 1800 }, true, "the regular 30 minutes")

                    rig.refresher.notificationsWantNowcast = true
                    let status = rig.refresher.nowcastStatus
                    XCTAssertTrue(status.active)
                    XCTAssertEqual(status.intervalMinutes, 15)
                    XCTAssertEqual(status.requestsPerDay, 48)
                    XCTAssertEqual(status.callsPerDay, 48 * OpenMeteo.callsPerRequest, accuracy: 1e-9)
                    XCTAssertEqual(rig.refresher.nextWake, fetched + 900, "due a quarter hour after the last fetch")

                    rig.refresher.notificationsWantNowcast = false
                    XCTAssertEqual(rig.refresher.nextWake, fetched + 1800)
                    checkedShortInterval = true

                    // A place whose data has no nowcast gains nothing from short refreshes.
                    try self.serve(
                        rig, #"{"utc_offset_seconds": 0, "current": {"time": 1800000000, "temperature_2m": 12}}"#)
                    rig.clock.advance(120)
                },
            ],
            after: {
                rig.refresher.notificationsWantNowcast = true
                XCTAssertFalse(rig.refresher.nowcastStatus.active)
                XCTAssertEqual(rig.refresher.nextWake.map { $0 - rig.clock.wallNow >= 1800 }, true)
            })
        XCTAssertTrue(checkedShortInterval)
    }
}
