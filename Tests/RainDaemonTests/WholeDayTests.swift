import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// Whole days of upstream requests for Paris (selected), Portland, Oregon
/// and Berlin — the forecasts (Open-Meteo), the official alerts (MeteoAlarm,
/// the NWS, the DWD through Bright Sky) and the air — lived by raind's parts
/// (`DayRun`) and held to the model of a day (`bench/day_model.py`, which
/// writes `bench/day_model.json` and the table in docs/SCHEDULING.md): a
/// calm and a stormy day, on a desktop awake all day and on a laptop that
/// sleeps seven times and loses its network four times. Each count of a
/// run must lie within the range of the model's draws of the jitter,
/// widened by two requests, and its total within 3 % of the model's mean:
/// a change to raind's schedule fails here, a change to the model fails
/// tests/integration/test_day_model.py until the file is written again.
/// `swift test --filter WholeDayTests` prints the counts.
final class WholeDayTests: XCTestCase {
    /// One day of the model: its machine and what it expects.
    private struct Expected {
        var run: DayRun
        /// Each kind's mean, lowest and highest of the model's draws.
        var kinds: [String: (mean: Double, low: Double, high: Double)]
        var total: Double
    }

    private func expected(_ name: String) throws -> Expected {
        let model = try JSON(parsing: try TestFile.bytes(Repository.path("bench/day_model.json")))
        guard let day = model["days"]?[name]?.objectValue else {
            throw FixtureError(message: "bench/day_model.json has no day \(name)")
        }
        func spans(_ key: String) -> [DayRun.Span] {
            (day[key]?.arrayValue ?? []).compactMap { span in
                guard let pair = span.arrayValue, pair.count == 2, let from = pair[0].doubleValue,
                    let to = pair[1].doubleValue
                else { return nil }
                return DayRun.Span(from: from, to: to)
            }
        }
        var kinds: [String: (mean: Double, low: Double, high: Double)] = [:]
        for (kind, value) in day["raind"]?.objectValue ?? JSONObject() {
            guard let mean = value["mean"]?.doubleValue, let low = value["low"]?.doubleValue,
                let high = value["high"]?.doubleValue
            else { throw FixtureError(message: "bench/day_model.json: \(name).raind.\(kind) is incomplete") }
            kinds[kind] = (mean, low, high)
        }
        let run = DayRun(
            stormy: day["stormy"]?.boolValue ?? false, suspends: spans("suspends"),
            networkLosses: spans("networkLosses"))
        return Expected(run: run, kinds: kinds, total: day["raindTotal"]?["mean"]?.doubleValue ?? 0)
    }

    /// Runs the model's day `name` and holds each count to the model.
    @discardableResult
    private func check(_ name: String) throws -> DayRun.Counts {
        let expected = try expected(name)
        XCTAssertEqual(Set(expected.kinds.keys), ["forecasts", "air", "nws", "dwd", "meteoalarm"])
        let counts = try expected.run.run()
        print(
            "day \(name): \(counts.requests.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
                + "\(counts.total) requests (model \(expected.total)); alert paces seen: "
                + "\(counts.paces.map(\.rawValue).sorted())")
        for (kind, model) in expected.kinds {
            let count = Double(counts.requests[kind] ?? -1)
            XCTAssertTrue(
                (model.low - 2...model.high + 2).contains(count),
                "\(name): \(kind) \(count), the model \(model.mean) (\(model.low)–\(model.high))")
        }
        XCTAssertEqual(
            Double(counts.total), expected.total, accuracy: expected.total * 0.03, "\(name): \(counts.requests)")
        return counts
    }

    /// The issue's goal: a calm day of a desktop awake 9 hours costs at most
    /// 250 requests for forecasts, alerts and air (docs/SCHEDULING.md).
    func testACalmWorkingDayOnADesktop_awakeNineHours_staysUnder250() throws {
        let counts = try check("calm-desktop-9h")
        XCTAssertLessThanOrEqual(counts.total, 250, "\(counts.requests)")
    }

    func testAStormyWorkingDayOnADesktop_awakeNineHours_matchesTheModel() throws {
        try check("stormy-desktop-9h")
    }

    func testACalmDesktopDay_forecastsAlertsAndAir() throws {
        let day = try check("calm-desktop")
        let counts = day.requests
        let total = day.total
        XCTAssertEqual(day.paces.subtracting([.noForecast]), [.calm], "a calm day")
        // What docs/SCHEDULING.md quotes, with room for the jitter.
        XCTAssertTrue((72...84).contains(counts["forecasts"] ?? 0), "\(counts)")
        XCTAssertTrue((36...41).contains(counts["air"] ?? 0), "\(counts)")
        for name in ["nws", "dwd", "meteoalarm"] {
            XCTAssertTrue((39...49).contains(counts[name] ?? 0), "\(name): \(counts)")
        }
        XCTAssertLessThanOrEqual(total, 265, "\(counts)")
        XCTAssertLessThanOrEqual(total * 4, 1296, "at least four times fewer than three per-client pollers")
    }

    func testAStormyDesktopDay_matchesTheModel() throws {
        let counts = try check("stormy-desktop")
        XCTAssertEqual(counts.paces.subtracting([.noForecast]), [.thunderstorm], "a thunderstorm in every forecast")
    }

    func testACalmLaptopDay_sevenSleepsAndFourNetworkLosses_matchesTheModel() throws {
        try check("calm-laptop")
    }

    func testAStormyLaptopDay_sevenSleepsAndFourNetworkLosses_matchesTheModel() throws {
        try check("stormy-laptop")
    }
}
