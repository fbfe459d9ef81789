import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class PirateWeatherProviderTests: XCTestCase {
    private func parse(_ text: String) throws -> Forecast {
        try PirateWeather.parseForecast(Array(text.utf8), fetchedAt: 1000)
    }

    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ProviderParseError? {
        parseError(of: text, file: file, line: line) { body throws(ProviderParseError) in
            try PirateWeather.parseForecast(body, fetchedAt: 0)
        }
    }

    func testForecastPath_putsKeyAndCoordinatesInPathAndAsksForSI() {
        XCTAssertEqual(
            PirateWeather.forecastPath(apiKey: "abc123", latitude: 37.8267, longitude: -122.4233),
            "/forecast/abc123/37.83,-122.42?units=si")
        XCTAssertEqual(PirateWeather.defaultBaseURL, "https://api.pirateweather.net")
    }

    func testForecastPath_withoutKey_isForASiteProxyThatAddsIt() {
        XCTAssertEqual(
            PirateWeather.forecastPath(apiKey: nil, latitude: 37.8267, longitude: -122.4233),
            "/forecast/37.83,-122.42?units=si")
    }

    func testForecastPath_percentEncodesOddKeys() {
        XCTAssertEqual(
            PirateWeather.forecastPath(apiKey: "a/b?c d", latitude: 1, longitude: 2),
            "/forecast/a%2Fb%3Fc%20d/1,2?units=si")
    }

    // MARK: - Recorded fixture, units=us

    func testParse_sanFranciscoUSFixture_convertsToSI() throws {
        let forecast = try PirateWeather.parseForecast(
            try Fixtures.bytes("pirateweather-forecast-san-francisco.json"), fetchedAt: 1_759_697_300)
        XCTAssertEqual(forecast.provider, "pirateweather")
        XCTAssertEqual(forecast.timeZone, "America/Los_Angeles")
        XCTAssertEqual(forecast.utcOffsetSeconds, -25_200)
        XCTAssertEqual(forecast.alerts, [])

        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.time, 1_759_697_220)
        XCTAssertEqual(current.summary, "Clear")
        XCTAssertEqual(current.icon, "clear-day")
        XCTAssertEqual(try XCTUnwrap(current.temperature), (62.64 - 32) * 5 / 9, accuracy: 1e-9)  // 17.02 °C
        XCTAssertEqual(try XCTUnwrap(current.apparentTemperature), (57.61 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(current.windSpeed), 13.39 * 0.44704, accuracy: 1e-9)  // 5.99 m/s
        XCTAssertEqual(try XCTUnwrap(current.windGust), 13.78 * 0.44704, accuracy: 1e-9)
        XCTAssertEqual(current.windBearing, 254)
        XCTAssertEqual(try XCTUnwrap(current.visibility), 16.09344, accuracy: 1e-9)  // 10 mi
        XCTAssertEqual(current.pressure, 1009.77)
        XCTAssertEqual(current.humidity, 0.85)
        XCTAssertEqual(current.precipProbability, 0)
        XCTAssertEqual(current.precipIntensity, 0)
        XCTAssertEqual(current.cloudCover, 0.02)
        XCTAssertEqual(current.uvIndex, 5.69)

        XCTAssertEqual(forecast.hourly.count, 1)
        XCTAssertEqual(forecast.hourly[0].time, 1_759_694_400)
        XCTAssertEqual(try XCTUnwrap(forecast.hourly[0].temperature), (64.02 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(forecast.hourly[0].windSpeed), 7.15 * 0.44704, accuracy: 1e-9)

        XCTAssertEqual(forecast.daily.count, 1)
        let day = forecast.daily[0]
        XCTAssertEqual(day.time, 1_759_647_600)  // local midnight, UTC-7
        XCTAssertEqual(day.summary, "Clear starting in the afternoon.")
        XCTAssertEqual(try XCTUnwrap(day.temperatureMin), (57.96 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(day.temperatureMax), (65.14 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(day.windSpeed), 6.07 * 0.44704, accuracy: 1e-9)
        XCTAssertEqual(day.precipAccumulation, 0)
        XCTAssertEqual(day.sunrise, 1_759_673_369)
        XCTAssertEqual(day.sunset, 1_759_715_147)
    }

    // MARK: - Hand-made fixture, units=si (raind's own request)

    func testParse_bostonSIFixture_keepsSIValuesAndReadsAlerts() throws {
        let forecast = try PirateWeather.parseForecast(
            try Fixtures.bytes("pirateweather-forecast-boston-si.json"), fetchedAt: 1_768_936_100)
        XCTAssertEqual(forecast.timeZone, "America/New_York")
        XCTAssertEqual(forecast.utcOffsetSeconds, -18_000)
        XCTAssertEqual(forecast.hourly.count, 6)
        XCTAssertEqual(forecast.daily.count, 4)
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.temperature, -2.7)
        XCTAssertEqual(current.windSpeed, 8.0)
        XCTAssertEqual(current.visibility, 1.8)
        XCTAssertEqual(current.precipIntensity, 1.6)
        XCTAssertEqual(current.precipProbability, 0.88)
        // 3.8 cm of snow is 38 mm.
        XCTAssertEqual(try XCTUnwrap(forecast.daily[0].precipAccumulation), 38, accuracy: 1e-9)
        XCTAssertEqual(forecast.daily[2].temperatureMin, -11.2)

        XCTAssertEqual(forecast.alerts.count, 1)
        let alert = forecast.alerts[0]
        XCTAssertEqual(alert.title, "Winter Storm Warning")
        XCTAssertEqual(alert.severity, .severe)
        XCTAssertEqual(alert.regions, ["Suffolk", "Norfolk", "Middlesex"])
        XCTAssertEqual(alert.start, 1_768_885_200 + 6 * 3600)
        XCTAssertEqual(alert.end, 1_768_885_200 + 31 * 3600)
        XCTAssertTrue(alert.description.hasPrefix("* WHAT...Heavy snow."))
        XCTAssertTrue(alert.uri.hasPrefix("https://alerts.weather.gov/"))
    }

    func testParse_missingPrecipProbability_isZero() throws {
        let forecast = try PirateWeather.parseForecast(
            try Fixtures.bytes("pirateweather-forecast-boston-si.json"), fetchedAt: 0)
        XCTAssertEqual(forecast.hourly[5].precipProbability, 0)
        XCTAssertEqual(forecast.daily[2].precipProbability, 0)
        XCTAssertEqual(forecast.hourly[0].precipProbability, 0.9)
    }

    // MARK: - Other unit systems

    func testParse_caUnits_convertsKilometresPerHour() throws {
        let forecast = try parse(
            #"{"flags":{"units":"ca"},"offset":-4.5,"currently":{"time":5,"temperature":-1.5,"windSpeed":36,"visibility":9}}"#
        )
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.temperature, -1.5)
        XCTAssertEqual(try XCTUnwrap(current.windSpeed), 10, accuracy: 1e-12)
        XCTAssertEqual(current.visibility, 9)
        XCTAssertEqual(forecast.utcOffsetSeconds, -16_200)
    }

    func testParse_uk2Units_convertsMilesPerHourAndMiles() throws {
        let forecast = try parse(
            #"{"flags":{"units":"uk2"},"hourly":{"data":[{"time":0,"temperature":4,"windSpeed":10,"precipIntensity":0.5}]},"#
                + #""currently":{"time":0,"visibility":5}}"#)
        XCTAssertEqual(forecast.hourly[0].temperature, 4)
        XCTAssertEqual(try XCTUnwrap(forecast.hourly[0].windSpeed), 4.4704, accuracy: 1e-12)
        XCTAssertEqual(forecast.hourly[0].precipIntensity, 0.5)
        XCTAssertEqual(try XCTUnwrap(forecast.current?.visibility), 8.04672, accuracy: 1e-12)
    }

    func testParse_missingFlags_meansUSUnits() throws {
        let forecast = try parse(#"{"currently":{"time":0,"temperature":50,"precipIntensity":0.1}}"#)
        XCTAssertEqual(try XCTUnwrap(forecast.current?.temperature), 10, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(forecast.current?.precipIntensity), 2.54, accuracy: 1e-12)
    }

    /// temperatureHigh is the daytime high and temperatureLow the overnight
    /// low: not the day's maximum and minimum, so never put in their place.
    func testParse_dailyWithOnlyHighAndLow_leavesMaxAndMinUnknown() throws {
        let forecast = try parse(
            #"{"flags":{"units":"si"},"daily":{"data":[{"time":0,"temperatureHigh":9,"temperatureLow":2}]}}"#)
        XCTAssertNil(forecast.daily[0].temperatureMax)
        XCTAssertNil(forecast.daily[0].temperatureMin)
    }

    func testParse_nullsAndMissingBlocks_areTolerated() throws {
        let forecast = try parse(
            #"{"flags":{"units":"si"},"currently":{"time":0,"temperature":null,"summary":null},"hourly":null,"#
                + #""daily":{"summary":"x"},"alerts":null,"new":[1]}"#)
        XCTAssertNil(forecast.current?.temperature)
        XCTAssertEqual(forecast.current?.summary, "")
        XCTAssertEqual(forecast.hourly, [])
        XCTAssertEqual(forecast.daily, [])
        XCTAssertEqual(forecast.alerts, [])
    }

    // MARK: - Errors

    func testParse_unknownUnits_isInvalidValueAtFlagsUnits() throws {
        let error = try XCTUnwrap(parseError(#"{"flags":{"units":"metric"},"currently":{"time":0}}"#))
        XCTAssertEqual(error.field, "flags.units")
        guard case .invalidValue = error.problem else { return XCTFail("\(error)") }
    }

    func testParse_errorBody_isProviderReported() throws {
        let error = try XCTUnwrap(parseError(#"{"code":400,"error":"The given location is invalid."}"#))
        XCTAssertEqual(error.problem, .providerReported("The given location is invalid."))
        XCTAssertEqual(error.description, "pirateweather reported an error: The given location is invalid.")
    }

    func testParse_pointWithoutTime_isMissingWithIndexedPath() throws {
        let error = try XCTUnwrap(
            parseError(#"{"flags":{"units":"si"},"hourly":{"data":[{"time":0},{"temperature":3}]}}"#))
        XCTAssertEqual(error.field, "hourly.data[1].time")
        XCTAssertEqual(error.problem, .missing)
    }

    func testParse_wrongType_namesField() throws {
        let error = try XCTUnwrap(parseError(#"{"currently":{"time":0,"temperature":"hot"}}"#))
        XCTAssertEqual(error.field, "currently.temperature")
        XCTAssertEqual(error.problem, .wrongType(expected: "a number", got: "a string"))
    }

    func testParse_alertRegionNotString_isWrongType() throws {
        let error = try XCTUnwrap(
            parseError(#"{"currently":{"time":0},"alerts":[{"title":"x","regions":["a",7]}]}"#))
        XCTAssertEqual(error.field, "alerts[0].regions[1]")
    }

    func testParse_emptyBody_isNotJSON() throws {
        let error = try XCTUnwrap(parseError(""))
        guard case .notJSON = error.problem else { return XCTFail("\(error)") }
        XCTAssertTrue(error.description.hasPrefix("pirateweather response is not JSON"))
    }
}

extension PirateWeatherProviderTests {
    func testParse_offsetBeyondEighteenHours_isInvalidValue() throws {
        let error = try XCTUnwrap(parseError(#"{"offset":25,"currently":{"time":0}}"#))
        XCTAssertEqual(error.field, "offset")
        XCTAssertEqual(error.description, "pirateweather response field offset: UTC offset 25.0 is outside ±18 hours")
    }

    // MARK: - The -999 marker (docs/API.md: missing data is -999)

    func testParse_missingMarker_readsAsAbsentInEveryKindOfField() throws {
        let forecast = try PirateWeather.parseForecast(
            try Fixtures.bytes("pirateweather-forecast-kathmandu-missing.json"), fetchedAt: 1_768_478_400)
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.temperature, 12.3)
        XCTAssertNil(current.apparentTemperature)
        XCTAssertNil(current.humidity)
        XCTAssertNil(current.windGust)
        XCTAssertNil(current.uvIndex)
        XCTAssertNil(current.visibility)
        XCTAssertNil(current.precipProbability)  // -999 is unknown, not 0
        XCTAssertNil(forecast.hourly[2].temperature)
        XCTAssertNil(forecast.hourly[2].precipProbability)
        XCTAssertNil(forecast.hourly[3].windSpeed)
        XCTAssertNil(forecast.hourly[3].windBearing)
        XCTAssertNil(forecast.hourly[3].precipIntensity)
        XCTAssertNil(forecast.hourly[4].precipProbability)  // written -999.0
        XCTAssertEqual(forecast.hourly[5].precipProbability, 0.05)
        XCTAssertNil(forecast.daily[1].sunrise)
        XCTAssertNil(forecast.daily[1].sunset)
        XCTAssertNil(forecast.daily[1].polar)  // Kathmandu is far from the polar circles: just missing
        XCTAssertNil(forecast.daily[1].temperatureMin)  // Min and its Low stand-in both -999
        XCTAssertNil(forecast.daily[1].precipProbability)
        XCTAssertNil(forecast.daily[2].windSpeed)
        // No number anywhere in the model is the marker, converted or not.
        let text = forecast.json.serialized()
        XCTAssertFalse(text.contains("-999"), text)
        XCTAssertFalse(text.contains("-573"), text)
    }

    func testParse_alertWithoutExpiry_hasNoEnd_andAlertsAreMostSevereFirst() throws {
        let forecast = try PirateWeather.parseForecast(
            try Fixtures.bytes("pirateweather-forecast-kathmandu-missing.json"), fetchedAt: 1_768_478_400)
        XCTAssertEqual(forecast.alerts.map(\.severity), [.severe, .moderate, .minor])
        XCTAssertEqual(forecast.alerts.map(\.title), ["Air Quality Alert", "Cold Wave Warning", "Fog Advisory"])
        XCTAssertNil(forecast.alerts[0].start)  // time -999
        XCTAssertNil(forecast.alerts[1].end)  // expires -999: no known end
        // Shown while the provider sends it; the expired one is not.
        let text = ForecastPresenter(forecast: forecast, placeName: "Kathmandu", units: .si, now: 1_768_478_700)
            .nowView()
        XCTAssertTrue(text.contains("Alert (Severe): Air Quality Alert until"), text)
        XCTAssertTrue(text.contains("Alert (Moderate): Cold Wave Warning\n"), text)
        XCTAssertFalse(text.contains("Fog Advisory"), text)
    }

    func testAlertSeverity_readsProviderWordsAndOrders() {
        XCTAssertEqual(AlertSeverity(providerText: "Extreme"), .extreme)
        XCTAssertEqual(AlertSeverity(providerText: "severe"), .severe)
        XCTAssertEqual(AlertSeverity(providerText: "warning"), .unknown)
        XCTAssertEqual(AlertSeverity(providerText: ""), .unknown)
        XCTAssertEqual(
            [AlertSeverity.unknown, .minor, .extreme, .moderate, .severe].sorted(),
            [.extreme, .severe, .moderate, .minor, .unknown])
    }

    func testParse_noSunTimesInsideThePolarCircle_isPolarDayOrNightBySeason() throws {
        func day(_ time: Int, latitude: Double) throws -> DailyForecast {
            try XCTUnwrap(
                parse(
                    #"{"latitude":\#(latitude),"flags":{"units":"si"},"daily":{"data":[{"time":\#(time),"sunriseTime":-999,"sunsetTime":-999}]}}"#
                ).daily.first)
        }
        let june = 1_782_000_000  // 2026-06-21 00:00 UTC
        let december = 1_797_811_200  // 2026-12-21 00:00 UTC
        XCTAssertEqual(try day(june, latitude: 69.65).polar, .day)
        XCTAssertEqual(try day(december, latitude: 69.65).polar, .night)
        XCTAssertEqual(try day(june, latitude: -75.1).polar, .night)
        XCTAssertNil(try day(june, latitude: 48.85).polar)
        let text = ForecastPresenter(
            forecast: Forecast(
                provider: PirateWeather.providerName, fetchedAt: Double(december),
                current: CurrentConditions(time: Double(december)), daily: [try day(december, latitude: 69.65)]),
            placeName: "Tromsø", units: .si, now: Double(december)
        ).nowView()
        XCTAssertTrue(text.contains("no sunrise (polar night)"), text)
    }
}
