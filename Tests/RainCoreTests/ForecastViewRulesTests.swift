import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The four rules every provider's forecast is shown by, seen through the
/// views people read: `now`, the hourly and daily lists, the status line and
/// bar templates (`BarValues`). Each view must agree with the others, so
/// each rule is checked in all of them.
final class ForecastViewRulesTests: XCTestCase {
    /// 2026-01-15T10:00 in Paris (UTC+1), a Thursday.
    private let parisTen: Double = 1_768_467_600
    private let paris = Fixtures.zoneInfo.rules(named: "Europe/Paris")

    /// Hours from 09:00 to 14:00 at 0 °C, 1 °C, ..., and today (15 January)
    /// with its high and sunrise; received a minute before `parisTen`.
    private func forecast(current: CurrentConditions? = nil) -> Forecast {
        Forecast(
            provider: "test", fetchedAt: parisTen - 60, timeZone: "Europe/Paris", utcOffsetSeconds: 3600,
            current: current,
            hourly: (0..<6).map { index in
                HourlyForecast(
                    time: parisTen - 3600 + Double(index) * 3600, summary: "Hour \(index)", icon: "rain",
                    temperature: Double(index), windSpeed: 2, precipProbability: 0.1 * Double(index))
            },
            daily: [
                DailyForecast(
                    time: parisTen - 10 * 3600, temperatureMin: -2, temperatureMax: 6, precipProbability: 0.5,
                    sunrise: parisTen - 10 * 3600 + 8 * 3600 + 40 * 60, sunset: parisTen + 7 * 3600 + 15 * 60)
            ])
    }

    private func presenter(_ forecast: Forecast, now: Double) -> ForecastPresenter {
        ForecastPresenter(forecast: forecast, placeName: "Paris", units: .si, now: now, zone: paris)
    }

    private func bar(_ forecast: Forecast, now: Double, _ template: String, icons: IconStyle = .text) throws -> String {
        let values = BarValues(
            placeName: "Paris", forecast: forecast, units: .si, now: now, iconStyle: icons, zone: paris)
        return try BarTemplate(parsing: template).render(values)
    }

    // MARK: - 1. Current conditions: the hour in progress, marked as a forecast

    func testNoCurrentBlock_nowShowsTheHourInProgress_markedAsForecast() {
        let text = presenter(forecast(), now: parisTen + 1800).nowView()
        XCTAssertTrue(text.contains("\nForecast for Thursday 15 January 2026, 10:00–11:00\n1 °C  Hour 1\n"), text)
        XCTAssertTrue(text.contains("Chance of rain  10%"), text)
        XCTAssertFalse(text.contains("No current conditions"), text)
    }

    func testNoCurrentBlock_nowStatusLineAndTemplatesShowTheSameHour() throws {
        let now = parisTen + 1800
        XCTAssertEqual(presenter(forecast(), now: now).statusLine(), "Paris 1° Hour 1, 2m/s, 10%")
        XCTAssertEqual(try bar(forecast(), now: now, "{temp} {summary} {rain} {icon}"), "1 °C Hour 1 10% rain")
    }

    /// A current block stands for the hour after it; a cached copy older than
    /// that gives way to the hour in progress, chosen anew as time passes.
    func testOldCurrentBlock_givesWayToTheHourInProgress_inEveryView() throws {
        let observed = CurrentConditions(time: parisTen, summary: "Observed", temperature: 12, precipProbability: 0.9)
        let fresh = presenter(forecast(current: observed), now: parisTen + 600)
        XCTAssertTrue(fresh.nowView().contains("\nThursday 15 January 2026, 10:00\n12 °C  Observed\n"))
        XCTAssertEqual(try bar(forecast(current: observed), now: parisTen + 600, "{temp}"), "12 °C")

        let later = parisTen + 2 * 3600 + 600
        let text = presenter(forecast(current: observed), now: later).nowView()
        XCTAssertTrue(text.contains("\nForecast for Thursday 15 January 2026, 12:00–13:00\n3 °C  Hour 3\n"), text)
        XCTAssertEqual(presenter(forecast(current: observed), now: later).statusLine(), "Paris 3° Hour 3, 2m/s, 30%")
        XCTAssertEqual(try bar(forecast(current: observed), now: later, "{temp} {rain}"), "3 °C 30%")
    }

    /// met.no's far range comes in 6-hour steps: the step holding now is the
    /// hour in progress, for at most 6 hours.
    func testSparseSteps_theStepHoldingNowIsTheHourInProgress() throws {
        var sparse = forecast()
        sparse.hourly = (0..<3).map { index in
            HourlyForecast(time: parisTen + Double(index) * 6 * 3600, icon: "cloudy", temperature: Double(10 + index))
        }
        let now = parisTen + 6 * 3600 + 4 * 3600
        XCTAssertEqual(try bar(sparse, now: now, "{temp}"), "11 °C")
        XCTAssertTrue(
            presenter(sparse, now: now).nowView().contains("Forecast for Thursday 15 January 2026, 16:00–22:00\n"))
        // The last step is as long as the one before it, and then nothing is for now.
        XCTAssertEqual(try bar(sparse, now: parisTen + 12 * 3600 + 5 * 3600, "{temp}"), "12 °C")
        XCTAssertEqual(try bar(sparse, now: parisTen + 18 * 3600, "{temp}"), "–")
    }

    // MARK: - 2. Staleness from the data's own time

    /// Received a second ago, but every time it holds is 26 hours old.
    private func outdated() -> Forecast {
        let now = parisTen
        var old = forecast(current: CurrentConditions(time: parisTen - 30 * 3600, temperature: 4))
        let shift = -31.0 * 3600
        old.hourly = old.hourly.map { hour in
            var moved = hour
            moved.time += shift
            return moved
        }
        old.daily = []
        old.fetchedAt = now - 1
        // The last hour, 07:00-08:00 yesterday, ended 26 h before now.
        XCTAssertEqual(old.hourly.last.map { $0.time + 3600 }, now - 26 * 3600)
        return old
    }

