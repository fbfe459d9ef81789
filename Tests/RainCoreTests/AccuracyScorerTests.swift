import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The scores' arithmetic on hand-made pairs (docs/ACCURACY.md): the
/// window, the minimum number of pairs, rain's contingency and Brier.
final class AccuracyScorerTests: XCTestCase {
    static let start = 1_793_491_200.0

    /// `count` hours each with a 24 h sample of `forecast` and an observation of `observed`.
    private func record(
        hours count: Int, from first: Double = start, forecast: (Int) -> ForecastSample.Values,
        observed: (Int) -> (Double, Bool)
    ) -> AccuracyRecord {
        var record = AccuracyRecord(station: "KLAX")
        for index in 0..<count {
            let hour = first + Double(index) * 3600
            let values = forecast(index)
            record.samples.append(
                ForecastSample(
                    provider: "open-meteo", lead: 24, hour: hour, issuedAt: hour - 24 * 3600,
                    temperature: values.temperature, rain: values.rain, rainProbability: values.probability,
                    windSpeed: 4, backfilled: index % 2 == 0 ? true : nil))
            let (temperature, rain) = observed(index)
            record.observed.append(
                ObservedHour(hour: hour, observedAt: hour, temperature: temperature, rain: rain, windSpeed: 3))
        }
        return record
    }

    func testScores_ofKnownPairs() throws {
        // Errors +1, -3 alternating: MAE 2, bias -1, half within 2 °C.
        let record = record(
            hours: 48,
            forecast: { index in
                ForecastSample.Values(
                    temperature: 10 + (index % 2 == 0 ? 1 : -3), rain: index % 4 == 0,
                    probability: index % 4 == 0 ? 1 : 0)
            },
            observed: { index in (10, index % 8 == 0 || index % 8 == 1) })
        let now = Self.start + 48 * 3600
        let score = try XCTUnwrap(AccuracyScorer.scores(record, now: now).first)
        XCTAssertEqual(score.pairs, 48)
        XCTAssertEqual(score.backfilledPairs, 24)
        XCTAssertEqual(score.temperatureError, 2)
        XCTAssertEqual(score.temperatureBias, -1)
        XCTAssertEqual(score.withinTwoDegrees, 0.5)
        // Rain forecast at 0, 4, 8…; observed at 0, 1, 8, 9…: hits 6, misses 6, false alarms 6, dry 30.
        XCTAssertEqual([score.rainHits, score.rainMisses, score.rainFalseAlarms], [6, 6, 6])
        XCTAssertEqual(score.rainHitRate, 0.5)
        XCTAssertEqual(score.rainFalseAlarmRate, 6.0 / 36.0)
        XCTAssertEqual(score.brierScore, 12.0 / 48.0, "sure and wrong in 12 of 48 hours")
        XCTAssertEqual(score.windError, 1)
    }

    func testFewerPairsThanTheMinimum_giveCountsButNoVerdict() throws {
        let record = record(
            hours: AccuracyScorer.minimumPairs - 1,
            forecast: { _ in ForecastSample.Values(temperature: 12, rain: false, probability: 0.2) },
            observed: { _ in (10, false) })
        let score = try XCTUnwrap(AccuracyScorer.scores(record, now: Self.start + 86_400).first)
        XCTAssertEqual(score.temperaturePairs, AccuracyScorer.minimumPairs - 1)
        XCTAssertNil(score.temperatureError)
        XCTAssertNil(score.temperatureBias)
        XCTAssertNil(score.withinTwoDegrees)
        XCTAssertNil(score.rainFalseAlarmRate)
        XCTAssertNil(score.brierScore)
        XCTAssertNil(score.windError)
    }

    func testOnlyTheWindowsHoursCount() throws {
        let record = record(
            hours: 40 * 24, from: Self.start - 40 * 86_400,
            forecast: { _ in ForecastSample.Values(temperature: 11, rain: nil, probability: nil) },
            observed: { _ in (10, false) })
        let score = try XCTUnwrap(AccuracyScorer.scores(record, now: Self.start).first)
        XCTAssertEqual(score.pairs, 30 * 24, "from the window's first hour to the last observed")
        XCTAssertEqual(score.rainPairs, 0)
        XCTAssertNil(score.rainHitRate)
    }
}

extension ForecastSample {
    /// What a test's sample says.
    struct Values {
        var temperature: Double?
        var rain: Bool?
        var probability: Double?
    }
}
