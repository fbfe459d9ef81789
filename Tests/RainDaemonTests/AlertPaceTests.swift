import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// Alert polling that follows the weather, through the daemon's parts: the
/// watcher polling the NWS point query on the fixture server (loopback,
/// real libcurl, the real loop) with the tests' clock. A warning the
/// service publishes reaches raind within the documented worst delay of
/// each pace (docs/ALERTS.md), and a forecast bringing a severe signal
/// shortens a calm place's interval at once.
final class AlertPaceTests: XCTestCase {
    /// 2027-01-15 08:00 UTC.
    static let start = 1_800_000_000.0
    static let path = "/alerts/active"

    private final class Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let parts: AlertParts
        let place: Location
        var published: [(time: Double, alerts: [WeatherAlert])] = []
        var recorder: EventRecorder?
        var clock: FakeClock { parts.clock }
        var watcher: AlertWatcher { parts.watcher }
        var store: ForecastStore { parts.store }
        var events: DaemonEvents { parts.events }

        init(harness: ClientHarness, server: FixtureServer, parts: AlertParts, place: Location) {
            self.harness = harness
            self.server = server
            self.parts = parts
            self.place = place
        }

        deinit {
            server.stop()
            parts.remove()
        }

        func serve(_ body: [UInt8]) throws {
            try Data(body).write(to: server.directory.appendingPathComponent("alerts.json"))
        }