    func testOutdatedForecast_saysWhenItEnded_neverUpdatedJustNow() throws {
        let text = presenter(outdated(), now: parisTen).nowView()
        XCTAssertFalse(text.contains("Updated just now"), text)
        XCTAssertTrue(text.contains("\nForecast ended 1 day ago (stale)\n"), text)
        XCTAssertTrue(presenter(outdated(), now: parisTen).hourlyView(hours: 3).contains("Forecast ended 1 day ago"))
        XCTAssertTrue(presenter(outdated(), now: parisTen).statusLine().hasSuffix(" (stale)"))
        XCTAssertEqual(try bar(outdated(), now: parisTen, "{updated}"), "forecast ended 1 day ago")
    }

    func testOutdatedForecast_showsNothingAsNow() throws {
        let text = presenter(outdated(), now: parisTen).nowView()
        XCTAssertFalse(text.contains("4 °C"), "yesterday's observation is not now's: \(text)")
        XCTAssertEqual(try bar(outdated(), now: parisTen, "{temp}|{rain}"), "–|–")
    }

    // MARK: - 3. Today is the place's today

    /// Fetched yesterday evening, the answer's only day is yesterday: today's
    /// values are unknown, not yesterday's.
    func testTodayMissingFromTheAnswer_isUnknown_notTheFirstDay() throws {
        let tomorrowTen = parisTen + 86_400
        var yesterdays = forecast()
        yesterdays.hourly = [HourlyForecast(time: tomorrowTen - 1800, temperature: 3, precipProbability: 0)]
        XCTAssertEqual(try bar(yesterdays, now: tomorrowTen, "{high} {low} {sunrise} {sunset}"), "– – – –")
        XCTAssertFalse(presenter(yesterdays, now: tomorrowTen).nowView().contains("Sun "))
    }

    /// Just after local midnight the place's today is already the next day,
    /// while in UTC it is still the day before.
    func testToday_isTheLocalDateAtThePlace() throws {
        var twoDays = forecast()
        twoDays.daily.append(
            DailyForecast(
                time: parisTen + 14 * 3600, temperatureMin: 1, temperatureMax: 9, sunrise: parisTen + 22 * 3600 + 2400))
        let justAfterMidnight = parisTen + 14 * 3600 + 300  // 00:05 in Paris, 23:05 UTC
        twoDays.hourly = [HourlyForecast(time: justAfterMidnight - 300, temperature: 2)]
        XCTAssertEqual(try bar(twoDays, now: justAfterMidnight, "{high} {low} {sunrise}"), "9 °C 1 °C 08:40")
        XCTAssertEqual(try bar(twoDays, now: parisTen, "{high} {low} {sunrise}"), "6 °C -2 °C 08:40")
    }

    // MARK: - 4. Unknown stays unknown

    /// No chance of rain given: `–` in every view, never 0%.
    func testMissingChanceOfRain_isADashInEveryView() throws {
        var unknown = forecast()
        unknown.hourly = (0..<3).map { HourlyForecast(time: parisTen - 3600 + Double($0) * 3600, temperature: 5) }
        unknown.daily = [DailyForecast(time: parisTen - 10 * 3600, temperatureMin: 1, temperatureMax: 7)]
        let view = presenter(unknown, now: parisTen + 60)
        XCTAssertTrue(view.nowView().contains("Chance of rain  –\n"), view.nowView())
        XCTAssertTrue(view.hourlyView(hours: 2).contains("Thu  10:00    5°     –     –\n"), view.hourlyView(hours: 2))
        XCTAssertTrue(view.dailyView().contains("Thu  15 Jan   1°    7°     –     –"), view.dailyView())
        XCTAssertEqual(view.statusLine(), "Paris 5°, –, –")
        XCTAssertEqual(try bar(unknown, now: parisTen + 60, "{rain}|{rain:value}"), "–|–")
        XCTAssertFalse(view.nowView().contains("0%"))
    }

    /// An empty icon or one outside the vocabulary is drawn as unknown, not as a cloud.
    func testUnknownCondition_getsTheUnknownIcon() throws {
        for icon in ["", "tornado", "<b>x</b>"] {
            var odd = forecast()
            odd.hourly = [HourlyForecast(time: parisTen, icon: icon, temperature: 1)]
            XCTAssertEqual(try bar(odd, now: parisTen + 60, "{icon}"), "unknown", icon)
            XCTAssertEqual(try bar(odd, now: parisTen + 60, "{icon}", icons: .emoji), "❔", icon)
            XCTAssertEqual(try bar(odd, now: parisTen + 60, "{icon}", icons: .nerd), "\u{E374}", icon)
        }
        XCTAssertEqual(WeatherIcon.glyph("tornado", style: .text), "unknown")
        XCTAssertEqual(WeatherIcon.glyph("rain", style: .text), "rain")
    }

    /// A weather code Open-Meteo does not document is an unknown condition.
    func testUndocumentedWeatherCode_isShownAsUnknown() throws {
        let answer = #"{"utc_offset_seconds":3600,"hourly":{"time":[1768467600],"weather_code":[42]}}"#
        let parsed = try OpenMeteo.parseForecast(Array(answer.utf8), fetchedAt: parisTen)
        XCTAssertEqual(parsed.hourly.map(\.icon), ["unknown"])
        let values = BarValues(placeName: "X", forecast: parsed, units: .si, now: parisTen + 60, iconStyle: .text)
        XCTAssertEqual(values.text(.icon, bare: false), "unknown")
    }
}
