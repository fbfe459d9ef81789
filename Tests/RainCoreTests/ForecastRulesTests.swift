import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The shared rules themselves (`Forecast+Conditions`, `+Freshness`,
/// `+Today`), at their edges: which entry is "now", when a forecast is
/// outdated, which day is today, and which words are icons.
final class ForecastRulesTests: XCTestCase {
    /// 2026-01-15T10:00 in Paris (UTC+1).
    private let parisTen: Double = 1_768_467_600

    private func hours(_ times: [Double]) -> [HourlyForecast] {
        times.map { HourlyForecast(time: $0, temperature: $0) }
    }

    // MARK: - conditions(at:)

    func testConditions_recentCurrentBlockIsObserved_olderGivesWayToTheHour() throws {
        let current = CurrentConditions(time: parisTen + 600, temperature: 12)
        let forecast = Forecast(
            provider: "test", fetchedAt: parisTen, current: current, hourly: hours([parisTen, parisTen + 3600]))
        let recent = try XCTUnwrap(forecast.conditions(at: parisTen + 1200))
        XCTAssertEqual(recent.conditions, current)
        XCTAssertTrue(recent.observed)
        // From a clock ahead of ours, still the observation.
        XCTAssertEqual(forecast.conditions(at: parisTen)?.observed, true)
        let later = try XCTUnwrap(forecast.conditions(at: parisTen + 600 + 3600))
        XCTAssertFalse(later.observed)
        XCTAssertEqual(later.conditions.time, parisTen + 3600)
        XCTAssertNil(later.conditions.humidity, "nothing made up that an hour does not hold")
        XCTAssertNil(forecast.conditions(at: parisTen + 2 * 3600), "after the last hour, nothing is for now")
    }

    func testHourInProgress_boundariesAndSteps() {
        var forecast = Forecast(provider: "test", fetchedAt: 0, hourly: hours([0, 3600, 7200]))
        XCTAssertNil(forecast.hourInProgress(at: -1))
        XCTAssertEqual(forecast.hourInProgress(at: 0), 0)
        XCTAssertEqual(forecast.hourInProgress(at: 3599.9), 0)
        XCTAssertEqual(forecast.hourInProgress(at: 3600), 1)
        XCTAssertEqual(forecast.hourInProgress(at: 10_799), 2, "the last hour is as long as the one before")
        XCTAssertNil(forecast.hourInProgress(at: 10_800))
        // Sparse: a 6-hour step stands for 6 hours; a longer gap only for 6.
        forecast.hourly = hours([0, 6 * 3600, 18 * 3600])
        XCTAssertEqual(forecast.hourInProgress(at: 5 * 3600), 0)
        XCTAssertEqual(forecast.stepEnd(ofHourAt: 1), 12 * 3600)
        XCTAssertNil(forecast.hourInProgress(at: 13 * 3600), "a gap is missing data, not a step")
        XCTAssertEqual(forecast.hourInProgress(at: 18 * 3600 + 1), 2)
        // Alone, an entry is an hour; out of order, the times decide.
        forecast.hourly = hours([7200])
        XCTAssertEqual(forecast.stepEnd(ofHourAt: 0), 10_800)
        forecast.hourly = hours([7200, 0, 3600])
        XCTAssertEqual(forecast.hourInProgress(at: 4000), 2)
        XCTAssertEqual(forecast.stepEnd(ofHourAt: 1), 3600)
    }

    // MARK: - outdated(now:)

    func testOutdated_whenNowIsAtOrPastTheEndOfEverythingItHolds() {
        var forecast = Forecast(provider: "test", fetchedAt: parisTen, hourly: hours([0, 3600]))
        XCTAssertEqual(forecast.coverageEnd, 7200)
        XCTAssertFalse(forecast.outdated(now: 7199))
        XCTAssertTrue(forecast.outdated(now: 7200))
        // A day reaches 24 h past its midnight; a current block an hour past its time.
        forecast.daily = [DailyForecast(time: 3600)]
        XCTAssertEqual(forecast.coverageEnd, 3600 + 86_400)
        forecast.current = CurrentConditions(time: 100_000)
        XCTAssertEqual(forecast.coverageEnd, 103_600)
        XCTAssertFalse(forecast.outdated(now: 103_599))
        XCTAssertTrue(forecast.outdated(now: 103_600))
    }

    func testOutdated_countsTheNowcast_andNothingIsOutdatedAlways() throws {
        var forecast = Forecast(provider: "test", fetchedAt: 0, current: CurrentConditions(time: 0))
        forecast.nowcast = try XCTUnwrap(
            Nowcast(
                steps: (0..<8).map { NowcastStep(time: 1_800_000_000 + Double($0) * 900, precipIntensity: 0) },
                resolutionSeconds: 900, now: 1_800_000_000))
        XCTAssertEqual(forecast.coverageEnd, 1_800_000_000 + 8 * 900)
        XCTAssertTrue(Forecast(provider: "test", fetchedAt: 0).outdated(now: -1e300), "no times: nothing is for now")
        XCTAssertNil(Forecast(provider: "test", fetchedAt: 0).coverageEnd)
    }

    /// Alerts are warnings, not the weather: an alert running on does not make old data current.
    func testOutdated_ignoresAlerts() {
        let forecast = Forecast(
            provider: "test", fetchedAt: 0, hourly: hours([0]), alerts: [WeatherAlert(title: "Storm", end: 1e9)])
        XCTAssertTrue(forecast.outdated(now: 3600))
    }

    // MARK: - today(at:zone:)

    func testToday_byTheZoneOrElseByTheOffset() throws {
        let paris = try XCTUnwrap(Fixtures.zoneInfo.rules(named: "Europe/Paris"))
        let midnight = parisTen - 10 * 3600  // 2026-01-15T00:00+01:00
        let forecast = Forecast(
            provider: "test", fetchedAt: 0, timeZone: "Nowhere/Atlantis", utcOffsetSeconds: 3600,
            daily: [DailyForecast(time: midnight), DailyForecast(time: midnight + 86_400)])
        XCTAssertEqual(forecast.today(at: midnight + 86_400 - 1, zone: paris)?.time, midnight)
        XCTAssertEqual(forecast.today(at: midnight + 86_400, zone: paris)?.time, midnight + 86_400)
        XCTAssertEqual(forecast.today(at: midnight + 60, zone: nil)?.time, midnight, "by utcOffsetSeconds")
        XCTAssertNil(forecast.today(at: midnight - 60, zone: paris), "yesterday is not in the forecast")
        XCTAssertNil(forecast.today(at: midnight + 2 * 86_400, zone: paris))
    }

    /// After the change to summer time a provider keeping one offset starts
    /// days at 01:00; each keeps its own date.
    func testToday_dayStartedAnHourLate_keepsItsDate() throws {
        let paris = try XCTUnwrap(Fixtures.zoneInfo.rules(named: "Europe/Paris"))
        let thirtiethAtOne = 1_774_825_200.0  // 2026-03-30T01:00+02:00
        let forecast = Forecast(provider: "test", fetchedAt: 0, daily: [DailyForecast(time: thirtiethAtOne)])
        XCTAssertEqual(forecast.today(at: thirtiethAtOne - 1800, zone: paris)?.time, thirtiethAtOne)
    }

    // MARK: - Icons

    func testIconVocabulary_hasUnknown_andAnythingElseReadsAsUnknown() {
        XCTAssertTrue(WeatherIcon.vocabulary.isSuperset(of: ["clear-day", "rain", "unknown"]))
        XCTAssertEqual(WeatherIcon.condition("partly-cloudy-night"), "partly-cloudy-night")
        XCTAssertEqual(WeatherIcon.condition(""), "unknown")
        XCTAssertEqual(WeatherIcon.condition("Cloudy"), "unknown")
        XCTAssertEqual(WeatherIcon.glyph("unknown", style: .nerd), "\u{E374}")  // nf-weather-na
        XCTAssertEqual(WeatherIcon.glyph("", style: .emoji), "❔")
    }

    /// The inits leave a chance of rain unknown unless it is given.
    func testInits_leaveTheChanceOfRainUnknown() {
        XCTAssertNil(CurrentConditions(time: 0).precipProbability)
        XCTAssertNil(HourlyForecast(time: 0).precipProbability)
        XCTAssertNil(DailyForecast(time: 0).precipProbability)
    }
}
