import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class OpenMeteoProviderTests: XCTestCase {
    private func parse(_ text: String) throws -> Forecast {
        try OpenMeteo.parseForecast(Array(text.utf8), fetchedAt: 1000)
    }

    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ProviderParseError? {
        parseError(of: text, file: file, line: line) { body throws(ProviderParseError) in
            try OpenMeteo.parseForecast(body, fetchedAt: 0)
        }
    }

    // MARK: - Request

    func testForecastPath_requestsCurrentHourlyAndDailyInSIWithUnixTimes() {
        let path = OpenMeteo.forecastPath(latitude: 52.22153, longitude: 6.89366)
        XCTAssertTrue(path.hasPrefix("/v1/forecast?latitude=52.22&longitude=6.89&current="), path)
        for part in [
            "hourly=temperature_2m,apparent_temperature,precipitation_probability,precipitation,weather_code,"
                + "wind_speed_10m,wind_direction_10m,is_day",
            "daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,"
                + "precipitation_probability_max,wind_speed_10m_max,sunrise,sunset",
            "forecast_hours=49", "forecast_days=7", "timezone=auto", "wind_speed_unit=ms", "timeformat=unixtime",
        ] {
            XCTAssertTrue(path.contains(part), "missing \(part) in \(path)")
        }
        XCTAssertFalse(path.contains(" "))
        XCTAssertEqual(OpenMeteo.defaultBaseURL, "https://api.open-meteo.com")
    }

    func testForecastPath_writesSmallAndNegativeCoordinatesWithoutExponent() {
        XCTAssertTrue(
            OpenMeteo.forecastPath(latitude: -0.00001, longitude: -122.4233).hasPrefix(
                "/v1/forecast?latitude=0&longitude=-122.42&"))
    }

    /// The request grid (docs/DEPLOYMENT-PROXY.md): places within the same
    /// 0.01° cell ask the same question, so a site proxy answers them from one entry.
    func testForecastPath_roundsCoordinatesToTheGrid() {
        let centre = OpenMeteo.forecastPath(latitude: 52.2215, longitude: 6.8937)
        XCTAssertEqual(OpenMeteo.forecastPath(latitude: 52.2249, longitude: 6.8851), centre)
        XCTAssertEqual(
            OpenMeteo.forecastPath(latitude: 52.2150, longitude: 6.8850), centre, "halves round away from zero")
        XCTAssertNotEqual(OpenMeteo.forecastPath(latitude: 52.2251, longitude: 6.8937), centre, "the next cell")
        XCTAssertTrue(
            OpenMeteo.forecastPath(latitude: -33.8688, longitude: 151.2093).hasPrefix(
                "/v1/forecast?latitude=-33.87&longitude=151.21&"))
        XCTAssertEqual(ProviderQuery.gridDigits, 2)
    }

    // MARK: - Recorded fixture (ISO 8601 local times, km/h, nulls, "undefined" units)

    func testParse_enschedeFixture_normalizesCurrentConditions() throws {
        let forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-enschede.json"), fetchedAt: 1_791_023_700)
        XCTAssertEqual(forecast.provider, "open-meteo")
        XCTAssertEqual(forecast.fetchedAt, 1_791_023_700)
        XCTAssertEqual(forecast.timeZone, "Europe/Amsterdam")
        XCTAssertEqual(forecast.utcOffsetSeconds, 7200)
        XCTAssertTrue(forecast.alerts.isEmpty)
        let current = try XCTUnwrap(forecast.current)
        // "2026-10-03T12:30" local at UTC+2.
        XCTAssertEqual(current.time, 1_791_023_400)
        XCTAssertEqual(current.summary, "Partly cloudy")
        XCTAssertEqual(current.icon, "partly-cloudy-day")
        XCTAssertEqual(current.temperature, 17.7)
        XCTAssertEqual(current.apparentTemperature, 17.6)
        XCTAssertEqual(try XCTUnwrap(current.humidity), 0.66, accuracy: 1e-12)
        // 3.6 km/h and 11.9 km/h.
        XCTAssertEqual(try XCTUnwrap(current.windSpeed), 1.0, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(current.windGust), 11.9 / 3.6, accuracy: 1e-12)
        XCTAssertEqual(current.windBearing, 259)
        XCTAssertEqual(current.precipIntensity, 0)
        XCTAssertEqual(current.precipProbability, 0)
        XCTAssertEqual(current.pressure, 1030.4)
        XCTAssertEqual(try XCTUnwrap(current.visibility), 36.08, accuracy: 1e-12)
        XCTAssertEqual(current.uvIndex, 2.75)
        XCTAssertEqual(try XCTUnwrap(current.cloudCover), 0.73, accuracy: 1e-12)
    }

    func testParse_enschedeFixture_normalizesHourlyAndDaily() throws {
        let forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-enschede.json"), fetchedAt: 0)
        XCTAssertEqual(forecast.hourly.count, 3)
        // "2026-10-03T00:00" local is 2026-10-02T22:00Z.
        XCTAssertEqual(forecast.hourly.map(\.time), [1_790_978_400, 1_790_982_000, 1_790_985_600])
        XCTAssertEqual(forecast.hourly.map(\.temperature), [11.8, 11.2, 11.0])
        XCTAssertEqual(forecast.hourly.map(\.apparentTemperature), [10.4, 9.8, 9.9])
        XCTAssertEqual(forecast.hourly[0].windSpeed ?? 0, 2.5, accuracy: 1e-12)  // 9 km/h
        XCTAssertEqual(forecast.hourly.map(\.windBearing), [142, 144, 153])
        XCTAssertEqual(forecast.hourly.map(\.summary), ["Clear sky", "Mainly clear", "Mainly clear"])
        XCTAssertEqual(forecast.hourly.map(\.icon), ["clear-night", "clear-night", "clear-night"])
        // Each hour's rain is reported at the next hour; the last hour's is not in the response.
        XCTAssertEqual(forecast.hourly.map(\.precipProbability), [0, 0, nil])

        XCTAssertEqual(forecast.daily.count, 3)
        XCTAssertEqual(forecast.daily.map(\.time), [1_790_978_400, 1_791_064_800, 1_791_151_200])
        XCTAssertEqual(forecast.daily.map(\.temperatureMin), [8.4, 10.8, 11.6])
        XCTAssertEqual(forecast.daily.map(\.temperatureMax), [20.6, 20.2, 22.2])
        XCTAssertEqual(forecast.daily.map(\.summary), ["Overcast", "Fog", "Overcast"])
        XCTAssertEqual(forecast.daily.map(\.icon), ["cloudy", "fog", "cloudy"])
        XCTAssertEqual(forecast.daily.map(\.precipProbability), [0, 0.08, 0])
        XCTAssertEqual(forecast.daily.map(\.precipAccumulation), [0, 0, 0])
        XCTAssertEqual(forecast.daily[2].windSpeed ?? 0, 10.4 / 3.6, accuracy: 1e-12)
        // "2026-10-03T07:36" and "2026-10-03T19:05" local.
        XCTAssertEqual(forecast.daily[0].sunrise, 1_791_005_760)
        XCTAssertEqual(forecast.daily[0].sunset, 1_791_005_760 + 11 * 3600 + 29 * 60)
    }

    // MARK: - Hand-made fixture in the shape of raind's own request

    func testParse_parisUnixtimeFixture_readsRaindsOwnRequestFormat() throws {
        let forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-paris-unixtime.json"), fetchedAt: 1_768_467_000)
        XCTAssertEqual(forecast.timeZone, "Europe/Paris")
        XCTAssertEqual(forecast.utcOffsetSeconds, 3600)
        XCTAssertEqual(forecast.hourly.count, 48)
        XCTAssertEqual(forecast.daily.count, 7)
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.time, 1_768_466_700)
        XCTAssertEqual(current.temperature, -0.4)
        XCTAssertEqual(current.windSpeed, 2.6)  // already m/s
        XCTAssertEqual(current.visibility ?? 0, 8.4, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(current.precipProbability), 0.05, accuracy: 1e-12)
        XCTAssertEqual(current.summary, "Overcast")
        // Hours are consecutive from 09:00 local, 2026-01-15.
        XCTAssertEqual(forecast.hourly[0].time, 1_768_464_000)
        XCTAssertEqual(forecast.hourly[47].time, 1_768_464_000 + 47 * 3600)
        XCTAssertNil(forecast.hourly[5].apparentTemperature)  // null in the fixture
        XCTAssertEqual(forecast.hourly[8].summary, "Rain")
        // The hour 17:00-18:00 takes the rain Open-Meteo reports at 18:00 (the preceding hour).
        XCTAssertEqual(try XCTUnwrap(forecast.hourly[8].precipProbability), 0.75, accuracy: 1e-12)
        XCTAssertEqual(forecast.hourly[8].precipIntensity, 0.9)
        // The last hour's rain would be reported in a row the response does not have: unknown.
        XCTAssertNil(forecast.hourly[47].precipProbability)
        XCTAssertNil(forecast.hourly[47].precipIntensity)
        // Daily times are local midnight; a null probability is unknown.
        XCTAssertEqual(forecast.daily[0].time, 1_768_431_600)
        XCTAssertEqual(forecast.daily[0].summary, "Snow")
        XCTAssertEqual(forecast.daily[0].icon, "snow")
        XCTAssertEqual(forecast.daily[5].summary, "Thunderstorm")
        XCTAssertNil(forecast.daily[6].precipProbability)
        XCTAssertEqual(forecast.daily[6].temperatureMin, -5.6)
        XCTAssertEqual(forecast.daily[5].precipAccumulation, 12.4)
    }

    // MARK: - Units named by the response

    func testParse_convertsFahrenheitMilesPerHourInchesAndFeet() throws {
        let forecast = try parse(
            """
            {"utc_offset_seconds":0,
             "current_units":{"time":"unixtime","temperature_2m":"°F","wind_speed_10m":"mp/h","precipitation":"inch",
                              "visibility":"ft"},
             "current":{"time":0,"interval":900,"temperature_2m":212,"wind_speed_10m":10,"precipitation":0.01,
                        "visibility":3280.84},
             "daily_units":{"time":"unixtime","precipitation_sum":"inch","wind_speed_10m_max":"kn"},
             "daily":{"time":[0],"precipitation_sum":[1],"wind_speed_10m_max":[10]}}
            """)
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(try XCTUnwrap(current.temperature), 100, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(current.windSpeed), 4.4704, accuracy: 1e-9)
        // 0.01 in over 15 minutes is 1.016 mm/h.
        XCTAssertEqual(try XCTUnwrap(current.precipIntensity), 1.016, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(current.visibility), 1.0, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(forecast.daily[0].precipAccumulation), 25.4, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(forecast.daily[0].windSpeed), 10 * 1852 / 3600, accuracy: 1e-9)
    }

    func testParse_unknownUnit_isErrorNamingTheUnitsField() throws {
        let error = try XCTUnwrap(
            parseError(
                #"{"hourly_units":{"temperature_2m":"K"},"hourly":{"time":[0],"temperature_2m":[273.15]}}"#))
        XCTAssertEqual(error.field, "hourly_units.temperature_2m")
        XCTAssertEqual(error.problem, .invalidValue(#"unknown unit "K" for temperature"#))
        XCTAssertTrue(error.description.contains("open-meteo response field hourly_units.temperature_2m"))
    }

    // MARK: - Tolerance

    func testParse_legacyCurrentWeather_isReadAndNotFilledFromTheHour() throws {
        let forecast = try parse(
            """
            {"utc_offset_seconds":3600,"timezone":"Europe/Paris",
             "current_weather":{"time":"2026-01-15T10:00","temperature":3.5,"windspeed":18.0,"winddirection":90,
                                "weathercode":61,"is_day":1},
             "hourly_units":{"time":"iso8601","precipitation_probability":"%"},
             "hourly":{"time":["2026-01-15T10:00","2026-01-15T11:00"],"precipitation_probability":[10,70],
                       "apparent_temperature":[0.5,0.9]}}
            """)
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.time, 1_768_467_600)
        XCTAssertEqual(current.summary, "Light rain")
        XCTAssertEqual(current.icon, "rain")
        XCTAssertEqual(try XCTUnwrap(current.windSpeed), 5, accuracy: 1e-12)  // km/h, the API default
        // The block has neither: the hour's forecast is another thing, shown as such elsewhere.
        XCTAssertNil(current.precipProbability)
        XCTAssertNil(current.apparentTemperature)
        XCTAssertNil(current.precipIntensity)
    }

    func testParse_nullsMissingVariablesAndUnknownFields_areTolerated() throws {
        let forecast = try parse(
            """
            {"something_new":{"x":[1,2]},
             "hourly":{"time":[0,3600,7200],"temperature_2m":[1.5,null],"weather_code":[null,3,95],"extra":"?"}}
            """)
        XCTAssertNil(forecast.current)
        XCTAssertEqual(forecast.daily, [])
        XCTAssertEqual(forecast.hourly.map(\.temperature), [1.5, nil, nil])
        XCTAssertEqual(forecast.hourly.map(\.summary), ["", "Overcast", "Thunderstorm"])
        XCTAssertEqual(forecast.hourly.map(\.precipProbability), [nil, nil, nil])  // unknown, not 0%
        XCTAssertEqual(forecast.timeZone, "")
        XCTAssertEqual(forecast.utcOffsetSeconds, 0)
    }

    func testParse_missingOrNullPrecipitationProbability_isUnknown() throws {
        let forecast = try parse(
            #"{"daily":{"time":[0,86400],"temperature_2m_max":[4,5],"precipitation_probability_max":[null]}}"#)
        XCTAssertNil(forecast.daily[0].precipProbability)
        XCTAssertNil(forecast.daily[1].precipProbability)
    }

    // MARK: - Errors

    func testParse_notJSON_isNotJSONError() throws {
        let error = try XCTUnwrap(parseError("<html>502 Bad Gateway</html>"))
        guard case .notJSON = error.problem else { return XCTFail("\(error)") }
        XCTAssertEqual(error.field, "")
        XCTAssertTrue(error.description.hasPrefix("open-meteo response is not JSON"), error.description)
    }

    func testParse_truncatedBody_isNotJSONError() throws {
        let error = try XCTUnwrap(parseError(#"{"hourly":{"time":[0,36"#))
        guard case .notJSON = error.problem else { return XCTFail("\(error)") }
    }

    func testParse_errorObject_isProviderReportedWithReason() throws {
        let error = try XCTUnwrap(
            parseError(#"{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}"#))
        XCTAssertEqual(error.problem, .providerReported("Latitude must be in range of -90 to 90°. Given: 91.0."))
    }

    func testParse_noWeatherBlocks_isMissingError() throws {
        let error = try XCTUnwrap(parseError(#"{"latitude":1,"longitude":2}"#))
        XCTAssertEqual(error.problem, .missing)
        XCTAssertEqual(error.field, "current, hourly, daily")
    }

    func testParse_topLevelArray_isWrongType() throws {
        let error = try XCTUnwrap(parseError("[1,2]"))
        XCTAssertEqual(error.problem, .wrongType(expected: "an object", got: "an array"))
    }

    func testParse_wrongTypeInColumn_namesIndexedPath() throws {
        let error = try XCTUnwrap(parseError(#"{"hourly":{"time":[0,3600],"temperature_2m":[1,"warm"]}}"#))
        XCTAssertEqual(error.field, "hourly.temperature_2m[1]")
        XCTAssertEqual(error.problem, .wrongType(expected: "a number", got: "a string"))
        XCTAssertEqual(
            error.description, "open-meteo response field hourly.temperature_2m[1]: expected a number, got a string")
    }

    func testParse_hourlyWithoutTime_isMissingTime() throws {
        let error = try XCTUnwrap(parseError(#"{"hourly":{"temperature_2m":[1]}}"#))
        XCTAssertEqual(error.field, "hourly.time")
        XCTAssertEqual(error.problem, .missing)
    }

    func testParse_malformedLocalTime_isInvalidValue() throws {
        let error = try XCTUnwrap(parseError(#"{"daily":{"time":["2026-10-03","tomorrow"]}}"#))
        XCTAssertEqual(error.field, "daily.time[1]")
        guard case .invalidValue(let reason) = error.problem else { return XCTFail("\(error)") }
        XCTAssertTrue(reason.contains("\"tomorrow\""), reason)
    }
}

extension OpenMeteoProviderTests {
    func testParse_absurdOffset_isInvalidValueNotACrash() throws {
        let error = try XCTUnwrap(parseError(#"{"utc_offset_seconds":1e300,"daily":{"time":[0]}}"#))
        XCTAssertEqual(error.field, "utc_offset_seconds")
        guard case .invalidValue = error.problem else { return XCTFail("\(error)") }
    }

    func testParse_malformedWeatherCode_givesNoSummary() throws {
        let forecast = try parse(#"{"hourly":{"time":[0,1,2],"weather_code":[1e300,2.5,-1]}}"#)
        XCTAssertEqual(forecast.hourly.map(\.summary), ["", "", ""])
        XCTAssertEqual(forecast.hourly.map(\.icon), ["", "", ""])
    }

    func testParse_hugeTimes_presentWithoutTrapping() throws {
        let forecast = try parse(#"{"utc_offset_seconds":0,"daily":{"time":[1e300,-1e300]}}"#)
        let text = ForecastPresenter(forecast: forecast, placeName: "X", units: .si, now: -1e300).dailyView()
        XCTAssertTrue(text.hasPrefix("X, next"), text)
        XCTAssertEqual(AgeText.describe(ageSeconds: 1e300), "11,574,074,074 days ago")
    }

    // MARK: - Readings the documentation asks for

    /// "Precipitation (rain + showers + snow) sum of the preceding hour" and
    /// "Probability of precipitation with more than 0.1 mm of the preceding
    /// hour" (open-meteo.com/en/docs, hourly variables).
    func testParse_hourlyPrecipitationAtT_becomesTheRainOfTheHourEndingAtT() throws {
        let forecast = try parse(
            """
            {"hourly_units":{"precipitation":"mm","precipitation_probability":"%"},
             "hourly":{"time":[0,3600,7200,14400],"precipitation":[9,0.4,2.0,5],
                       "precipitation_probability":[99,20,null,70]}}
            """)
        // Row 00:00 (the hour 00:00-01:00) takes what is reported at 01:00.
        XCTAssertEqual(forecast.hourly.map(\.precipIntensity), [0.4, 2.0, nil, nil])
        XCTAssertEqual(forecast.hourly.map(\.precipProbability), [0.2, nil, nil, nil])
    }

    /// The server writes sunrise = sunset = local midnight for polar night and
    /// sunset one day after sunrise for polar day (open-meteo/open-meteo#844).
    func testParse_tromso_polarDayInJune_polarNightInDecember() throws {
        let june = try OpenMeteo.parseForecast(try Fixtures.bytes("openmeteo-forecast-tromso-june.json"), fetchedAt: 0)
        XCTAssertEqual(june.daily.map(\.polar), Array(repeating: .day, count: 7))
        XCTAssertEqual(june.daily.map(\.sunrise), Array(repeating: nil, count: 7))
        let december = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-tromso-december.json"), fetchedAt: 0)
        XCTAssertEqual(december.daily.map(\.polar), Array(repeating: .night, count: 7))
        XCTAssertEqual(december.daily.map(\.sunset), Array(repeating: nil, count: 7))
    }

    func testSun_ordinaryDaysKeepTheirTimes_andThe1970FormIsUnknown() {
        let day = 1_768_431_600.0
        XCTAssertTrue(
            OpenMeteo.sun(sunrise: day + 30_000, sunset: day + 60_000, day: day) == (day + 30_000, day + 60_000, nil))
        XCTAssertTrue(OpenMeteo.sun(sunrise: 0, sunset: 0, day: day) == (nil, nil, nil))
        // A 25-hour polar day (the clock goes back) is still a polar day.
        XCTAssertTrue(OpenMeteo.sun(sunrise: day, sunset: day + 90_000, day: day) == (nil, nil, .day))
    }

    func testCountedCalls_followThePricingFAQ() {
        XCTAssertEqual(OpenMeteo.countedCalls(variables: 10, days: 7), 1)
        XCTAssertEqual(OpenMeteo.countedCalls(variables: 15, days: 7), 1.5)
        XCTAssertEqual(OpenMeteo.countedCalls(variables: 20, days: 28), 4)
        XCTAssertEqual(OpenMeteo.countedCalls(variables: 3, days: 1), 1)
        XCTAssertEqual(OpenMeteo.callsPerRequest, 3.1)  // raind's 31 variables over 7 days
    }
}
