import XCTest

@testable import RainCore

final class ForecastPresenterTests: XCTestCase {
    /// 2026-01-15T10:00 in Paris (UTC+1), a Thursday.
    private let parisTen: Double = 1_768_467_600

    private func sample(current: CurrentConditions? = nil) -> Forecast {
        Forecast(
            provider: "test", fetchedAt: parisTen - 240, timeZone: "Europe/Paris", utcOffsetSeconds: 3600,
            current: current
                ?? CurrentConditions(
                    time: parisTen, summary: "Light rain", temperature: 12.2, apparentTemperature: 10.6,
                    windSpeed: 5.0, windBearing: 260, precipProbability: 0.3),
            hourly: (0..<30).map { index in
                HourlyForecast(
                    time: parisTen - 3600 + Double(index) * 3600, temperature: Double(index),
                    windSpeed: 2, precipProbability: 0.1)
            },
            daily: (0..<8).map { index in
                DailyForecast(
                    time: parisTen - 10 * 3600 + Double(index - 1) * 86_400, summary: "Day \(index)",
                    temperatureMin: -1, temperatureMax: 4, windSpeed: 3, precipProbability: 0.5)
            })
    }

    private func presenter(
        _ forecast: Forecast, units: UnitSystem = .si, now: Double? = nil, stale: Bool = false
    )
        -> ForecastPresenter
    {
        ForecastPresenter(forecast: forecast, placeName: "Paris", units: units, now: now ?? parisTen, isStale: stale)
    }

    // MARK: - Status line

    func testStatusLine_showsPlaceTemperatureSummaryWindAndRain() {
        XCTAssertEqual(presenter(sample()).statusLine(), "Paris 12° Light rain, 5m/s, 30%")
        XCTAssertEqual(presenter(sample(), units: .us).statusLine(), "Paris 54° Light rain, 11mph, 30%")
        XCTAssertEqual(presenter(sample(), units: .ca).statusLine(), "Paris 12° Light rain, 18km/h, 30%")
    }

    func testStatusLine_whenStale_isMarked() {
        XCTAssertEqual(presenter(sample(), stale: true).statusLine(), "Paris 12° Light rain, 5m/s, 30% (stale)")
    }

    func testStatusLine_withoutCurrent_usesHourInProgress() {
        var forecast = sample()
        forecast.current = nil
        XCTAssertEqual(presenter(forecast, now: parisTen + 1800).statusLine(), "Paris 1°, 2m/s, 10%")
        forecast.hourly = []
        XCTAssertEqual(presenter(forecast).statusLine(), "Paris –, –, –")
    }

    // MARK: - Views

    func testNowView_whenStale_marksUpdatedLine() {
        let text = presenter(sample(), now: parisTen + 7200, stale: true).nowView()
        XCTAssertTrue(text.hasSuffix("Updated 2 h ago (stale)\nWeather data by test\n"), text)
    }

    func testNowView_showsLocalDateTimeFeelsLikeAndWindDirection() {
        XCTAssertEqual(
            presenter(sample()).nowView(),
            """
            Paris
            Thursday 15 January 2026, 10:00
            12 °C  Light rain
            Feels like      11 °C
            Wind            5 m/s W
            Chance of rain  30%
            Updated 4 min ago
            Weather data by test

            """)
    }

    func testHourlyView_startsWithHourInProgressAndLimitsCount() {
        let lines = presenter(sample(), now: parisTen + 1800).hourlyView(hours: 3).split(separator: "\n")
        XCTAssertEqual(
            lines,
            [
                "Paris, next 3 hours", "Day  Time   Temp  Wind  Rain", "Thu  10:00    1°  2m/s   10%",
                "     11:00    2°  2m/s   10%", "     12:00    3°  2m/s   10%", "Updated 34 min ago",
                "Weather data by test",
            ])
    }

    func testValuesFromAnotherStation_sayWhichFromWhereHowFarAndHowMuchLower() {
        var forecast = sample()
        forecast.current?.sources = [
            ValueSource(
                values: ["temperature", "humidity"], station: "Freiburg", distanceMetres: 21_400,
                heightDifferenceMetres: -1_253.6),
            ValueSource(values: [], station: "Potsdam", distanceMetres: 27_913, heightDifferenceMetres: nil),
        ]
        let view = presenter(forecast).nowView()
        XCTAssertTrue(
            view.contains("\nTemperature, humidity from Freiburg, 21 km, 1,254 m lower\nObserved at Potsdam, 28 km\n"),
            view)
        let tooltip = presenter(forecast).tooltipView()
        XCTAssertTrue(tooltip.contains("\nTemperature, humidity from Freiburg, 21 km, 1,254 m lower\n"), tooltip)
        // The hour in progress standing in is the forecast's, from no station.
        XCTAssertFalse(presenter(forecast, now: parisTen + 3 * 3600).nowView().contains("Freiburg"))
    }

