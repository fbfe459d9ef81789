import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class NWSProviderTests: XCTestCase {
    private let provider = NWSProvider()
    private let now = 1_800_000_000.0

    private func place(_ countryCode: String, _ latitude: Double, _ longitude: Double) -> Location {
        Location(
            id: LocationID("place"), name: "Place", countryCode: countryCode, latitude: latitude, longitude: longitude,
            timeZone: "America/New_York", source: .coordinates)
    }

    private var newYork: TimeZoneRules? { Fixtures.zoneInfo.rules(named: "America/New_York") }

    private func recorded(_ name: String) throws -> [[UInt8]] {
        try provider.answerRoles.enumerated().map { index, role in
            try Fixtures.bytes("nws-forecast-\(name).\(index + 1)-\(role).json")
        }
    }

    private func lookup(_ name: String) throws -> ProviderLookup {
        try NWS.parseLookup(try Fixtures.bytes("nws-lookup-\(name).json"), now: now)
    }

    /// A grid answer with no layers: every hour's grid values unknown.
    private let emptyGrid = #"{"properties": {"gridId": "TAE", "gridX": 58, "gridY": 65}}"#

    private func parse(
        hourly: String, grid: String? = nil, periods: String = #"{"properties": {"periods": []}}"#,
        zone: TimeZoneRules? = nil, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError) -> Forecast {
        try NWS.parseForecast(
            [Array(hourly.utf8), Array((grid ?? emptyGrid).utf8), Array(periods.utf8)], zone: zone,
            fetchedAt: now, leftOut: leftOut)
    }

    private func hours(_ periods: String) -> String { #"{"properties": {"periods": [\#(periods)]}}"# }

    private func hour(_ start: String, _ end: String, _ more: String = "") -> String {
        #"{"startTime": "\#(start)", "endTime": "\#(end)", "temperature": 50, "temperatureUnit": "F"\#(more)}"#
    }

    private func parseError(
        hourly: String, grid: String? = nil, periods: String = #"{"properties": {"periods": []}}"#,
        file: StaticString = #filePath, line: UInt = #line
    ) -> ProviderParseError? {
        do {
            _ = try parse(hourly: hourly, grid: grid, periods: periods)
            XCTFail("parsed", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Plan

    func testPlan_withoutLookup_asksPointsOnTheGrid_forGeoJSON() {
        let plan = provider.plan(for: place("US", 45.784, -108.506), units: .us, key: nil, lookup: nil, now: now)
        XCTAssertEqual(
            plan, .lookup(ProviderRequest(path: "/points/45.78,-108.51", headers: ["Accept": "application/geo+json"])))
        XCTAssertEqual(NWS.pointsPath(latitude: 30, longitude: -85), "/points/30,-85")
        XCTAssertEqual(provider.defaultBaseURL, "https://api.weather.gov")
    }

    func testPlan_forAPlaceOutsideTheUnitedStates_isNotCovered_withoutAsking() {
        for country in ["FR", "CA", "MX", "fj"] {
            XCTAssertEqual(
                provider.plan(for: place(country, 48.85, 2.35), units: .si, key: nil, lookup: nil, now: now),
                .notCovered("the NWS covers only the United States and its territories"), country)
        }
        for country in ["US", "PR", "GU", "VI", "AS", "MP", "UM", "us"] {
            guard
                case .lookup = provider.plan(
                    for: place(country, 18.4, -66.1), units: .si, key: nil, lookup: nil, now: now)
            else { return XCTFail("\(country) is the NWS's") }
        }
    }

    func testPlan_forAPlaceOfUnknownCountry_looksItUp_andThePointsAnswerSays() throws {
        guard
            case .lookup(let request) = provider.plan(
                for: place("", 0.004999, -0.005), units: .si, key: nil, lookup: nil, now: now)
        else { return XCTFail("an unknown country is looked up") }
        XCTAssertEqual(request.path, "/points/0,-0.01")
        let invalidPoint = #"""
            {"correlationId": "3b59d1fd", "title": "Data Unavailable For Requested Point",
             "type": "https://api.weather.gov/problems/InvalidPoint", "status": 404,
             "detail": "Unable to provide data for requested point 0,-0.01", "instance": "https://api.weather.gov/requests/3b59d1fd"}
            """#
        do {
            _ = try NWS.parseLookup(Array(invalidPoint.utf8), now: now)
            XCTFail("a point outside the grids is no lookup")
        } catch {
            XCTAssertEqual(error.provider, "nws")
            XCTAssertEqual(error.problem, .notCovered("the NWS covers only the United States and its territories"))
        }
    }

    func testPlan_withALookup_asksHourlyGridAndPeriods_ofItsCell() throws {
        let plan = provider.plan(
            for: place("US", 30, -85), units: .us, key: nil, lookup: try lookup("sumatra-fl"), now: now)
        let accept = ["Accept": "application/geo+json"]
        XCTAssertEqual(
            plan,
            .forecast([
                ProviderRequest(path: "/gridpoints/TAE/58,65/forecast/hourly", headers: accept),
                ProviderRequest(path: "/gridpoints/TAE/58,65", headers: accept),
                ProviderRequest(path: "/gridpoints/TAE/58,65/forecast", headers: accept),
            ]))
        XCTAssertEqual(provider.answerRoles, ["hourly", "grid", "periods"])
    }

    func testPlan_withALookupThatIsNotWellFormed_looksThePlaceUpAgain() {
        let good = ["office": "TAE", "gridX": "58", "gridY": "65"]
        let bad: [[String: String]] = [
            [:], ["office": "TAE", "gridX": "58"], good.merging(["office": "../x"]) { $1 },
            good.merging(["office": "tae"]) { $1 }, good.merging(["office": "TAEE"]) { $1 },
            good.merging(["gridX": "-1"]) { $1 }, good.merging(["gridX": "1e3"]) { $1 },
            good.merging(["gridY": "58/../1"]) { $1 }, good.merging(["gridY": "007"]) { $1 },
            good.merging(["gridY": "9999"]) { $1 }, good.merging(["timeZone": "../../etc/passwd x"]) { $1 },
        ]
        for values in bad {
            guard
                case .lookup = provider.plan(
                    for: place("US", 30, -85), units: .si, key: nil,
                    lookup: ProviderLookup(values: values, expiresAt: now + 60), now: now)
            else { return XCTFail("used \(values)") }
        }
        guard
            case .forecast = provider.plan(
                for: place("US", 30, -85), units: .si, key: nil,
                lookup: ProviderLookup(values: good, expiresAt: now + 60),
                now: now)
        else { return XCTFail("a good lookup is used") }
    }

    // MARK: - Lookup

    func testParseLookup_recordedPoints_keepOfficeCellAndZone_forAWeek() throws {
        XCTAssertEqual(
            try lookup("sumatra-fl"),
            ProviderLookup(
                values: [
                    "office": "TAE", "gridX": "58", "gridY": "65", "timeZone": "America/New_York",
                    // The zones the place's alerts are asked by (NWSAlertZones).
                    "forecastZone": "FLZ015", "county": "FLC037", "fireWeatherZone": "FLZ015",
                ],
                expiresAt: now + 7 * 86_400))
        XCTAssertEqual(
            try lookup("billings-mt").values,
            [
                "office": "BYZ", "gridX": "103", "gridY": "92", "timeZone": "America/Denver",
                "forecastZone": "MTZ235", "county": "MTC111", "fireWeatherZone": "MTZ128",
            ])
        XCTAssertNil(try lookup("billings-mt").validationProblem)
    }

    func testParseLookup_aPointWithoutAGrid_isNotCovered_andBadCellsAreRefused() {
        func problem(_ properties: String) -> ProviderParseError.Problem? {
            do {
                _ = try NWS.parseLookup(Array(#"{"properties": {\#(properties)}}"#.utf8), now: now)
                return nil
            } catch {
                return error.problem
            }
        }
        XCTAssertEqual(
            problem(#""gridId": "AFC", "gridX": null, "gridY": null"#),
            .notCovered("the NWS has no forecast grid for this point"))
        XCTAssertEqual(problem(#""gridX": 1, "gridY": 2"#), .missing)
        XCTAssertEqual(
            problem(#""gridId": "T/E", "gridX": 1, "gridY": 2"#),
            .invalidValue("\"T/E\" is not a forecast office (three letters)"))
        XCTAssertEqual(
            problem(#""gridId": 7, "gridX": 1, "gridY": 2"#), .wrongType(expected: "a string", got: "a number"))
        for number in ["58.5", "-1", "2001", "\"58\""] {
            XCTAssertNotNil(problem(#""gridId": "TAE", "gridX": \#(number), "gridY": 2"#), number)
        }
        XCTAssertEqual(
            problem(#""gridId": "TAE", "gridX": 1, "gridY": 2, "timeZone": "America/New York""#),
            .invalidValue("\"America/New York\" is not a time zone name"))
        XCTAssertNil(problem(#""gridId": "TAE", "gridX": 0, "gridY": 2000"#))
    }

    // MARK: - Recorded forecast (2019 answers; the grid is of 2022)

    func testParse_recordedSumatra_hoursFromTheHourlyAnswer_inSI() throws {
        let forecast = try provider.parseForecast(
            try recorded("sumatra-fl"), for: place("US", 30, -85), zone: newYork, fetchedAt: now
        ) { _ in }
        XCTAssertEqual(forecast.provider, "nws")
        XCTAssertEqual(forecast.timeZone, "America/New_York")
        XCTAssertEqual(forecast.utcOffsetSeconds, newYork?.offset(at: now))
        XCTAssertNil(forecast.current, "the NWS's answers hold no observation")
        XCTAssertEqual(forecast.alerts, [])
        XCTAssertNil(forecast.nowcast)
        XCTAssertEqual(forecast.attribution.text, "Data from the U.S. National Weather Service (public domain)")

        XCTAssertEqual(forecast.hourly.count, 156)
        let first = forecast.hourly[0]
        XCTAssertEqual(first.time, 1_571_097_600)  // 2019-10-14T20:00:00-04:00
        XCTAssertEqual(try XCTUnwrap(first.temperature), (78 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(first.windSpeed, 0)
        XCTAssertEqual(first.windBearing, 180)  // S
        XCTAssertEqual(forecast.hourly[1].windBearing, 225)  // SW
        XCTAssertEqual(first.icon, "partly-cloudy-night")  // night/sct
        XCTAssertEqual(first.summary, "Partly Cloudy")
        let storm = forecast.hourly[20]  // 2019-10-15T16:00:00-04:00
        XCTAssertEqual(storm.time, 1_571_169_600)
        XCTAssertEqual(try XCTUnwrap(storm.windSpeed), 5 * 0.44704, accuracy: 1e-12)  // "5 mph"
        XCTAssertEqual(storm.icon, "thunderstorm")  // day/tsra
        XCTAssertEqual(storm.summary, "Showers And Thunderstorms Likely")
        XCTAssertEqual(forecast.hourly[10].icon, "partly-cloudy-day")  // day/bkn
        XCTAssertEqual(forecast.hourly[155].icon, "thunderstorm")  // day/tsra_sct

        // The 2019 shape has no chance of rain, and the recorded grid (2022) covers none of these hours.
        for hour in forecast.hourly {
            XCTAssertNil(hour.precipProbability)
            XCTAssertNil(hour.apparentTemperature)
            XCTAssertNil(hour.precipIntensity)
        }
    }

    func testParse_recordedSumatra_daysFromThePeriods_inThePlacesZone() throws {
        let forecast = try provider.parseForecast(
            try recorded("sumatra-fl"), for: place("US", 30, -85), zone: newYork, fetchedAt: now
        ) { _ in }
        // This Afternoon (13th) ... Saturday Night (19th): a day for each date a period starts on.
        XCTAssertEqual(forecast.daily.count, 7)
        let celsius = { (fahrenheit: Double) in (fahrenheit - 32) * 5 / 9 }
        let today = forecast.daily[0]
        XCTAssertEqual(today.time, 1_570_939_200)  // 2019-10-13T00:00:00-04:00
        XCTAssertEqual(try XCTUnwrap(today.temperatureMax), celsius(88), accuracy: 1e-9)
        XCTAssertNil(today.temperatureMin, "the afternoon's forecast has no low for its past morning")
        XCTAssertEqual(today.summary, "Partly Sunny")
        XCTAssertEqual(today.icon, "partly-cloudy-day")  // day/bkn
        XCTAssertEqual(today.windSpeed, 5 * 0.44704)
        XCTAssertNil(today.precipProbability)
        XCTAssertNil(today.precipAccumulation)
        XCTAssertNil(today.sunrise)
        XCTAssertNil(today.sunset)

        let monday = forecast.daily[1]  // Columbus Day, after Tonight's low of 68
        XCTAssertEqual(monday.time, 1_570_939_200 + 86_400)
        XCTAssertEqual(try XCTUnwrap(monday.temperatureMax), celsius(88), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(monday.temperatureMin), celsius(68), accuracy: 1e-9)
        XCTAssertEqual(monday.summary, "Mostly Sunny then Chance Showers And Thunderstorms")
        XCTAssertEqual(monday.icon, "thunderstorm")  // day/sct/tsra_hi,30: the more significant half
        XCTAssertEqual(forecast.daily[2].windSpeed, 5 * 0.44704)  // "0 to 5 mph": its top

        let saturday = forecast.daily[6]
        XCTAssertEqual(try XCTUnwrap(saturday.temperatureMax), celsius(85), accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(saturday.temperatureMin), celsius(61), accuracy: 1e-9)  // Friday Night
        XCTAssertEqual(saturday.icon, "thunderstorm")
    }

    // MARK: - Hand-made forecast of 2022, on the recorded grid

    func testParse_gridValues_fillTheHoursTheirIntervalsCover() throws {
        let forecast = try provider.parseForecast(
            try recorded("sumatra-fl-2022"), for: place("US", 30, -85), zone: newYork, fetchedAt: now
        ) { _ in }
        XCTAssertEqual(forecast.hourly.count, 48)
        let first = forecast.hourly[0]  // 2022-02-04T03:00Z
        XCTAssertEqual(first.time, 1_643_943_600)
        XCTAssertEqual(try XCTUnwrap(first.temperature), (66 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(first.windSpeed), 8 * 0.44704, accuracy: 1e-12)
        XCTAssertEqual(first.precipProbability, 0.01)  // the hour's own, new shape
        XCTAssertEqual(first.apparentTemperature, 18.88888888888889)  // 01:00Z/PT10H
        XCTAssertEqual(first.precipIntensity, 0)  // 00:00Z/PT6H: 0 mm

        let rainy = forecast.hourly[6]  // 09:00Z: 2.032 mm over 06:00Z/PT6H
        XCTAssertEqual(rainy.time, 1_643_965_200)
        XCTAssertEqual(try XCTUnwrap(rainy.precipIntensity), 2.032 / 6, accuracy: 1e-12)
        XCTAssertEqual(rainy.precipProbability, 0.31)
        XCTAssertEqual(rainy.icon, "thunderstorm")
        XCTAssertEqual(rainy.summary, "Chance Showers And Thunderstorms")
        XCTAssertEqual(forecast.hourly[8].apparentTemperature, 18.333333333333332)  // 11:00Z/PT1H

        // Friday 4 February: the day's high, and the low of the night before.
        let friday = try XCTUnwrap(forecast.daily.first { $0.time == 1_643_950_800 })  // 2022-02-04T00:00-05:00
        XCTAssertEqual(try XCTUnwrap(friday.temperatureMax), (72 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(friday.temperatureMin), (64 - 32) * 5 / 9, accuracy: 1e-9)
        XCTAssertEqual(friday.precipProbability, 0.87)
        XCTAssertEqual(friday.icon, "thunderstorm")
        XCTAssertEqual(try XCTUnwrap(friday.windSpeed), 8 * 0.44704, accuracy: 1e-12)  // "7 to 8 mph"
        // Thursday 3 February, from 22:00: only a night, so neither a high nor a low.
        let tonight = forecast.daily[0]
        XCTAssertEqual(tonight.time, 1_643_950_800 - 86_400)
        XCTAssertNil(tonight.temperatureMax)
        XCTAssertNil(tonight.temperatureMin)
        XCTAssertEqual(tonight.summary, "Mostly Cloudy then Chance Showers And Thunderstorms")
        XCTAssertEqual(tonight.icon, "thunderstorm")
    }

    func testParse_anHourWithoutAChance_takesTheGrids_andUnknownStaysUnknown() throws {
        let grid = #"""
            {"properties": {
              "probabilityOfPrecipitation": {"uom": "wmoUnit:percent", "values": [
                {"validTime": "2022-02-04T09:00:00+00:00/PT3H", "value": 31},
                {"validTime": "2022-02-04T12:00:00+00:00/PT2H", "value": null}]},
              "quantitativePrecipitation": {"uom": "wmoUnit:mm", "values": [
                {"validTime": "2022-02-04T06:00:00+00:00/PT6H", "value": 3}]}}}
            """#
        let forecast = try parse(
            hourly: hours(
                [
                    hour("2022-02-04T04:00:00-05:00", "2022-02-04T05:00:00-05:00"),
                    hour("2022-02-04T06:00:00-05:00", "2022-02-04T07:00:00-05:00"),
                    hour("2022-02-04T07:00:00-05:00", "2022-02-04T08:00:00-05:00"),
                    hour(
                        "2022-02-04T10:00:00-05:00", "2022-02-04T11:00:00-05:00",
                        #", "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": null}"#),
                ].joined(separator: ",")), grid: grid)
        // 09:00 and 11:00 UTC in the grid's 09:00/PT3H; 12:00 in a null; 15:00 in none.
        XCTAssertEqual(forecast.hourly.map(\.precipProbability), [0.31, 0.31, nil, nil])
        XCTAssertEqual(forecast.hourly.map(\.precipIntensity), [0.5, 0.5, nil, nil])
        XCTAssertEqual(forecast.hourly.map(\.apparentTemperature), [nil, nil, nil, nil])
        XCTAssertEqual(forecast.hourly.map(\.icon), ["unknown", "unknown", "unknown", "unknown"])
        XCTAssertEqual(forecast.hourly.map(\.summary), ["", "", "", ""])
        XCTAssertEqual(forecast.hourly.map(\.windSpeed), [nil, nil, nil, nil])
        XCTAssertEqual(forecast.daily, [])
        XCTAssertEqual(forecast.utcOffsetSeconds, -5 * 3600, "without the zone, the offset the hours are written in")
        XCTAssertEqual(forecast.timeZone, "")
    }

    // MARK: - Days across a clock change

    /// 6 November 2022 in New York: 25 hours, from 00:00 EDT to 00:00 EST.
    private let fallBack = #"""
        {"properties": {"periods": [
          {"name": "Saturday", "startTime": "2022-11-05T06:00:00-04:00", "endTime": "2022-11-05T18:00:00-04:00",
           "isDaytime": true, "temperature": 70, "temperatureUnit": "F", "windSpeed": "5 to 10 mph"},
          {"name": "Saturday Night", "startTime": "2022-11-05T18:00:00-04:00", "endTime": "2022-11-06T06:00:00-05:00",
           "isDaytime": false, "temperature": 50, "temperatureUnit": "F"},
          {"name": "Sunday", "startTime": "2022-11-06T06:00:00-05:00", "endTime": "2022-11-06T18:00:00-05:00",
           "isDaytime": true, "temperature": 20, "temperatureUnit": "C",
           "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": 40},
           "icon": "https://api.weather.gov/icons/land/day/rain_showers,40?size=medium", "shortForecast": "Chance Rain Showers"},
          {"name": "Sunday Night", "startTime": "2022-11-06T18:00:00-05:00", "endTime": "2022-11-07T06:00:00-05:00",
           "isDaytime": false, "temperature": 45, "temperatureUnit": "F"},
          {"name": "Monday", "startTime": "2022-11-07T06:00:00-05:00", "endTime": "2022-11-07T18:00:00-05:00",
           "isDaytime": true, "temperature": 60, "temperatureUnit": "F"}]}}
        """#

    func testDays_acrossTheChangeToStandardTime_areLocalDays_withOrWithoutTheZone() throws {
        let hourly = hours(hour("2022-11-05T06:00:00-04:00", "2022-11-05T07:00:00-04:00"))
        for zone in [newYork, nil] {
            let days = try parse(hourly: hourly, periods: fallBack, zone: zone).daily
            XCTAssertEqual(
                days.map(\.time), [1_667_620_800, 1_667_707_200, 1_667_797_200],
                "zone \(String(describing: zone?.name))")
            XCTAssertEqual(days[1].time - days[0].time, 86_400)
            XCTAssertEqual(days[2].time - days[1].time, 25 * 3600, "6 November has 25 hours")
            let sunday = days[1]
            XCTAssertEqual(sunday.temperatureMax, 20)
            XCTAssertEqual(try XCTUnwrap(sunday.temperatureMin), 10, accuracy: 1e-9)  // Saturday Night, 50 °F
            XCTAssertEqual(sunday.precipProbability, 0.4)
            XCTAssertEqual(sunday.icon, "rain")
            XCTAssertEqual(sunday.summary, "Chance Rain Showers")
            XCTAssertEqual(try XCTUnwrap(days[0].windSpeed), 10 * 0.44704, accuracy: 1e-12)
            XCTAssertEqual(try XCTUnwrap(days[2].temperatureMin), (45 - 32) * 5 / 9, accuracy: 1e-9)
        }
    }

    // MARK: - Values

    func testWindSpeedText_isReadInItsUnit_aRangeByItsTop() throws {
        XCTAssertEqual(try XCTUnwrap(NWSPeriod.windSpeed(text: "10 mph")), 4.4704, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(NWSPeriod.windSpeed(text: "5 to 10 mph")), 4.4704, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(NWSPeriod.windSpeed(text: "18 km/h")), 5, accuracy: 1e-12)
        XCTAssertEqual(NWSPeriod.windSpeed(text: "0 mph"), 0)
        for text in ["calm", "10", "mph", "10 to 5 mph", "-5 mph", "5 to mph", "10 mph G25", "1e3 mph", "10 furlongs"] {
            XCTAssertNil(NWSPeriod.windSpeed(text: text), text)
        }
    }

    func testUnreadableTexts_stayUnknown_andAreNotedOnce() throws {
        var notes: [String] = []
        let forecast = try parse(
            hourly: hours(
                [
                    hour(
                        "2022-02-04T04:00:00-05:00", "2022-02-04T05:00:00-05:00",
                        #", "windSpeed": "Calm", "windDirection": "VRB""#),
                    hour(
                        "2022-02-04T05:00:00-05:00", "2022-02-04T06:00:00-05:00",
                        #", "windSpeed": "Gusty", "windDirection": "NW""#),
                ].joined(separator: ",")), leftOut: { notes.append($0) })
        XCTAssertEqual(forecast.hourly.map(\.windSpeed), [nil, nil])
        XCTAssertEqual(forecast.hourly.map(\.windBearing), [nil, 315])
        XCTAssertEqual(
            notes,
            [
                "nws sent a wind direction raind cannot read (\"VRB\" at hourly.properties.periods[0].windDirection); such values are left unknown",
                "nws sent a wind speed raind cannot read (\"Calm\" at hourly.properties.periods[0].windSpeed); such values are left unknown",
            ])
    }

    func testQuantitativeValues_ofTheFeatureFlags_areReadToo() throws {
        let forecast = try parse(
            hourly: hours(
                #"""
                {"startTime": "2022-02-04T04:00:00-05:00", "endTime": "2022-02-04T05:00:00-05:00",
                 "temperature": {"unitCode": "wmoUnit:degC", "value": 18.5},
                 "windSpeed": {"unitCode": "wmoUnit:km_h-1", "minValue": 9, "maxValue": 18, "value": null}}
                """#))
        XCTAssertEqual(forecast.hourly[0].temperature, 18.5)
        XCTAssertEqual(try XCTUnwrap(forecast.hourly[0].windSpeed), 5, accuracy: 1e-12)
    }

    func testImplausibleValues_areUnknown() throws {
        let forecast = try parse(
            hourly: hours(
                #"""
                {"startTime": "2022-02-04T04:00:00-05:00", "endTime": "2022-02-04T05:00:00-05:00",
                 "temperature": 999, "temperatureUnit": "F", "windSpeed": "900 mph",
                 "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": 150}}
                """#),
            grid: #"""
                {"properties": {"apparentTemperature": {"uom": "wmoUnit:degC", "values": [
                  {"validTime": "2022-02-04T09:00:00+00:00/PT1H", "value": -300}]},
                  "quantitativePrecipitation": {"uom": "wmoUnit:mm", "values": [
                  {"validTime": "2022-02-04T09:00:00+00:00/PT1H", "value": -2}]}}}
                """#)
        let hour = forecast.hourly[0]
        XCTAssertNil(hour.temperature)
        XCTAssertNil(hour.windSpeed)
        XCTAssertNil(hour.precipProbability)
        XCTAssertNil(hour.apparentTemperature)
        XCTAssertNil(hour.precipIntensity)
    }

    func testBrokenAnswers_areRefused_namingTheAnswerAndField() {
        let good = hours(hour("2022-02-04T04:00:00-05:00", "2022-02-04T05:00:00-05:00"))
        XCTAssertEqual(
            parseError(
                hourly: hours(
                    hour("2022-02-04T04:00:00-05:00", "2022-02-04T05:00:00-05:00", #", "temperatureUnit": "K""#)))?
                .field,
            "hourly.properties.periods[0].temperatureUnit")
        XCTAssertEqual(
            parseError(hourly: hours(hour("2022-02-04T04:00:00-05:00", "2022-02-04T06:00:00-05:00")))?.description,
            "nws response field hourly.properties.periods[0]: lasts 7200 s; an hourly forecast's periods last an hour")
        XCTAssertEqual(
            parseError(
                hourly: hours(
                    [
                        hour("2022-02-04T05:00:00-05:00", "2022-02-04T06:00:00-05:00"),
                        hour("2022-02-04T04:00:00-05:00", "2022-02-04T05:00:00-05:00"),
                    ].joined(separator: ",")))?.field, "hourly.properties.periods[1]")
        XCTAssertEqual(
            parseError(hourly: hours(hour("2022-02-04 04:00", "2022-02-04T05:00:00-05:00")))?.description,
            "nws response field hourly.properties.periods[0].startTime: \"2022-02-04 04:00\" is not an ISO 8601 time with a UTC offset"
        )
        XCTAssertEqual(parseError(hourly: hours(""))?.problem, .invalidValue("no periods"))
        XCTAssertEqual(
            parseError(
                hourly: good,
                grid:
                    #"{"properties": {"quantitativePrecipitation": {"uom": "wmoUnit:mm", "values": [{"validTime": "2022-02-04T06:00:00+00:00/P1M", "value": 1}]}}}"#
            )?.field, "grid.properties.quantitativePrecipitation.values[0].validTime")
        XCTAssertEqual(
            parseError(
                hourly: good,
                grid: #"{"properties": {"apparentTemperature": {"uom": "wmoUnit:km_h-1", "values": []}}}"#)?
                .description,
            "nws response field grid.properties.apparentTemperature.uom: unit \"wmoUnit:km_h-1\" is not a temperature")
        XCTAssertEqual(
            parseError(
                hourly: good,
                grid:
                    #"{"correlationId": "ba82", "title": "Forecast Grid Expired", "type": "https://api.weather.gov/problems/ForecastGridExpired", "status": 503, "detail": "The requested forecast grid was issued 2022-02-03T03:15:41+00:00 and has expired."}"#
            )?.description,
            "nws reported an error: Forecast Grid Expired: The requested forecast grid was issued 2022-02-03T03:15:41+00:00 and has expired."
        )
        XCTAssertEqual(parseError(hourly: good, grid: "{}")?.field, "grid.properties")
        XCTAssertEqual(parseError(hourly: good, grid: "<html>")?.field, "grid")
        XCTAssertEqual(
            parseError(
                hourly: good,
                periods: hours(#"{"startTime": "2022-02-04T06:00:00-05:00", "endTime": "2022-02-04T18:00:00-05:00"}"#))?
                .field,
            "periods.properties.periods[0].isDaytime")
        XCTAssertEqual(
            parseError(
                hourly: hours(hour("2022-02-04T04:00:00-05:00", "2022-02-04T05:00:00-05:00", #", "isDaytime": "yes""#)))?
                .problem,
            .wrongType(expected: "a boolean", got: "a string"))
        do {
            _ = try NWS.parseForecast([Array(good.utf8)], zone: nil, fetchedAt: now)
            XCTFail("one answer of three")
        } catch {
            XCTAssertEqual(error.problem, .invalidValue("expected 3 answers (hourly, grid, periods), got 1"))
        }
    }

    func testIcons_followTheConditionCodeOfTheURL() {
        let cases: [(String, String)] = [
            ("https://api.weather.gov/icons/land/day/tsra,40?size=small", "thunderstorm"),
            ("https://api.weather.gov/icons/land/night/skc?size=small", "clear-night"),
            ("https://api.weather.gov/icons/land/day/few", "clear-day"),
            ("https://api.weather.gov/icons/land/day/bkn?size=medium", "partly-cloudy-day"),
            ("https://api.weather.gov/icons/land/night/ovc", "cloudy"),
            ("https://api.weather.gov/icons/land/day/wind_bkn", "wind"),
            ("https://api.weather.gov/icons/land/day/rain_showers_hi,20", "rain"),
            ("https://api.weather.gov/icons/land/night/snow,60", "snow"),
            ("https://api.weather.gov/icons/land/day/rain_snow,70", "sleet"),
            ("https://api.weather.gov/icons/land/day/fzra,70", "sleet"),
            ("https://api.weather.gov/icons/land/day/haze", "fog"),
            ("https://api.weather.gov/icons/land/day/hurricane", "wind"),
            ("https://api.weather.gov/icons/land/day/tornado", "thunderstorm"),
            ("https://api.weather.gov/icons/land/day/sct/tsra_hi,30?size=medium", "thunderstorm"),
            ("https://api.weather.gov/icons/land/night/rain,50/snow,60", "snow"),
            ("https://api.weather.gov/icons/land/day/hot/sct", "partly-cloudy-day"),
            ("https://api.weather.gov/icons/land/day/hot?size=small", "unknown"),
            ("https://api.weather.gov/icons/land/day/sct/newthing", "unknown"),
            ("https://api.weather.gov/icons/land/dusk/sct", "unknown"),
            ("https://api.weather.gov/icons/land/day/sct,101", "unknown"),
            ("https://api.weather.gov/icons/land/day/sct,-5", "unknown"),
            ("https://api.weather.gov/icons/land/day/a/b/c", "unknown"),
            ("https://api.weather.gov/icons/land/day", "unknown"),
            ("https://example.com/sun.png", "unknown"),
            ("", "unknown"),
        ]
        for (url, icon) in cases {
            XCTAssertEqual(NWSIcon.icon(url: url), icon, url)
        }
    }

    func testTimes_areReadStrictly() {
        XCTAssertEqual(NWSTime.instant("2019-10-14T20:00:00-04:00")?.seconds, 1_571_097_600)
        XCTAssertEqual(NWSTime.instant("2019-10-14T20:00:00-04:00")?.offset, -4 * 3600)
        XCTAssertEqual(NWSTime.instant("2019-10-15T00:00:00+00:00")?.seconds, 1_571_097_600)
        XCTAssertEqual(NWSTime.instant("2019-10-15T00:00:00Z")?.seconds, 1_571_097_600)
        XCTAssertEqual(NWSTime.instant("2019-10-15T05:45:00+05:45")?.seconds, 1_571_097_600)
        for text in [
            "2019-10-15T00:00:00", "2019-10-15T00:00:00.5Z", "2019-10-15 00:00:00Z", "2019-13-15T00:00:00Z",
            "2019-10-15T00:00:00+19:00", "2019-10-15T00:00:00+0400", "2019-10-15T24:00:00Z", "",
        ] {
            XCTAssertNil(NWSTime.instant(text), text)
        }
        let durations: [(String, Double?)] = [
            ("PT1H", 3600), ("PT3H", 10_800), ("P1DT6H", 108_000), ("P7DT14H", 655_200), ("PT30M", 1800),
            ("PT1H30M15S", 5415), ("P2D", 172_800), ("P2W", 1_209_600), ("P1W1D", nil), ("P1M", nil), ("P1Y", nil),
            ("PT", nil), ("P", nil), ("P1DT", nil), ("PT1.5H", nil), ("-PT1H", nil), ("PT0H", nil), ("P1H", nil),
            ("PT1M1H", nil), ("P32D", nil), ("PT1H ", nil), ("T1H", nil), ("PT1HT1M", nil), ("P1DP1D", nil),
        ]
        for (text, seconds) in durations {
            XCTAssertEqual(NWSTime.duration(text), seconds, text)
        }
        XCTAssertEqual(
            NWSTime.interval("2022-02-04T03:00:00+00:00/PT3H").map { [$0.start, $0.end] },
            [1_643_943_600, 1_643_954_400])
        for text in [
            "2022-02-04T03:00:00+00:00", "2022-02-04T03:00:00+00:00/", "/PT3H", "2022-02-04T03:00:00+00:00/PT3H/PT1H",
        ] {
            XCTAssertNil(NWSTime.interval(text), text)
        }
    }

    // MARK: - Terms and refusals

    func testTerms_keylessIdentifiedFairUse_inTheUnitedStates() {
        let terms = provider.terms
        XCTAssertFalse(terms.needsKey)
        XCTAssertTrue(terms.requiresIdentification)
        XCTAssertEqual(
            terms.quota,
            ProviderQuota(callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 4))
        XCTAssertEqual(terms.coordinateDigits, 2)
        XCTAssertTrue(terms.coverage.covers(countryCode: "US"))
        XCTAssertTrue(terms.coverage.covers(countryCode: "pr"))
        XCTAssertFalse(terms.coverage.covers(countryCode: "CA"))
        XCTAssertEqual(provider.attribution.url, "https://www.weather.gov/")
        XCTAssertEqual(WeatherProviders.provider(.nws).name.rawValue, "nws")
        XCTAssertEqual(ProviderName.nws.stem, "nws")
    }

    func testRefusal_readsTheProblemDocument() {
        let body =
            #"{"correlationId": "1", "title": "Rate limit exceeded", "type": "https://api.weather.gov/problems/RateLimit", "status": 429, "detail": "Too many\nrequests"}"#
        XCTAssertEqual(
            provider.refusal(in: Array(body.utf8), now: now),
            ProviderRefusal(reason: "Rate limit exceeded: Too many requests"))
        XCTAssertNil(provider.refusal(in: Array("<html>Access Denied</html>".utf8), now: now))
        XCTAssertNil(provider.refusal(in: Array(#"{"properties": {}}"#.utf8), now: now))
    }
}
