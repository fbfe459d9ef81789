import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Each provider's daily +24 h temperature error (`AccuracyScorer.days`,
/// drawn by `raindctl accuracy --chart`).
final class AccuracyDaysTests: XCTestCase {
    static let start = 1_793_491_200.0

    func testDays_giveEachDaysMeanAbsoluteError_andNoneBelowTheirMinimum() throws {
        var record = AccuracyRecord(station: "KLAX")
        // Day d (of three) errs by d + 1 °C, alternately too warm and too cold; the third day has 5 pairs only.
        for index in 0..<(2 * 24 + 5) {
            let hour = Self.start + Double(index) * 3600
            let day = index / 24
            record.observed.append(ObservedHour(hour: hour, observedAt: hour, temperature: 10))
            let error = Double(day + 1) * (index % 2 == 0 ? 1 : -1)
            record.samples.append(
                ForecastSample(
                    provider: "metno", lead: 24, hour: hour, issuedAt: hour - 86_400, temperature: 10 + error))
            // A +6 h sample is not drawn.
            record.samples.append(
                ForecastSample(provider: "metno", lead: 6, hour: hour, issuedAt: hour - 6 * 3600, temperature: 30))
        }
        let now = Self.start + 3 * 86_400
        let days = AccuracyScorer.days(record, now: now, windowSeconds: 3 * 86_400)
        XCTAssertEqual(days.map(\.provider), ["metno", "metno", "metno"])
        XCTAssertEqual(days.map(\.from), [Self.start, Self.start + 86_400, Self.start + 2 * 86_400])
        XCTAssertEqual(days.map(\.pairs), [24, 24, 5])
        XCTAssertEqual(days.map(\.temperatureError), [1, 2, nil])
    }
}
