import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class MetNorwayProviderTests: XCTestCase {
    private let provider = MetNorwayProvider()

    private func place(_ name: String) throws -> Location {
        try XCTUnwrap(ProviderConformanceTests.recordedPlaces()[name], "\(name) is in recorded-places.json")
    }

    private func zone(_ name: String) throws -> TimeZoneRules {
        try XCTUnwrap(Fixtures.zoneInfo.rules(named: name), "no tz data for \(name); install tzdata")
    }

    /// A recording parsed as the daemon parses it: with its place's zone.
    private func recorded(
        _ name: String, fetchedAt: Double = 1_800_000_000, notes: ((String) -> Void)? = nil
    ) throws -> Forecast {
        let place = try place(name)
        return try provider.parseForecast(
            [try Fixtures.bytes("metno-forecast-\(name).json")], for: place, zone: try zone(place.timeZone),
            fetchedAt: fetchedAt, leftOut: notes ?? { XCTFail("unexpected note: \($0)") })
    }

    private func parse(_ text: String, zone: TimeZoneRules? = nil, notes: inout [String]) throws -> Forecast {
        var collected: [String] = []
        defer { notes = collected }
        return try MetNorway.parseForecast(Array(text.utf8), zone: zone, fetchedAt: 1000) { collected.append($0) }
    }

    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ProviderParseError? {
        parseError(of: text, file: file, line: line) { body throws(ProviderParseError) in
            try MetNorway.parseForecast(body, zone: nil, fetchedAt: 0)
        }
    }

    /// An answer of `steps` (each a `timeseries` entry's JSON).
    private func answer(_ steps: String..., units: String = "") -> String {
        #"{"type":"Feature","properties":{"meta":{"updated_at":"2026-01-15T06:00:00Z""#
            + (units.isEmpty ? "" : #","units":\#(units)"#) + #"},"timeseries":["# + steps.joined(separator: ",")
            + "]}}"
    }

    // MARK: - The question

    func testRequest_asksForCompleteOnTheGrid_withoutAltitude_acceptingJSON() throws {
        let asked = provider.request(for: try place("mecklenburg"), units: .us, key: nil)
        XCTAssertEqual(asked.path, "/weatherapi/locationforecast/2.0/complete?lat=53.5&lon=13")
        XCTAssertEqual(asked.headers, ["Accept": "application/json"], "the User-Agent is the daemon's")
        let oslo = Location(
            id: LocationID("oslo-no"), name: "Oslo", countryCode: "NO", latitude: 59.91273, longitude: 10.74609,
            timeZone: "Europe/Oslo", source: .coordinates)
        XCTAssertEqual(
            provider.plan(for: oslo, units: .si, key: "ignored", lookup: nil, now: 0),
            .forecast([
                ProviderRequest(
                    path: "/weatherapi/locationforecast/2.0/complete?lat=59.91&lon=10.75",
                    headers: ["Accept": "application/json"])
            ]))
        XCTAssertEqual(provider.defaultBaseURL, "https://api.met.no")
    }

    func testPlan_coversEveryPlace_evenThePole() {
        for place in ProviderConformanceTests.places {
            guard case .forecast(let requests) = provider.plan(for: place, units: .si, key: nil, lookup: nil, now: 0)
            else { return XCTFail("\(place.id) is covered: met.no forecasts for the whole world") }
            XCTAssertEqual(requests.count, 1)
        }
        XCTAssertTrue(
            provider.request(for: ProviderConformanceTests.places[2], units: .si, key: nil).path.hasSuffix(
                "?lat=-90&lon=-180"))
    }

    func testTerms_followMetNorwaysTermsOfService() {
        let terms = provider.terms
        XCTAssertFalse(terms.needsKey)
        XCTAssertTrue(terms.requiresIdentification)
        XCTAssertTrue(terms.conditionalRequests)
        XCTAssertEqual(terms.jitterFraction, 0.25)
        XCTAssertEqual(terms.coordinateDigits, 2)
        XCTAssertEqual(
            terms.quota,
            ProviderQuota(callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 2))
        XCTAssertEqual(terms.coverage, .world)
        XCTAssertEqual(terms.nowcastIntervalMinutes, 60)
        XCTAssertEqual(
            provider.attribution,
            Attribution(text: "Data from MET Norway (CC BY 4.0)", url: "https://api.met.no/doc/License"))
        XCTAssertNil(provider.refusal(in: Array("<html>403 Forbidden</html>".utf8), now: 0))
    }

    // MARK: - Recorded complete answer (Mecklenburg, 2022)

    func testMecklenburg_hoursAreTheStepsAtTheirOwnTimes() throws {
        let forecast = try recorded("mecklenburg")
        XCTAssertEqual(forecast.provider, "metno")
        XCTAssertEqual(forecast.timeZone, "Europe/Berlin")
        XCTAssertEqual(forecast.utcOffsetSeconds, 3600, "at the fetch, in January 2027")
        XCTAssertNil(forecast.current, "met.no observes nothing: the hour in progress is shown instead")
        XCTAssertNil(forecast.nowcast)
        XCTAssertEqual(forecast.hourly.count, 84, "every step, none invented between the 6-hour ones")

        let first = forecast.hourly[0]
        XCTAssertEqual(first.time, 1_659_456_000)  // 2022-08-02T16:00:00Z
        XCTAssertEqual(first.temperature, 25.4)
        XCTAssertEqual(first.windSpeed, 3.1)
        XCTAssertEqual(first.windBearing, 249.5)
        XCTAssertEqual(first.icon, "partly-cloudy-day")
        XCTAssertEqual(first.summary, "Partly cloudy")
        XCTAssertEqual(first.precipIntensity, 0)
        XCTAssertEqual(first.precipProbability, 0)
        XCTAssertNil(first.apparentTemperature, "met.no has no feels-like")

        // The last hourly step, then the first 6-hourly ones, an hour and six hours apart.
        let index = try XCTUnwrap(forecast.hourly.firstIndex { $0.time == 1_659_654_000 })  // 2022-08-04T23:00Z
        XCTAssertEqual(forecast.hourly[index + 1].time, 1_659_657_600)
        XCTAssertEqual(forecast.hourly[index + 2].time, 1_659_657_600 + 6 * 3600)
        let sixHours = forecast.hourly[index + 2]  // 2022-08-05T06:00Z: "rain", 2.7 mm in six hours
        XCTAssertEqual(sixHours.icon, "rain")
        XCTAssertEqual(sixHours.summary, "Rain")
        XCTAssertEqual(try XCTUnwrap(sixHours.precipIntensity), 0.45, accuracy: 1e-12, "2.7 mm over 6 h")
        XCTAssertEqual(try XCTUnwrap(sixHours.precipProbability), 0.549, accuracy: 1e-12)
        XCTAssertEqual(sixHours.temperature, 21.1)

        let last = try XCTUnwrap(forecast.hourly.last)
        XCTAssertEqual(last.icon, "unknown", "the last step has no period")
        XCTAssertEqual(last.summary, "")
        XCTAssertNil(last.precipIntensity)
        XCTAssertNil(last.precipProbability)
    }

    func testMecklenburg_instantValuesRaindHasNoFieldFor_areReadInItsUnits() throws {
        let steps = try MetNorway.steps(try Fixtures.bytes("metno-forecast-mecklenburg.json")) {
            XCTFail("unexpected note: \($0)")
        }
        let instant = steps[0].instant
        XCTAssertEqual(try XCTUnwrap(instant.humidity), 0.318, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(instant.cloudCover), 0.977, accuracy: 1e-12)
        XCTAssertEqual(instant.fogCover, 0)
        XCTAssertEqual(instant.windGust, 7.2)
        XCTAssertEqual(instant.pressure, 1016.5)
        XCTAssertEqual(instant.uvIndexClearSky, 1.1)
        XCTAssertEqual(instant.dewPoint, 7.4)
        XCTAssertEqual(steps[0].nextHour?.thunderProbability, 0)
        XCTAssertEqual(steps[0].nextSixHours?.temperatureMax, 25.1)
        XCTAssertEqual(steps[0].nextSixHours?.temperatureMin, 18.1)
        XCTAssertEqual(steps[0].nextTwelveHours?.symbol?.code, "partlycloudy_day")
    }

    func testMecklenburg_daysAreBerlinDays_withValuesOnlyWhereTheDataCoversThem() throws {
        let days = try recorded("mecklenburg").daily
        // 2 August (from 18:00 local) to 11 August, one day a local date.
        XCTAssertEqual(days.first?.time, 1_659_391_200)  // 2022-08-02T00:00+02:00
        for (day, next) in zip(days, days.dropFirst()) { XCTAssertEqual(next.time - day.time, 86_400) }

        let first = days[0]
        XCTAssertNil(first.temperatureMin, "the evening alone says nothing of the day's range")
        XCTAssertNil(first.temperatureMax)
        XCTAssertNil(first.precipAccumulation)
        XCTAssertEqual(first.precipProbability, 0, "a chance for what is left of the day")

        let hourly = days[1]  // 3 August: hours all day
        XCTAssertEqual(hourly.time, 1_659_477_600)
        XCTAssertEqual(hourly.temperatureMin, 16.5)
        XCTAssertEqual(hourly.temperatureMax, 32.0)
        XCTAssertEqual(hourly.precipAccumulation, 0)
        XCTAssertEqual(hourly.precipProbability, 0)
        XCTAssertEqual(hourly.icon, "partly-cloudy-day", "10 of its 12 daytime hours")
        XCTAssertEqual(hourly.summary, "Partly cloudy")
        XCTAssertNil(hourly.windSpeed)
        XCTAssertNil(hourly.sunrise)
        XCTAssertNil(hourly.sunset)
        XCTAssertNil(hourly.polar, "not computed from the symbols")

        let mixed = days[3]  // 5 August: two hours, then 6-hour periods
        XCTAssertEqual(mixed.temperatureMin, 19.0)
        XCTAssertEqual(mixed.temperatureMax, 25.3)
        XCTAssertEqual(try XCTUnwrap(mixed.precipAccumulation), 2.7, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(mixed.precipProbability), 0.765, accuracy: 1e-12, "the 12 hours from 06 UTC")
        XCTAssertEqual(mixed.icon, "rain", "six of the twelve daytime hours")
        XCTAssertEqual(mixed.summary, "Rain")

        let sixHourly = days[4]  // 6 August
        XCTAssertEqual(sixHourly.temperatureMin, 12.7)
        XCTAssertEqual(sixHourly.temperatureMax, 21.0)
        XCTAssertEqual(try XCTUnwrap(sixHourly.precipProbability), 0.098, accuracy: 1e-12)
    }

    func testWithoutAZone_daysAreUTCDays() throws {
        let forecast = try provider.parseForecast(
            try Fixtures.bytes("metno-forecast-mecklenburg.json"), zone: nil, fetchedAt: 0, leftOut: { _ in })
        XCTAssertEqual(forecast.timeZone, "")
        XCTAssertEqual(forecast.utcOffsetSeconds, 0)
        XCTAssertEqual(forecast.daily.first?.time, 1_659_398_400)  // 2022-08-02T00:00Z
    }

    // MARK: - Recorded answers of 2020 (London complete, New York compact)

    func testLondon_sixHourDaysHaveTheirExtremes_andNoChanceOfRainIsGiven() throws {
        let forecast = try recorded("london")
        XCTAssertEqual(forecast.hourly[0].time, 1_595_242_800)  // 2020-07-20T11:00Z
        XCTAssertEqual(forecast.hourly[0].temperature, 18.8)
        XCTAssertEqual(forecast.hourly[0].icon, "clear-day")
        XCTAssertEqual(forecast.hourly[0].summary, "Clear sky")
        XCTAssertTrue(forecast.hourly.allSatisfy { $0.precipProbability == nil }, "this answer has no probabilities")
        let day = try XCTUnwrap(forecast.daily.first { $0.time == 1_595_631_600 })  // 25 July, BST
        XCTAssertEqual(day.temperatureMin, 14.6)
        XCTAssertEqual(day.temperatureMax, 23.4)
        XCTAssertEqual(try XCTUnwrap(day.precipAccumulation), 1.1, accuracy: 1e-12)
        XCTAssertNil(day.precipProbability)
        XCTAssertNil(forecast.daily[0].temperatureMax, "the first day starts at noon")
    }

    func testNewYork_compact_leavesWhatItLacksUnknown() throws {
        let forecast = try recorded("new-york")
        XCTAssertEqual(forecast.timeZone, "America/New_York")
        XCTAssertEqual(forecast.hourly[0].temperature, 26.5)
        XCTAssertEqual(forecast.hourly[0].windSpeed, 3.8)
        XCTAssertTrue(forecast.hourly.allSatisfy { $0.precipProbability == nil })
        XCTAssertTrue(forecast.daily.allSatisfy { $0.precipProbability == nil })
        let rainy = try XCTUnwrap(forecast.hourly.first { $0.time == 1_595_462_400 })  // 2020-07-23T00:00Z
        XCTAssertEqual(rainy.icon, "rain")
        XCTAssertEqual(rainy.summary, "Rain showers")
        XCTAssertEqual(try XCTUnwrap(rainy.precipIntensity), 0.5, accuracy: 1e-12, "3.0 mm over 6 h")

        let steps = try MetNorway.steps(try Fixtures.bytes("metno-forecast-new-york.json")) { _ in }
        XCTAssertNil(steps[0].instant.uvIndexClearSky)
        XCTAssertNil(steps[0].instant.windGust)

        let hourly = try XCTUnwrap(forecast.daily.first { $0.time == 1_595_304_000 })  // 21 July, EDT
        XCTAssertEqual(hourly.temperatureMin, 22.4)
        XCTAssertEqual(hourly.temperatureMax, 32.2)
        let sixHourly = try XCTUnwrap(forecast.daily.first { $0.time == 1_595_563_200 })  // 24 July
        XCTAssertNil(sixHourly.temperatureMin, "four instants a day, no period extremes in compact")
        XCTAssertNil(sixHourly.temperatureMax)
        XCTAssertEqual(try XCTUnwrap(sixHourly.precipAccumulation), 3.6, accuracy: 1e-12)
    }

    // MARK: - Hand-made answers

    func testOsloAcrossTheClockChange_daysAreLocalDays() throws {
        let days = try recorded("oslo-dst").daily
        XCTAssertEqual(days.map(\.time).prefix(3), [1_774_652_400, 1_774_738_800, 1_774_821_600])
        XCTAssertEqual(days[2].time - days[1].time, 23 * 3600, "29 March has 23 hours")
        let sunday = days[1]
        XCTAssertEqual(sunday.temperatureMin, -5.0, "its first hour is 23:00 UTC the day before")
        XCTAssertEqual(sunday.temperatureMax, 9.5)
        XCTAssertEqual(try XCTUnwrap(sunday.precipAccumulation), 2.2, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(sunday.precipProbability), 0.8, accuracy: 1e-12)
        XCTAssertEqual(sunday.icon, "partly-cloudy-day")
        XCTAssertEqual(days[2].temperatureMin, -6.0, "22:00 UTC on the 29th is the 30th")
        XCTAssertNil(days[0].temperatureMin, "28 March starts at 13:00 local")
        XCTAssertEqual(days[3].temperatureMin, -3.0)
        XCTAssertEqual(try XCTUnwrap(days[3].precipAccumulation), 1.2, accuracy: 1e-12)

        let utc = try MetNorway.parseForecast(
            try Fixtures.bytes("metno-forecast-oslo-dst.json"), zone: nil, fetchedAt: 0)
        let utcSunday = try XCTUnwrap(utc.daily.first { $0.time == 1_774_742_400 })  // 2026-03-29T00:00Z
        XCTAssertEqual(utcSunday.temperatureMin, -6.0, "the UTC day is another day")
    }

    func testTromsoInThePolarNight_drawsNoSun() throws {
        var notes: [String] = []
        let forecast = try recorded("tromso-polar-night") { notes.append($0) }
        XCTAssertEqual(notes, [])
        let twilight = try XCTUnwrap(forecast.hourly.first { $0.time == 1_797_328_800 })  // 10:00 UTC
        XCTAssertEqual(twilight.icon, "clear-night", "clearsky_polartwilight: the sun stays down")
        XCTAssertEqual(twilight.summary, "Clear sky")
        XCTAssertNil(forecast.hourly.first { $0.time == 1_797_364_800 }?.temperature, "null is unknown")
        let noDetails = try XCTUnwrap(forecast.hourly.first { $0.time == 1_797_382_800 })
        XCTAssertEqual(noDetails.icon, "partly-cloudy-night")
        XCTAssertNil(noDetails.precipIntensity)
        XCTAssertNil(noDetails.precipProbability)

        XCTAssertTrue(forecast.daily.allSatisfy { $0.polar == nil && $0.sunrise == nil && $0.sunset == nil })
        XCTAssertNil(forecast.daily[0].temperatureMin, "15 December starts at 07:00 local")
        let sixteenth = forecast.daily[1]
        XCTAssertEqual(sixteenth.icon, "partly-cloudy-night")
        XCTAssertEqual(sixteenth.temperatureMin, -10.5)
        XCTAssertEqual(sixteenth.temperatureMax, -5.5)
        XCTAssertEqual(try XCTUnwrap(sixteenth.precipAccumulation), 1.1, accuracy: 1e-12)
        let snowy = try XCTUnwrap(forecast.daily.first { $0.time == 1_797_548_400 })  // 18 December
        XCTAssertEqual(snowy.icon, "snow")
        XCTAssertEqual(snowy.summary, "Heavy snow")
        XCTAssertEqual(try XCTUnwrap(snowy.precipAccumulation), 27.0, accuracy: 1e-12, "three whole periods")
        XCTAssertEqual(try XCTUnwrap(snowy.precipProbability), 0.9, accuracy: 1e-12)
    }

    // MARK: - Bad values and broken answers

    func testImpossibleValues_areUnknown_andNoted() throws {
        var notes: [String] = []
        let forecast = try parse(
            answer(
                #"{"time":"2026-01-15T06:00:00Z","data":{"instant":{"details":{"air_temperature":500,"relative_humidity":140,"wind_speed":-3,"wind_from_direction":90}},"#
                    + #""next_1_hours":{"summary":{"symbol_code":"sunny_day"},"details":{"precipitation_amount":-1,"probability_of_precipitation":250}}}}"#
            ), notes: &notes)
        let hour = forecast.hourly[0]
        XCTAssertNil(hour.temperature)
        XCTAssertNil(hour.windSpeed)
        XCTAssertEqual(hour.windBearing, 90)
        XCTAssertNil(hour.precipIntensity)
        XCTAssertNil(hour.precipProbability)
        XCTAssertEqual(hour.icon, "unknown")
        XCTAssertEqual(hour.summary, "")
        XCTAssertEqual(notes.count, 2, "\(notes)")
        XCTAssertTrue(notes.allSatisfy { $0.hasPrefix("metno ") }, "\(notes)")
        XCTAssertTrue(notes[0].contains("5 value(s)"), notes[0])
        XCTAssertTrue(notes[0].contains("properties.timeseries[0].data.instant.details.air_temperature (500.0)"))
        XCTAssertTrue(notes[0].hasSuffix("and 2 more"), notes[0])
        XCTAssertTrue(notes[1].contains("\"sunny_day\""), notes[1])
    }

    func testBrokenAnswers_areRefusedNamingTheField() {
        let step = #"{"time":"2026-01-15T06:00:00Z","data":{"instant":{"details":{"air_temperature":1}}}}"#
        XCTAssertEqual(parseError(#"{"type":"Feature"}"#)?.field, "properties")
        XCTAssertEqual(parseError(#"{"properties":{"meta":{}}}"#)?.field, "properties.timeseries")
        XCTAssertEqual(parseError(answer())?.problem, .invalidValue("no time steps"))
        XCTAssertEqual(
            parseError(
                answer(#"{"time":"2026-01-15T06:00:00Z","data":{"instant":{"details":{"air_temperature":"mild"}}}}"#))?
                .field, "properties.timeseries[0].data.instant.details.air_temperature")
        XCTAssertEqual(
            parseError(answer(#"{"time":"2026-01-15 06:00","data":{}}"#))?.field, "properties.timeseries[0].time")
        XCTAssertEqual(
            parseError(answer(#"{"time":"2026-01-15T06:00:00+01:00","data":{}}"#))?.field,
            "properties.timeseries[0].time", "met.no writes UTC")
        XCTAssertEqual(parseError(answer(#"{"time":1768456800,"data":{}}"#))?.field, "properties.timeseries[0].time")
        XCTAssertEqual(parseError(answer(#"{"time":"2026-01-15T06:00:00Z"}"#))?.field, "properties.timeseries[0].data")
        XCTAssertEqual(parseError(answer(step, step))?.field, "properties.timeseries[1].time", "each step once")
        XCTAssertEqual(
            parseError(answer(step, units: #"{"air_temperature":"fahrenheit"}"#))?.field,
            "properties.meta.units.air_temperature")
        XCTAssertEqual(
            parseError(
                answer(#"{"time":"2026-01-15T06:00:00Z","data":{"next_1_hours":{"summary":{"symbol_code":7}}}}"#))?
                .field, "properties.timeseries[0].data.next_1_hours.summary.symbol_code")
        XCTAssertEqual(
            parseError(#"{"properties":{"meta":{"updated_at":"now"},"timeseries":[\#(step)]}}"#)?.field,
            "properties.meta.updated_at")
        XCTAssertEqual(parseError(answer(#"{"time":"9999-01-01T00:00:00Z","data":{}}"#))?.provider, "metno")
    }

    func testTooManySteps_keepsTheFirst_andSaysSo() throws {
        let steps = (0..<(MetNorway.maximumSteps + 5)).map { index in
            let time = CivilDateTime(unixSeconds: 1_768_456_800 + Double(index * 3600), utcOffsetSeconds: 0)
            let text =
                "\(time.year)-\(CivilDateTime.twoDigits(time.month))-\(CivilDateTime.twoDigits(time.day))T"
                + "\(CivilDateTime.twoDigits(time.hour)):00:00Z"
            return #"{"time":"\#(text)","data":{"instant":{"details":{"air_temperature":1}}}}"#
        }
        var notes: [String] = []
        let body = #"{"properties":{"timeseries":["# + steps.joined(separator: ",") + "]}}"
        let forecast = try parse(body, notes: &notes)
        XCTAssertEqual(forecast.hourly.count, MetNorway.maximumSteps)
        XCTAssertEqual(notes, ["metno sent 405 time steps; the first 400 are kept, the rest left out"])
    }

    // MARK: - Symbols

    /// met.no's legend (github.com/metno/weathericons, weather/legend.csv):
    /// every symbol, its English text, and whether it has day, night and
    /// polar twilight variants. Written out here from the legend, apart from
    /// the table in MetNorwaySymbol, so that each is checked against the other.
    private static let legend: [(code: String, english: String, variants: Bool)] = [
        ("clearsky", "Clear sky", true), ("fair", "Fair", true), ("partlycloudy", "Partly cloudy", true),
        ("cloudy", "Cloudy", false), ("lightrainshowers", "Light rain showers", true),
        ("rainshowers", "Rain showers", true), ("heavyrainshowers", "Heavy rain showers", true),
        ("lightrainshowersandthunder", "Light rain showers and thunder", true),
        ("rainshowersandthunder", "Rain showers and thunder", true),
        ("heavyrainshowersandthunder", "Heavy rain showers and thunder", true),
        ("lightsleetshowers", "Light sleet showers", true), ("sleetshowers", "Sleet showers", true),
        ("heavysleetshowers", "Heavy sleet showers", true),
        ("lightssleetshowersandthunder", "Light sleet showers and thunder", true),
        ("sleetshowersandthunder", "Sleet showers and thunder", true),
        ("heavysleetshowersandthunder", "Heavy sleet showers and thunder", true),
        ("lightsnowshowers", "Light snow showers", true), ("snowshowers", "Snow showers", true),
        ("heavysnowshowers", "Heavy snow showers", true),
        ("lightssnowshowersandthunder", "Light snow showers and thunder", true),
        ("snowshowersandthunder", "Snow showers and thunder", true),
        ("heavysnowshowersandthunder", "Heavy snow showers and thunder", true),
        ("lightrain", "Light rain", false), ("rain", "Rain", false), ("heavyrain", "Heavy rain", false),
        ("lightrainandthunder", "Light rain and thunder", false), ("rainandthunder", "Rain and thunder", false),
        ("heavyrainandthunder", "Heavy rain and thunder", false), ("lightsleet", "Light sleet", false),
        ("sleet", "Sleet", false), ("heavysleet", "Heavy sleet", false),
        ("lightsleetandthunder", "Light sleet and thunder", false), ("sleetandthunder", "Sleet and thunder", false),
        ("heavysleetandthunder", "Heavy sleet and thunder", false), ("lightsnow", "Light snow", false),
        ("snow", "Snow", false), ("heavysnow", "Heavy snow", false),
        ("lightsnowandthunder", "Light snow and thunder", false), ("snowandthunder", "Snow and thunder", false),
        ("heavysnowandthunder", "Heavy snow and thunder", false), ("fog", "Fog", false),
    ]

    func testSymbolTable_coversEveryDocumentedCode() {
        XCTAssertEqual(Self.legend.count, 41)
        let vocabulary: Set = [
            "clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
            "partly-cloudy-night", "thunderstorm",
        ]
        var codes: [String] = []
        for row in Self.legend {
            for code in row.variants ? ["day", "night", "polartwilight"].map({ "\(row.code)_\($0)" }) : [row.code] {
                codes.append(code)
                guard let symbol = MetNorwaySymbol(code: code) else {
                    XCTFail("\(code) is documented but unknown")
                    continue
                }
                XCTAssertEqual(symbol.code, code)
                XCTAssertEqual(symbol.summary, row.english, code)
                XCTAssertTrue(vocabulary.contains(symbol.icon), "\(code): \(symbol.icon)")
                if ["clearsky", "fair", "partlycloudy"].contains(row.code) {
                    XCTAssertEqual(symbol.icon.hasSuffix("-night"), !code.hasSuffix("_day"), "\(code): \(symbol.icon)")
                }
                if code.contains("thunder") { XCTAssertEqual(symbol.icon, "thunderstorm", code) }
            }
        }
        XCTAssertEqual(codes.count, 83)
        XCTAssertEqual(Set(MetNorwaySymbol.documentedCodes), Set(codes), "the table holds nothing else")
    }

    func testSymbols_mapToRaindsIcons() {
        let expected = [
            "lightrainshowers_day": "rain", "clearsky_polartwilight": "clear-night", "clearsky_day": "clear-day",
            "fair_night": "partly-cloudy-night", "partlycloudy_day": "partly-cloudy-day", "heavysnow": "snow",
            "sleetshowers_day": "sleet", "rainandthunder": "thunderstorm", "fog": "fog", "cloudy": "cloudy",
            "heavysnowshowersandthunder_polartwilight": "thunderstorm",
        ]
        for (code, icon) in expected { XCTAssertEqual(MetNorwaySymbol(code: code)?.icon, icon, code) }
        XCTAssertEqual(
            MetNorwaySymbol(code: "lightsleetshowersandthunder_day")?.code, "lightssleetshowersandthunder_day",
            "the spelling met.no postponed fixing is read too")
        XCTAssertEqual(
            MetNorwaySymbol(code: "lightsnowshowersandthunder_night")?.summary, "Light snow showers and thunder")
        for unknown in [
            "", "sunny", "clearsky", "cloudy_day", "clearsky_evening", "_day", "rain_", "Rain", "clearsky_day_night",
        ] {
            XCTAssertNil(MetNorwaySymbol(code: unknown), unknown)
        }
    }

    func testDailySymbol_isTheDominantOne_tiesGoingToTheWorseWeather() throws {
        let zone = try zone("UTC")
        // Six daytime hours of rain, six of sun: the rain wins the tie.
        let steps = (0..<24).map { hour in
            let code = hour < 6 || hour >= 18 ? "clearsky_night" : hour < 12 ? "lightrain" : "clearsky_day"
            let time = "2026-01-15T\(CivilDateTime.twoDigits(hour)):00:00Z"
            return #"{"time":"\#(time)","data":{"next_1_hours":{"summary":{"symbol_code":"\#(code)"}}}}"#
        }
        var notes: [String] = []
        let day = try XCTUnwrap(
            try parse(
                #"{"properties":{"timeseries":["# + steps.joined(separator: ",") + "]}}", zone: zone, notes: &notes
            ).daily.first)
        XCTAssertEqual(day.icon, "rain")
        XCTAssertEqual(day.summary, "Light rain")
        XCTAssertNil(day.temperatureMin, "no temperatures")
        XCTAssertNil(day.precipAccumulation, "no amounts")
        XCTAssertNil(day.precipProbability)
    }

    func testCoverage_needsEveryPartOfTheWindow() {
        XCTAssertTrue(MetNorwayDays.covers([0..<5, 5..<10], 2..<10))
        XCTAssertTrue(MetNorwayDays.covers([3..<12, 0..<4], 1..<10))
        XCTAssertFalse(MetNorwayDays.covers([0..<5, 6..<10], 2..<10))
        XCTAssertFalse(MetNorwayDays.covers([0..<9], 2..<10))
        XCTAssertFalse(MetNorwayDays.covers([], 2..<10))
    }
}

extension MetNorwaySymbol {
    /// Every code met.no documents, variants spelled out, from the legend raind holds.
    static var documentedCodes: [String] {
        table.flatMap { row in
            row.hasVariants ? Variant.allCases.map { "\(row.base)_\($0.rawValue)" } : [row.base]
        }
    }
}