    func testHourlyView_ofSixHourData_showsTheHoursAskedFor() {
        var forecast = sample()
        forecast.hourly = (0..<20).map { index in
            HourlyForecast(
                time: parisTen + Double(index) * 6 * 3600, temperature: Double(index), windSpeed: 2,
                precipProbability: 0.1)
        }
        let lines = presenter(forecast).hourlyView(hours: 48).split(separator: "\n")
        XCTAssertEqual(lines.first, "Paris, next 48 hours")
        // 10:00 today to 04:00 the day after tomorrow: 8 rows of 6 hours, not 48 rows (288 hours).
        XCTAssertEqual(lines.filter { $0.contains("°") }.count, 8, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("Sat  04:00") }, lines.joined(separator: "\n"))
        // Data that ends sooner says how many hours it covers.
        forecast.hourly = Array(forecast.hourly.prefix(3))
        XCTAssertEqual(presenter(forecast).hourlyView(hours: 48).split(separator: "\n").first, "Paris, next 18 hours")
    }

    func testHourlyView_marksDayChange() {
        let text = presenter(sample()).hourlyView(hours: 24)
        XCTAssertTrue(text.contains("\nFri  00:00"), text)
        XCTAssertTrue(text.contains("\n     23:00"), text)
    }

    func testHourlyView_whenAllHoursPast_saysSo() {
        let text = presenter(sample(), now: parisTen + 40 * 3600).hourlyView(hours: 12)
        XCTAssertTrue(text.hasPrefix("Paris\nNo hourly forecast from now on.\n"), text)
    }

    func testDailyView_startsWithTodayAndLimitsCount() {
        let text = presenter(sample()).dailyView(days: 2)
        XCTAssertEqual(
            text,
            """
            Paris, next 2 days
            Day  Date    Low  High  Wind  Rain  Summary
            Thu  15 Jan  -1°    4°  3m/s   50%  Day 1
            Fri  16 Jan  -1°    4°  3m/s   50%  Day 2
            Updated 4 min ago
            Weather data by test

            """)
    }

    // MARK: - Pieces

    func testAgeText_wordsForEachRange() {
        XCTAssertEqual(AgeText.describe(ageSeconds: -30), "just now")
        XCTAssertEqual(AgeText.describe(ageSeconds: 59), "just now")
        XCTAssertEqual(AgeText.describe(ageSeconds: 4 * 60 + 59), "4 min ago")
        XCTAssertEqual(AgeText.describe(ageSeconds: 3599), "59 min ago")
        XCTAssertEqual(AgeText.describe(ageSeconds: 2 * 3600 + 100), "2 h ago")
        XCTAssertEqual(AgeText.describe(ageSeconds: 86_400), "1 day ago")
        XCTAssertEqual(AgeText.describe(ageSeconds: 3 * 86_400 + 5), "3 days ago")
        XCTAssertEqual(AgeText.describe(ageSeconds: .nan), "just now")
    }

    func testCompassPoint_roundsToEightPoints() {
        XCTAssertEqual(ForecastPresenter.compassPoint(degrees: 0), "N")
        XCTAssertEqual(ForecastPresenter.compassPoint(degrees: 359), "N")
        XCTAssertEqual(ForecastPresenter.compassPoint(degrees: 22.4), "N")
        XCTAssertEqual(ForecastPresenter.compassPoint(degrees: 22.5), "NE")
        XCTAssertEqual(ForecastPresenter.compassPoint(degrees: 205), "SW")
        XCTAssertEqual(ForecastPresenter.compassPoint(degrees: -90), "W")
    }

    func testTextTable_alignsColumnsWithoutTrailingSpaces() {
        var table = TextTable([.left, .right, .left])
        table.append(["a", "1", ""])
        table.append(["long", "100", "x"])
        XCTAssertEqual(table.lines(), ["a       1", "long  100  x"])
    }
}
