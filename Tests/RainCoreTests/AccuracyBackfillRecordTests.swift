import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// A backfill kept in a place's record (docs/ACCURACY.md, "Backfill"):
/// counted apart in the scores, replaced by what raind keeps as it comes,
/// aged out with the window, kept in the file and checked when read back.
final class AccuracyBackfillRecordTests: XCTestCase {
    /// 2026-11-01T00:00:00Z.
    static let now = 1_793_491_200.0
    static let station = ObservationStation(
        id: "KLAX", name: "Los Angeles", latitude: 33.94, longitude: -118.39, heightMetres: 38)

    /// A day of past hours: observed at 10 °C, the archive's +24 h at 12 °C.
    func backfilled() -> AccuracyRecord {
        var record = AccuracyRecord()
        let hours = (1...30).map { Self.now - Double($0) * 3600 }
        let samples = hours.map {
            ForecastSample(
                provider: "open-meteo", lead: 24, hour: $0, issuedAt: $0 - 86_400, temperature: 12, backfilled: true)
        }
        let observations = hours.map {
            Observation(source: "metar", station: Self.station, time: $0 - 420, temperature: 10)
        }
        record.takeBackfill(samples: samples, observations: observations, provider: "open-meteo", at: Self.now)
        return record
    }

    func testBackfill_givesAScoreMarkedBackfilled_andNotesWhatItTook() throws {
        let record = backfilled()
        XCTAssertEqual(
            record.backfill, AccuracyBackfill(at: Self.now, provider: "open-meteo", samples: 30, observedHours: 30))
        let score = try XCTUnwrap(AccuracyScorer.scores(record, now: Self.now).first)
        XCTAssertEqual(score.pairs, 30)
        XCTAssertEqual(score.backfilledPairs, 30)
        XCTAssertEqual(score.temperatureError, 2)
        XCTAssertNil(record.validationProblem())
    }

    func testLiveSamples_replaceTheBackfilledOnes_forTheSameHour() throws {
        var record = backfilled()
        let hour = Self.now - 3600
        // A forecast kept as it came, 24 hours before that hour, says 10 °C.
        var row = HourlyForecast(time: hour)
        row.temperature = 10
        record.record(
            Forecast(provider: "open-meteo", fetchedAt: hour - 86_400, hourly: [row]), now: Self.now)
        let kept = record.samples.filter { $0.hour == hour && $0.lead == 24 }
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(kept.first?.backfilled, nil, "the live sample replaced the archive's")
        XCTAssertEqual(kept.first?.temperature, 10)
        let score = try XCTUnwrap(AccuracyScorer.scores(record, now: Self.now).first)
        XCTAssertEqual(score.backfilledPairs, 29)
    }

    func testBackfilledPairs_ageOutOfTheWindow_thenOutOfTheRecord() {
        var record = backfilled()
        let later = Self.now + AccuracyScorer.windowSeconds + 2 * 86_400
        XCTAssertEqual(AccuracyScorer.scores(record, now: later), [], "past the 30-day window")
        record.trim(now: later)
        XCTAssertEqual(record.samples, [])
        XCTAssertEqual(record.observed, [])
        XCTAssertNotNil(record.backfill, "that it was done is kept: raind does not backfill the place again")
    }

    func testBackfillReadBack_isCheckedLikeTheRest() throws {
        var record = backfilled()
        record.backfill?.provider = "Open Meteo!"
        XCTAssertEqual(record.validationProblem()?.field, "backfill.provider")
        record = backfilled()
        record.backfill?.samples = -1
        XCTAssertEqual(record.validationProblem()?.field, "backfill.samples")
        record = backfilled()
        record.backfill?.at = .infinity
        XCTAssertEqual(record.validationProblem()?.field, "backfill.at")
        record = backfilled()
        record.backfill?.problem = ""
        XCTAssertEqual(record.validationProblem()?.field, "backfill.problem")
        // Written and read back whole; an older file, without the field, reads as not backfilled.
        record = backfilled()
        XCTAssertEqual(try AccuracyRecord(json: try JSON(parsing: record.jsonBytes)), record)
        let older = try AccuracyRecord(
            json: try JSON(parsing: Array(#"{"version":1,"samples":[],"observed":[]}"#.utf8)))
        XCTAssertNil(older.backfill)
    }
}
