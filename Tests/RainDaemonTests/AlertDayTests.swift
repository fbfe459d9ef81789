import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A day of official alert requests for Paris (MeteoAlarm), Portland,
/// Oregon (NWS) and Berlin (DWD through Bright Sky), counted on the fixture
/// server over loopback with the tests' clock moved from wake to wake of
/// the watcher: a calm day (no alert, calm forecasts) and a stormy one (a
/// thunderstorm in every forecast). Before the pace followed the weather,
/// both cost 528 (288 + 144 + 96). docs/SCHEDULING.md quotes the figures.
final class AlertDayTests: XCTestCase {
    /// 2027-01-15 00:00 UTC: the day is the ledger's UTC day.
    static let start = 1_799_971_200.0

    private func day(thunderstorm: Bool) throws -> [String: Int] {
        let harness = try ClientHarness()
        let server = try AlertParts.quietServices()
        defer { server.stop() }
        var places = LocationList()
        let cities = AlertParts.threeCities(&places)
        let parts = try AlertParts(
            harness: harness, server: server, places: places, start: Self.start, name: "alert-day")
        defer { parts.remove() }
        let (clock, refresher, watcher) = (parts.clock, parts.refresher, parts.watcher)
        // Two days of hours, kept all day: the forecast refreshes are not what is counted here.
        parts.keepForecasts(for: cities, from: Self.start) { thunderstorm && $0 % 6 == 3 ? "thunderstorm" : "cloudy" }
        watcher.restore(places.locations)
        let end = Self.start + 86_399
        func wake() {
            guard let next = watcher.nextWake, next < end else { return harness.finish() }
            clock.advance(max(0, next - clock.wallNow))
            watcher.recorded = { _ in
                guard watcher.isIdle else { return }
                watcher.recorded = { _ in }
                harness.loop.later { wake() }
            }
            watcher.timerFired()
            if watcher.isIdle {
                watcher.recorded = { _ in }
                harness.loop.later { wake() }
            }
        }
        harness.loop.later { wake() }
        XCTAssertTrue(try harness.run(timeout: 120), "the day never ended")
        let counts = [
            "nws": try server.count("/alerts/active"), "meteoalarm": try server.count("/feeds/"),
            "dwd": try server.count("/alerts") - (try server.count("/alerts/active")),
        ]
        for source in watcher.sourceStatuses(now: clock.wallNow) {
            XCTAssertEqual(source.requestsToday, counts[source.name], source.name)
        }
        watcher.cancelAll()
        refresher.cancelAll()
        return counts
    }

    func testACalmDay_costsAboutAThirdOfWhatTheServicesOwnRatesWould() throws {
        let calm = try day(thunderstorm: false)
        print("alert day, calm: \(calm.sorted { $0.key < $1.key }), \(calm.values.reduce(0, +)) requests")
        // Every 30 min and its jitter (at most 10 or 25 %), and the first poll at the start.
        for (name, count) in calm { XCTAssertTrue((39...49).contains(count), "\(name): \(count)") }
        XCTAssertLessThanOrEqual(calm.values.reduce(0, +), 147, "528 at the services' own rates")
    }

    func testAStormyDay_asksAtTheServicesOwnRates() throws {
        let stormy = try day(thunderstorm: true)
        print("alert day, stormy: \(stormy.sorted { $0.key < $1.key }), \(stormy.values.reduce(0, +)) requests")
        XCTAssertTrue((262...289).contains(stormy["nws"] ?? 0), "every 5 min: \(stormy)")
        XCTAssertTrue((131...145).contains(stormy["dwd"] ?? 0), "every 10 min: \(stormy)")
        XCTAssertTrue((77...97).contains(stormy["meteoalarm"] ?? 0), "every 15 min: \(stormy)")
    }
}
