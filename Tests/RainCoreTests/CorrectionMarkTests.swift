import XCTest

@testable import RainCore

/// Every view marks a temperature raind corrected by the measured bias
/// (`Forecast.correction`), says what the mark means, and marks nothing
/// the provider's own.
final class CorrectionMarkTests: XCTestCase {
    /// 2026-01-15T10:00 in Paris (UTC+1).
    private let ten: Double = 1_768_467_600

    /// The provider's forecast, with the hours from 10:00 to 12:00, today's low and the current temperature corrected by 2 °C.
    private func corrected() -> Forecast {
        var forecast = Forecast(
            provider: "open-meteo", attribution: Attribution(text: "Data", url: ""), fetchedAt: ten - 240,
            timeZone: "Europe/Paris", utcOffsetSeconds: 3600,
            current: CurrentConditions(time: ten, summary: "Overcast", temperature: 10, windSpeed: 3),
            hourly: (0..<6).map { HourlyForecast(time: ten + Double($0) * 3600, temperature: 10 + Double($0)) },
            daily: [DailyForecast(time: ten - 10 * 3600, summary: "Rain", temperatureMin: 4, temperatureMax: 15)])
        forecast.correction = TemperatureCorrection(
            station: "Paris-Montsouris",
            values: [.init(value: .current, time: ten, provider: 12, bias: 2, pairs: 30)]
                + (0..<3).map { .init(value: .hour, time: ten + Double($0) * 3600, provider: 12, bias: 2, pairs: 30) }
                + [.init(value: .low, time: ten - 10 * 3600, provider: 6, bias: 2, pairs: 30)])
        return forecast
    }

    private func view(_ forecast: Forecast) -> ForecastPresenter {
        ForecastPresenter(forecast: forecast, placeName: "Paris", units: .si, now: ten + 60)
    }

    private let note = "* open-meteo: temperatures corrected by its measured bias at Paris-Montsouris"

    func testEveryView_marksTheCorrectedValues_andSaysWhatTheMarkMeans() {
        let presenter = view(corrected())
        let now = presenter.nowView()
        XCTAssertTrue(now.contains("10 °C*  Overcast"), now)
        XCTAssertTrue(now.contains(note), now)

        let hourly = presenter.hourlyView(hours: 5)
        XCTAssertTrue(hourly.contains("10:00  10°*"), hourly)
        XCTAssertTrue(hourly.contains("13:00  13° "), "the provider's own, aligned: \(hourly)")
        XCTAssertTrue(hourly.contains(note), hourly)

        let daily = presenter.dailyView()
        XCTAssertTrue(daily.contains("4°*"), daily)
        XCTAssertTrue(daily.contains("15° "), daily)
        XCTAssertTrue(daily.contains(note), daily)

        let tooltip = presenter.tooltipView()
        XCTAssertTrue(tooltip.contains("Paris: 10 °C*  Overcast"), tooltip)
        XCTAssertTrue(tooltip.contains("11:00 11°*"), tooltip)
        XCTAssertTrue(tooltip.contains("Today: 4°* to 15°"), tooltip)
        XCTAssertTrue(tooltip.contains(note), tooltip)

        XCTAssertEqual(presenter.statusLine(), "Paris 10°* Overcast, 3m/s, –")

        let values = BarValues(placeName: "Paris", forecast: corrected(), units: .si, now: ten + 60, iconStyle: .text)
        XCTAssertEqual(values.text(.temp, bare: false), "10 °C*")
        XCTAssertEqual(values.text(.temp, bare: true), "10", "a number for scripts stays a number")
        XCTAssertEqual(values.text(.low, bare: false), "4 °C*")
        XCTAssertEqual(values.text(.high, bare: false), "15 °C")
    }

    func testUncorrectedForecast_hasNoMarkNorNote() {
        var forecast = corrected()
        forecast.correction = nil
        let presenter = view(forecast)
        for text in [
            presenter.nowView(), presenter.hourlyView(hours: 5), presenter.dailyView(), presenter.tooltipView(),
            presenter.statusLine(),
        ] {
            XCTAssertFalse(text.contains("*"), text)
            XCTAssertFalse(text.contains("temperatures corrected"), text)
        }
    }

    func testUncorrected_givesBackTheProvidersOwn() {
        let own = corrected().uncorrected
        XCTAssertNil(own.correction)
        XCTAssertEqual(own.current?.temperature, 12)
        XCTAssertEqual(own.hourly.map(\.temperature), [12, 12, 12, 13, 14, 15])
        XCTAssertEqual(own.daily.first?.temperatureMin, 6)
        XCTAssertEqual(own.daily.first?.temperatureMax, 15)
    }
}
