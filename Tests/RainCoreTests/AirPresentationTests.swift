import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The air in `now`, `hourly`, the template fields and the bar class.
final class AirPresentationTests: XCTestCase {
    /// 2026-01-15T09:00 in Paris (UTC+1): the hour of the made poor-air answer.
    private let parisNine: Double = 1_768_464_000

    private func poorAir() throws -> AirQuality {
        try OpenMeteoAirQuality().parse(
            try Fixtures.bytes("openmeteo-airquality-paris-poor.json"), index: .european, fetchedAt: parisNine + 120)
    }

    private func forecast(air: AirQuality?, uv: Double? = nil) -> Forecast {
        var forecast = Forecast(
            provider: "open-meteo", fetchedAt: parisNine + 60, timeZone: "Europe/Paris", utcOffsetSeconds: 3600,
            current: CurrentConditions(
                time: parisNine, summary: "Overcast", temperature: 3, apparentTemperature: 0, windSpeed: 2,
                windBearing: 90, precipProbability: 0.1, uvIndex: uv),
            hourly: (0..<6).map { index in
                HourlyForecast(
                    time: parisNine + Double(index) * 3600, temperature: 3, windSpeed: 2, precipProbability: 0.1)
            })
        forecast.air = air
        return forecast
    }

    private func presenter(_ forecast: Forecast, now: Double? = nil) -> ForecastPresenter {
        ForecastPresenter(forecast: forecast, placeName: "Paris", units: .si, now: now ?? parisNine + 300)
    }

    func testNow_showsTheAirRowUVWithItsCategoryPollenAndTheAirsCredit() throws {
        let view = presenter(forecast(air: try poorAir(), uv: 6.2)).nowView()
        XCTAssertTrue(view.contains("Air             Poor (European AQI 74), mostly PM2.5\n"), view)
        XCTAssertTrue(view.contains("UV index        6, high\n"), view)
        XCTAssertTrue(view.contains("Pollen          alder 4 grains/m³\n"), view)
        XCTAssertTrue(
            view.hasSuffix(
                "Air quality by Open-Meteo.com (CC BY 4.0), CAMS data © ECMWF https://open-meteo.com/\n"), view)
    }

    func testNow_takesUVFromTheAir_whenTheForecastHasNone() throws {
        let view = presenter(forecast(air: try poorAir())).nowView()
        XCTAssertTrue(view.contains("UV index        0, low\n"), view)
    }

    func testNow_withoutAir_isAsBefore() {
        let view = presenter(forecast(air: nil, uv: 3)).nowView()
        XCTAssertFalse(view.contains("Air "), view)
        XCTAssertFalse(view.contains("Pollen"), view)
        XCTAssertTrue(view.contains("UV index        3, moderate\n"), view)
    }

    func testNow_saysWhenTheLastUpdateFailed_andDropsAirOlderThanSixHours() throws {
        var air = try poorAir()
        air.problem = "HTTP 503; raind tries again later"
        XCTAssertTrue(presenter(forecast(air: air)).nowView().contains("Air quality: last update failed (HTTP 503)\n"))
        let later = presenter(forecast(air: air), now: parisNine + 7 * 3600).nowView()
        XCTAssertFalse(later.contains("Air "), later)
    }

    func testHourly_showsTheIndexInItsOwnColumn() throws {
        let view = presenter(forecast(air: try poorAir())).hourlyView(hours: 3)
        let lines = view.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[1], "Day  Time   Temp  Wind  Rain  AQI")
        // The first hour of the made answer is 09:00 local.
        XCTAssertEqual(lines[2], "Thu  09:00    3°  2m/s   10%   77")
        XCTAssertTrue(view.contains("Air quality by Open-Meteo.com"), view)
        XCTAssertFalse(presenter(forecast(air: nil)).hourlyView(hours: 3).contains("AQI"))
    }

    func testTemplateFields_andTheBarClass() throws {
        let values = BarValues(
            placeName: "Paris", forecast: forecast(air: try poorAir(), uv: 8.1), units: .si, now: parisNine + 300,
            iconStyle: .text)
        let template = try BarTemplate(
            parsing: "{aqi} {aqi_category} {pm25} {pm10:value} {o3} {uv} {uv_category} {pollen} {pollen:value}")
        XCTAssertEqual(template.render(values), "74 Poor 41 µg/m³ 59 12 µg/m³ 8 very high alder 4 4")
        XCTAssertEqual(values.airClass, "aqi-poor")
        let none = BarValues(
            placeName: "Paris", forecast: forecast(air: nil), units: .si, now: parisNine, iconStyle: .text)
        XCTAssertEqual(try BarTemplate(parsing: "{aqi}|{aqi_category}|{pollen}").render(none), "–|–|")
        XCTAssertNil(none.airClass)
    }

    func testTheUSIndex_speaksItsOwnCategories() {
        let air = AirQuality(provider: "open-meteo", fetchedAt: parisNine, index: .us, aqi: 120, dominant: .o3)
        XCTAssertEqual(AirWording.summary(air), "Unhealthy for sensitive groups (US AQI 120), mostly ozone")
        let values = BarValues(
            placeName: "Paris", forecast: forecast(air: air), units: .si, now: parisNine, iconStyle: .text)
        XCTAssertEqual(values.airClass, "aqi-poor")
    }
}
