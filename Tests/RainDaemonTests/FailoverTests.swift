import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// Failover between providers, in process: the real loop, libcurl and the
/// fixture server on loopback answering as Open-Meteo and MET Norway, with a
/// fake clock. Each way a provider fails sends the place to the next one at
/// once; the first one is asked again when its back-off ends and takes the
/// place back when it answers; an outage costs at most one extra request per
/// failure, and with every provider down requests back off.
final class FailoverTests: XCTestCase {
    /// 2026-03-28 12:30 UTC: inside the MET Norway recording of Oslo, which
    /// the Open-Meteo recording is moved to.
    static let start = 1_774_701_000.0
    static let openMeteoPath = "/v1/forecast"
    static let metNorwayPath = "/weatherapi/"

    private final class Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let directory: URL
        let id: LocationID
        /// Every published event, in order.
        var events: [Event] = []
        var recorder: EventRecorder?
        /// Called when the awaited scheduled refresh ends (WeatherUpdated or RefreshFailed).
        var ended: (() -> Void)?

        init(
            harness: ClientHarness, server: FixtureServer, clock: FakeClock, refresher: Refresher, directory: URL,
            id: LocationID
        ) {
            self.harness = harness
            self.server = server
            self.clock = clock
            self.refresher = refresher
            self.directory = directory
            self.id = id
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A refresher for Oslo asking `order` (Providers=) through the fixture server.
    /// `refreshMinutes`: the person's refresh setting; `openMeteoAt`: when the
    /// Open-Meteo recording is made to have been made.
    private func rig(
        order: [ProviderName] = [.openMeteo, .metNorway], timeoutSeconds: Int = 30, refreshMinutes: Int? = nil,
        openMeteoAt: Double = FailoverTests.start
    ) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "om.json": try Fixtures.bytes(
                    "openmeteo-forecast-paris-unixtime.json", recordedAt: 1_768_466_700, presentAt: openMeteoAt),
                "metno.json": try Fixtures.bytes("metno-forecast-oslo-dst.json"),
            ],
            routes: [Self.openMeteoPath: "om.json", Self.metNorwayPath: "metno.json"])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-failover-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.providerOrder = order
        configuration.baseURL = server.url("")
        configuration.timeoutSeconds = timeoutSeconds
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "failover-test", threshold: .error)
        let clock = FakeClock(wall: Self.start)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var places = LocationList()
        let place = places.add(
            PlaceCandidate(
                name: "Oslo", countryCode: "NO", latitude: 59.91, longitude: 10.75, timeZone: "Europe/Oslo",
                source: .geonames(id: 3_143_244)))
        let events = DaemonEvents()
        let refresher = try Refresher(
            context: context, http: harness.http,
            store: ForecastStore(cache: ForecastCache(directory: paths.cacheDirectory, logger: logger)),
            events: events, places: places, settings: Settings(units: .si, refreshMinutes: refreshMinutes))
        refresher.restore()
        let rig = Rig(
            harness: harness, server: server, clock: clock, refresher: refresher, directory: directory,
            id: place.location.id)
        rig.recorder = EventRecorder(events) { [unowned rig] event in
            rig.events.append(event)
            switch event {
            case .weatherUpdated, .refreshFailed:
                if let ended = rig.ended {
                    rig.ended = nil
                    // After the refresher has finished its bookkeeping for this refresh.
                    rig.harness.loop.later(ended)
                }
            default: break
            }
        }
        return rig
    }

    /// One step of a test, run on the loop; it calls `done` when it has
    /// ended. An sd-event loop runs once, so a test's steps follow each
    /// other inside one run (`run`).
    typealias Step = (_ done: @escaping () -> Void) -> Void

    /// Runs `steps` in order in one run of the loop.
    private func run(_ rig: Rig, _ steps: [Step], timeout: Double = 120) throws {
        var index = 0
        func next() {
            guard index < steps.count else {
                rig.harness.finish()
                return
            }
            let step = steps[index]
            index += 1
            rig.harness.loop.later { step(next) }
        }
        next()
        XCTAssertTrue(try rig.harness.run(timeout: timeout), "the steps never ended (at step \(index))")
    }

    /// A person's refresh of Oslo; `check` gets its failure, nil on success.
    private func refresh(_ rig: Rig, _ check: @escaping (RefreshFailure?) -> Void = { _ in }) -> Step {
        { done in
            rig.refresher.refresh([rig.id]) { results in
                check(results[rig.id] ?? nil)
                done()
            }
        }
    }

    /// What the timer does once the clock has moved `seconds`; when it
    /// starts a refresh, the step ends with it. `check` gets whether it started one.
    private func wake(_ rig: Rig, after seconds: Double = 60, _ check: @escaping (Bool) -> Void = { _ in }) -> Step {
        { done in
            rig.clock.advance(seconds)
            let before = rig.events.count
            rig.ended = {
                check(true)
                done()
            }
            rig.refresher.timerFired()
            let started = rig.events[before...].contains {
                if case .refreshStarted = $0 { return true }
                return false
            }
            if !started {
                rig.ended = nil
                check(false)
                done()
            }
        }
    }

    /// Anything else, at once: a check, a script of the server, the clock.
    private func act(_ body: @escaping () throws -> Void) -> Step {
        { done in
            do { try body() } catch { XCTFail("\(error)") }
            done()
        }
    }

    private func served(_ rig: Rig) -> Forecast? { rig.refresher.forecast(for: rig.id)?.forecast }

    private func changes(_ rig: Rig) -> [ProviderChange] {
        rig.events.compactMap {
            if case .providerChanged(_, let change) = $0 { return change }
            return nil
        }
    }

    // MARK: One provider failing, each way

    /// Each way the first provider can fail: MET Norway answers in the same
    /// refresh, the forecast says who answered instead of whom and why, and
    /// the failure costs exactly one more request.
    func testEachWayTheFirstFails_theNextAnswersAtOnce_withOneMoreRequest() throws {
        let ways: [(mode: String, fields: [String: String], reason: String)] = [
            ("status", ["status": "503"], "HTTP 503"),
            ("status", ["status": "500"], "HTTP 500"),
            ("status", ["status": "429", "retry_after": "120"], "HTTP 429"),
            ("status", ["status": "403"], "HTTP 403"),
            ("malformed", [:], "open-meteo answered with a web page"),
            ("reset", [:], ""),
            ("stall", ["delay": "5"], ""),
        ]
        for way in ways {
            let rig = try rig(timeoutSeconds: 2)
            try rig.server.script(Self.openMeteoPath, mode: way.mode, count: -1, way.fields)
            try run(
                rig,
                [
                    refresh(rig) { XCTAssertNil($0, "\(way.mode) \(way.fields): the next provider answered") },
                    act {
                        let forecast = try XCTUnwrap(self.served(rig), "\(way.mode)")
                        XCTAssertEqual(forecast.provider, "metno", "\(way.mode) \(way.fields)")
                        XCTAssertEqual(forecast.failover?.provider, "open-meteo")
                        XCTAssertTrue(
                            forecast.failover?.reason.hasPrefix(way.reason) == true,
                            "\(way.mode): \(String(describing: forecast.failover))")
                        if way.mode == "malformed" {
                            XCTAssertEqual(forecast.failover?.wording?.kind, "webPage", "so raindctl can word it")
                        }
                        XCTAssertEqual(try rig.server.count(Self.openMeteoPath), 1, "\(way.mode): the first asked once")
                        XCTAssertEqual(try rig.server.count(Self.metNorwayPath), 1, "\(way.mode): one more request")
                        let status = rig.refresher.providerStatuses
                        XCTAssertEqual(status.map(\.name), ["open-meteo", "metno"], "the table's order")
                        XCTAssertEqual(status.first?.failures, 1)
                        XCTAssertEqual(status.first?.available, false, "\(way.mode): backing off")
                        XCTAssertEqual(status.last?.places, [rig.id], "metno serves Oslo")
                        // The totals are each request in its own provider's calls.
                        XCTAssertEqual(rig.refresher.budgetUsage.requestsToday, 2)
                        XCTAssertEqual(
                            rig.refresher.budgetUsage.callsToday, OpenMeteo.callsPerRequest + 1, accuracy: 1e-9)
                    },
                ])
        }
    }

    func testWhenTheFirstAnswers_theOthersAreNotAsked() throws {
        let rig = try rig()
        try run(
            rig,
            [
                refresh(rig) { XCTAssertNil($0) },
                act {
                    XCTAssertEqual(self.served(rig)?.provider, "open-meteo")
                    XCTAssertNil(self.served(rig)?.failover)
                    XCTAssertEqual(try rig.server.count(Self.openMeteoPath), 1)
                    XCTAssertEqual(try rig.server.count(Self.metNorwayPath), 0)
                    XCTAssertEqual(self.changes(rig), [], "no provider changed")
                },
            ])
    }

    /// An answer whose times all lie in the past is a failure of its provider when another can answer.
    func testAnAnswerStaleByItsOwnTimes_sendsThePlaceToTheNext() throws {
        // Ten days on, the MET Norway recording has ended; Open-Meteo's is made then.
        let rig = try rig(order: [.metNorway, .openMeteo], openMeteoAt: Self.start + 10 * 86400)
        rig.clock.advance(10 * 86400)
        try run(
            rig,
            [
                refresh(rig) { XCTAssertNil($0) },
                act {
                    XCTAssertEqual(try rig.server.count(Self.metNorwayPath), 1)
                    XCTAssertEqual(try rig.server.count(Self.openMeteoPath), 1)
                    let forecast = try XCTUnwrap(self.served(rig))
                    XCTAssertEqual(forecast.provider, "open-meteo")
                    XCTAssertEqual(forecast.failover?.provider, "metno")
                },
            ])
    }

    // MARK: Two, and all, failing

    func testAllFailing_theRefreshFails_namingEachProvider_andTheCachedDataStays() throws {
        let rig = try rig()
        try run(
            rig,
            [
                refresh(rig) { XCTAssertNil($0, "first, data") },
                act {
                    try rig.server.script(Self.openMeteoPath, mode: "status", count: -1, ["status": "503"])
                    try rig.server.script(Self.metNorwayPath, mode: "status", count: -1, ["status": "502"])
                    rig.clock.advance(120)
                },
                refresh(rig) { failure in
                    let message = failure?.message ?? "no failure"
                    XCTAssertTrue(message.contains("open-meteo: ") && message.contains("metno: "), message)
                },
                act {
                    XCTAssertEqual(self.served(rig)?.provider, "open-meteo", "the cached forecast is still served")
                    XCTAssertEqual(try rig.server.count(Self.openMeteoPath), 2)
                    XCTAssertEqual(try rig.server.count(Self.metNorwayPath), 1, "asked once, in the failed refresh")
                },
            ])
    }

    /// With every provider down for an hour, requests back off as with one
    /// provider: each provider is asked at most once per place refresh, and
    /// the refreshes come further and further apart.
    func testEveryProviderDown_requestsBackOff_neverAStorm() throws {
        let rig = try rig(refreshMinutes: 5)
        var before = 0
        var attempts = 0
        var steps: [Step] = [
            refresh(rig) { XCTAssertNil($0) },
            act {
                try rig.server.script(Self.openMeteoPath, mode: "status", count: -1, ["status": "503"])
                try rig.server.script(Self.metNorwayPath, mode: "status", count: -1, ["status": "503"])
                before = try rig.server.count("/")
            },
        ]
        for _ in 0..<60 { steps.append(wake(rig) { if $0 { attempts += 1 } }) }
        steps.append(
            act {
                let requests = try rig.server.count("/") - before
                print("every provider down for an hour: \(attempts) refreshes, \(requests) requests")
                XCTAssertGreaterThan(attempts, 0, "the place is retried")
                XCTAssertLessThanOrEqual(requests, 2 * attempts, "each provider at most once an attempt")
                // Backing off from 60 s doubling (after the first due refresh at
                // 5 min): 1, 2, 4, 8, 16, 32 min apart, at most 7 in the hour.
                XCTAssertLessThanOrEqual(attempts, 7, "\(attempts) attempts in an hour: backing off")
                XCTAssertLessThanOrEqual(requests, 14, "\(requests) requests in an hour")
            })
        try run(rig, steps)
    }

    // MARK: Recovery, and a 30-minute outage

    /// The first provider down for 30 minutes, then back, with the place
    /// refreshed every 5 minutes: MET Norway serves Oslo meanwhile, each
    /// refresh costs one request to it, Open-Meteo is asked again only when
    /// its back-off has ended, and takes the place back when it answers;
    /// ProviderChanged says so both times.
    func testAThirtyMinuteOutage_costsOneExtraRequestPerFailure_andThePlaceMovesBack() throws {
        let rig = try rig(refreshMinutes: 5)
        var transcript: [String] = []
        var refreshes = 0
        var openMeteoBefore = 0
        var metNorwayBefore = 0
        var steps: [Step] = [
            refresh(rig) { XCTAssertNil($0, "before the outage") },
            act {
                XCTAssertEqual(self.served(rig)?.provider, "open-meteo")
                try rig.server.script(Self.openMeteoPath, mode: "status", count: -1, ["status": "503"])
                openMeteoBefore = try rig.server.count(Self.openMeteoPath)
                metNorwayBefore = try rig.server.count(Self.metNorwayPath)
            },
        ]
        for minute in 1...30 {
            var asked = 0
            steps.append(act { asked = try rig.server.count(Self.openMeteoPath) })
            steps.append(
                wake(rig) { started in
                    guard started else { return }
                    refreshes += 1
                    let first =
                        ((try? rig.server.count(Self.openMeteoPath)) ?? 0) > asked ? "open-meteo 503, then " : ""
                    transcript.append("+\(minute) min: \(first)\(self.served(rig)?.provider ?? "-") answered")
                })
        }
        steps.append(
            act {
                let openMeteoDuring = try rig.server.count(Self.openMeteoPath) - openMeteoBefore
                let metNorwayDuring = try rig.server.count(Self.metNorwayPath) - metNorwayBefore
                print("30-minute outage of open-meteo, refreshes every 5 min:\n" + transcript.joined(separator: "\n"))
                print("requests: open-meteo \(openMeteoDuring), metno \(metNorwayDuring), refreshes \(refreshes)")
                XCTAssertGreaterThanOrEqual(refreshes, 4, "\(transcript)")
                XCTAssertEqual(self.served(rig)?.provider, "metno", "\(transcript)")
                XCTAssertEqual(self.served(rig)?.failover?.reason, "HTTP 503")
                XCTAssertEqual(
                    metNorwayDuring, refreshes, "one request to the next provider per refresh: \(transcript)")
                XCTAssertLessThanOrEqual(openMeteoDuring, refreshes, "at most one try of the first per refresh")
                XCTAssertEqual(rig.refresher.providerStatuses.first?.failures, openMeteoDuring, "each try failed")
                XCTAssertGreaterThanOrEqual(openMeteoDuring, 2, "the first is tried again when its back-off ends")
                // The outage ends.
                try rig.server.unscript()
            })
        // Recovery: the next due refresh asks Open-Meteo first and moves back.
        for _ in 0..<20 { steps.append(wake(rig)) }
        steps.append(
            act {
                XCTAssertEqual(self.served(rig)?.provider, "open-meteo", "back on the first provider after the outage")
                XCTAssertNil(self.served(rig)?.failover)
                XCTAssertEqual(
                    self.changes(rig).map { "\($0.previous ?? "-") -> \($0.provider)" },
                    ["open-meteo -> metno", "metno -> open-meteo"])
                XCTAssertEqual(self.changes(rig).first?.reason, "open-meteo: HTTP 503")
                XCTAssertEqual(self.changes(rig).first?.wording?.kind, "serverError", "so raindctl can word it")
                XCTAssertEqual(
                    self.changes(rig).last?.reason, "open-meteo is this place's first choice and answers again")
                XCTAssertNil(self.changes(rig).last?.wording)
                let status = rig.refresher.providerStatuses
                XCTAssertEqual(status.first?.failures, 0, "recovered")
                XCTAssertEqual(status.first?.available, true)
                XCTAssertEqual(status.first?.places, [rig.id])
                XCTAssertEqual(status.last?.places, [])
            })
        try run(rig, steps)
    }

    // MARK: Budgets

    /// Each provider counts its own requests in its own units, against its own budget.
    func testEachProvider_countsItsOwnBudget() throws {
        let rig = try rig()
        try run(
            rig,
            [
                refresh(rig) { XCTAssertNil($0) },
                act {
                    let status = rig.refresher.providerStatuses
                    XCTAssertEqual(status.first?.requestsToday, 1)
                    XCTAssertEqual(status.first?.callsToday ?? 0, OpenMeteo.callsPerRequest, accuracy: 1e-9)
                    XCTAssertEqual(status.last?.requestsToday, 0, "MET Norway counted nothing")
                    XCTAssertEqual(status.last?.dailyBudget, 96, "2 requests a place and 30-minute interval")
                },
            ])
    }
}