        func forecast(_ forecast: Forecast) {
            store.store(
                CachedForecast(
                    forecast: forecast, latitude: place.latitude, longitude: place.longitude, etag: nil,
                    lastModified: nil),
                for: place.id)
        }
    }

    /// 24 hours from the start: calm, or with a thunderstorm in the sixth.
    static func forecast(thunderstormAt hour: Int? = nil, fetchedAt: Double = start) -> Forecast {
        Forecast(
            provider: "nws", fetchedAt: fetchedAt, timeZone: "America/Los_Angeles",
            current: CurrentConditions(time: fetchedAt, icon: "cloudy", temperature: 8, windSpeed: 3, windGust: 6),
            hourly: (0..<24).map {
                HourlyForecast(
                    time: start + Double($0) * 3600, icon: $0 == hour ? "thunderstorm" : "cloudy", temperature: 8,
                    windSpeed: 3, precipIntensity: 0)
            })
    }

    private func rig(_ forecast: Forecast) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: ["alerts.json": AlertLifeTests.collection([])], routes: [Self.path: "alerts.json"])
        var places = LocationList()
        let place = AlertParts.tillamook(&places)
        // The refresher keeps the ledger; no forecast is asked for here.
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "alert-pace")
        let (events, watcher) = (parts.events, parts.watcher)
        events.connect(EventParts(alerts: watcher))
        let rig = Rig(harness: harness, server: server, parts: parts, place: place)
        rig.forecast(forecast)
        rig.recorder = EventRecorder(events) { [unowned rig] event in
            if case .alertsChanged(_, let alerts) = event {
                rig.published.append((rig.clock.wallNow, alerts))
            }
        }
        watcher.restore(places.locations)
        return rig
    }

    /// Runs the loop until `done` is called.
    private func run(_ rig: Rig, _ body: @escaping (_ done: @escaping () -> Void) -> Void) throws {
        rig.harness.loop.later { body { rig.harness.finish() } }
        XCTAssertTrue(try rig.harness.run(timeout: 60), "never done")
    }

    /// Lets the watcher act now, and calls `then` once what it started was kept.
    private func act(_ rig: Rig, then: @escaping () -> Void) {
        rig.watcher.recorded = { _ in
            rig.watcher.recorded = { _ in }
            rig.harness.loop.later(then)
        }
        rig.watcher.timerFired()
        if rig.watcher.isIdle {
            rig.watcher.recorded = { _ in }
            rig.harness.loop.later(then)
        }
    }

    /// Moves the clock from wake to wake of the watcher (its polls), acting
    /// at each, until `until` holds or the clock passes `limit`.
    private func wakes(_ rig: Rig, limit: Double, until: @escaping () -> Bool, then: @escaping () -> Void) {
        guard !until(), let wake = rig.watcher.nextWake, wake <= limit else { return then() }
        rig.clock.advance(max(0, wake - rig.clock.wallNow))
        act(rig) { self.wakes(rig, limit: limit, until: until, then: then) }
    }

    /// Polls once at the start; the service publishes a warning a second
    /// after its answer; the clock moves from poll to poll until raind
    /// publishes it. How long that took, and the place's pace when the warning came out.
    private func delay(forecast: Forecast) throws -> (delay: Double, pace: AlertPace) {
        let rig = try rig(forecast)
        var result: (Double, AlertPace)?
        try run(rig) { done in
            self.act(rig) {
                XCTAssertEqual(try? rig.server.count(Self.path), 1, "asked at start")
                XCTAssertTrue(rig.published.isEmpty, "nothing to publish yet")
                rig.clock.advance(1)
                let issued = rig.clock.wallNow
                let pace = rig.watcher.pace(of: rig.place.id, at: issued)!
                do { try rig.serve(AlertLifeTests.collection([AlertLifeTests.warning])) } catch { XCTFail("\(error)") }
                self.wakes(rig, limit: issued + 2 * pace.worstDelaySeconds, until: { !rig.published.isEmpty }) {
                    if let first = rig.published.first { result = (first.time - issued, pace) }
                    done()
                }
            }
        }
        return try XCTUnwrap(result, "the warning was never published")
    }

    func testCalm_aWarningIsReadWithinTheCalmWorstDelay() throws {
        let (delay, pace) = try delay(forecast: Self.forecast())
        XCTAssertEqual(pace.reason, .calm)
        XCTAssertEqual(pace.pollingSeconds, 1800)
        XCTAssertEqual(pace.worstDelaySeconds, 2130, "35.5 min: docs/ALERTS.md")
        XCTAssertLessThanOrEqual(delay, pace.worstDelaySeconds)
        XCTAssertGreaterThanOrEqual(delay, 1800 - 1, "not asked before the calm interval ended")
    }

    func testSevereForecast_aWarningIsReadWithinTheFastWorstDelay() throws {
        let (delay, pace) = try delay(forecast: Self.forecast(thunderstormAt: 6))
        XCTAssertEqual(pace.reason, .thunderstorm)
        XCTAssertEqual(pace.at, Self.start + 6 * 3600)
        XCTAssertEqual(pace.pollingSeconds, 300)
        XCTAssertEqual(pace.worstDelaySeconds, 480, "8 min: docs/ALERTS.md")
        XCTAssertLessThanOrEqual(delay, pace.worstDelaySeconds)
    }

    /// Calm, then at +10 min a forecast refresh brings a thunderstorm: the
    /// place is asked at once (its last poll is more than the fast interval
    /// ago), then every 5 minutes; the status says so and why.
    func testAForecastBringingASignal_shortensTheIntervalAtOnce() throws {
        let rig = try rig(Self.forecast())
        try run(rig) { done in
            self.act(rig) {
                let calm = rig.watcher.sourceStatuses(now: rig.clock.wallNow).first
                XCTAssertEqual(calm?.paces?.map(\.reason), [.calm])
                XCTAssertEqual(calm?.requestsPerDay, 48, "one question every 30 min")
                XCTAssertGreaterThanOrEqual(rig.watcher.nextWake ?? 0, Self.start + 1800)
                rig.clock.advance(600)
                let stormy = Self.forecast(thunderstormAt: 5, fetchedAt: rig.clock.wallNow)
                rig.forecast(stormy)
                rig.events.emit(.published(.weatherUpdated(rig.place.id, stormy)))
                XCTAssertEqual(rig.watcher.nextWake, rig.clock.wallNow, "due at once")
                self.act(rig) {
                    XCTAssertEqual(try? rig.server.count(Self.path), 2, "asked at once")
                    let status = rig.watcher.sourceStatuses(now: rig.clock.wallNow).first
                    XCTAssertEqual(status?.paces?.map(\.reason), [.thunderstorm])
                    XCTAssertEqual(status?.paces?.first?.pollingSeconds, 300)
                    XCTAssertEqual(status?.requestsPerDay, 288)
                    let next = rig.watcher.nextWake ?? 0
                    XCTAssertTrue(
                        (rig.clock.wallNow + 300...rig.clock.wallNow + 330).contains(next), "then every 5 min: \(next)")
                    done()
                }
            }
        }
    }
}
