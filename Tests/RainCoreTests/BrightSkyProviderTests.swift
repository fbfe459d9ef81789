import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class BrightSkyProviderTests: XCTestCase {
    let provider = BrightSkyProvider()
    let berlin = Location(
        id: LocationID("berlin-de"), name: "Berlin", countryCode: "DE", latitude: 52.52, longitude: 13.405,
        timeZone: "Europe/Berlin", source: .geonames(id: 2_950_159))
    /// 14:00 in Berlin on Thursday 18 September 2025 (12:00 UTC).
    let now = 1_758_196_800.0

    private var berlinZone: TimeZoneRules {
        get throws { try XCTUnwrap(Fixtures.zoneInfo.rules(named: "Europe/Berlin"), "install tzdata") }
    }

    /// The two recorded answers of `name` (`brightsky-forecast-NAME.N-ROLE.json`), parsed for Berlin.
    private func recorded(
        _ name: String, zone: TimeZoneRules?, leftOut: (String) -> Void = { _ in }
    ) throws -> Forecast {
        try provider.parseForecast(
            [
                try Fixtures.bytes("brightsky-forecast-\(name).1-weather.json"),
                try Fixtures.bytes("brightsky-forecast-\(name).2-current.json"),
            ], for: berlin, zone: zone, fetchedAt: now, leftOut: leftOut)
    }

    /// `records` (JSON objects' members) as a `/weather` answer with one near
    /// MOSMIX source (2382), and a near current answer.
    private func answers(_ records: [String], sources: String? = nil, current: String? = nil) -> [[UInt8]] {
        let near = """
            {"id": 2382, "observation_type": "forecast", "station_name": "BERLIN-ALEX.", "distance": 1019}
            """
        let weather =
            "{\"weather\": [" + records.map { "{\($0)}" }.joined(separator: ",") + "], \"sources\": ["
            + (sources ?? near) + "]}"
        let now =
            current ?? """
                {"weather": {"timestamp": "2025-09-18T13:30:00+00:00", "source_id": 1, "temperature": 19.7},
                 "sources": [{"id": 1, "station_name": "Berlin-Tempelhof", "distance": 5837}]}
                """
        return [Array(weather.utf8), Array(now.utf8)]
    }

    private func parse(
        _ answers: [[UInt8]], zone: TimeZoneRules? = nil, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError)
        -> Forecast
    {
        try provider.parseForecast(answers, for: berlin, zone: zone, fetchedAt: now, leftOut: leftOut)
    }

    private func parseError(
        _ answers: [[UInt8]], file: StaticString = #filePath, line: UInt = #line
    )
        -> ProviderParseError?
    {
        do {
            _ = try parse(answers)
            XCTFail("parsed", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Requests

    func testPlan_asksForTheHoursAndTheCurrentConditions_onTheGrid_inThePlacesZone() {
        guard case .forecast(let requests) = provider.plan(for: berlin, units: .si, key: nil, lookup: nil, now: now)
        else { return XCTFail("Berlin is covered") }
        XCTAssertEqual(
            requests.map(\.path),
            [
                "/weather?lat=52.52&lon=13.41&date=2025-09-18&last_date=2025-09-29&tz=Europe%2FBerlin&units=dwd",
                "/current_weather?lat=52.52&lon=13.41&tz=Europe%2FBerlin&units=dwd",
            ])
        XCTAssertEqual(requests.map(\.headers), [[:], [:]], "no headers of its own: the User-Agent is the daemon's")
        XCTAssertEqual(
            provider.plan(for: berlin, units: .us, key: "ignored", lookup: nil, now: now),
            provider.plan(for: berlin, units: .si, key: nil, lookup: nil, now: now), "units and keys change nothing")
        XCTAssertEqual(BrightSky.defaultBaseURL, "https://api.brightsky.dev")
        XCTAssertEqual(provider.answerRoles, ["weather", "current"])
    }

    /// The plan has no zone rules: the day asked is the place's day or the
    /// one before (so the place's whole day is there), never the day after.
    func testPlan_asksFromThePlacesDay_orTheDayBefore_atEveryHour() throws {
        let zone = try berlinZone
        for hour in 0..<(24 * 7) {
            // From Friday 24 October 2025 00:30 UTC, across the end of summer time.
            let instant = 1_761_265_800.0 + Double(hour) * 3600
            guard
                case .forecast(let requests) = provider.plan(
                    for: berlin, units: .si, key: nil, lookup: nil, now: instant)
            else { return XCTFail("covered") }
            let today = zone.local(instant).daysSinceEpoch
            let asked = BrightSky.firstDay(longitude: berlin.longitude, now: instant)
            XCTAssertTrue([today - 1, today].contains(asked), "hour \(hour): asked \(asked), today \(today)")
            XCTAssertTrue(requests[0].path.contains("&date=\(BrightSky.dateText(asked))&"), requests[0].path)
            XCTAssertTrue(
                requests[0].path.contains("&last_date=\(BrightSky.dateText(asked + 11))&"), requests[0].path)
            if zone.local(instant).hour >= 5 { XCTAssertEqual(asked, today, "after 05:00 only today is asked for") }
        }
    }

    func testPlan_placeOutsideGermany_isNotCovered_aPlaceOfUnknownCountryIsAsked_inUTCWithoutAZone() {
        let paris = Location(
            id: LocationID("paris-fr"), name: "Paris", countryCode: "FR", latitude: 48.85, longitude: 2.35,
            timeZone: "Europe/Paris", source: .coordinates)
        guard case .notCovered(let reason) = provider.plan(for: paris, units: .si, key: nil, lookup: nil, now: now)
        else { return XCTFail("Bright Sky's current conditions are Germany's") }
        XCTAssertTrue(reason.hasPrefix("its current conditions come from the DWD's stations in Germany"), reason)
        XCTAssertFalse(provider.terms.coverage.covers(countryCode: "FR"))
        XCTAssertTrue(provider.terms.coverage.covers(countryCode: "de"))

        let unknown = Location(
            id: LocationID("somewhere"), name: "Somewhere", latitude: 51.0, longitude: 10.0, source: .coordinates)
        guard case .forecast(let requests) = provider.plan(for: unknown, units: .si, key: nil, lookup: nil, now: now)
        else { return XCTFail("a place of unknown country is asked for") }
        XCTAssertEqual(
            requests.map(\.path),
            [
                "/weather?lat=51&lon=10&date=2025-09-18&last_date=2025-09-29&tz=UTC&units=dwd",
                "/current_weather?lat=51&lon=10&tz=UTC&units=dwd",
            ])
        var odd = unknown
        odd.timeZone = "../../etc/passwd"
        guard case .forecast(let oddRequests) = provider.plan(for: odd, units: .si, key: nil, lookup: nil, now: now)
        else { return XCTFail("asked") }
        XCTAssertEqual(oddRequests, requests, "a zone that is not a plain IANA name is not sent")
        XCTAssertEqual(BrightSky.zoneParameter("Etc/GMT+1"), "Etc%2FGMT%2B1")
    }

    func testTerms_keyless_twoCallsAForecast_creditTheDWD() {
        let terms = provider.terms
        XCTAssertFalse(terms.needsKey)
        XCTAssertFalse(terms.conditionalRequests)
        // One call for each of a forecast's two requests, three requests per place and interval.
        XCTAssertEqual(terms.quota.callsPerRequest, 1)
        XCTAssertEqual(provider.answerRoles.count, 2)
        XCTAssertEqual(terms.quota.fairUseRequestsPerPlaceAndInterval, 3)
        XCTAssertNil(terms.quota.freeCalls)
        XCTAssertEqual(terms.coverage, .countries(["DE"]))
        XCTAssertEqual(terms.coordinateDigits, ProviderQuery.gridDigits)
        XCTAssertEqual(
            provider.attribution,
            Attribution(
                text: "Data basis: Deutscher Wetterdienst, values processed; via Bright Sky",
                url: "https://brightsky.dev/"))
        XCTAssertEqual(WeatherProviders.provider(.brightSky).name.rawValue, "brightsky")
        XCTAssertEqual(ProviderName.brightSky.stem, "brightsky")
        XCTAssertThrowsError(try provider.parseLookup([], for: berlin, now: now))
    }

    // MARK: - Recorded answers: eight days in Berlin

    func testRecorded8Days_currentConditions_areTheObservation_inSIUnits() throws {
        var notes: [String] = []
        let forecast = try recorded("berlin-8-days", zone: try berlinZone) { notes.append($0) }
        XCTAssertEqual(notes, [], "every station raind uses is near: Potsdam only gave solar and sunshine")
        XCTAssertEqual(forecast.provider, "brightsky")
        XCTAssertEqual(forecast.timeZone, "Europe/Berlin")
        XCTAssertEqual(forecast.utcOffsetSeconds, 7200)
        XCTAssertEqual(forecast.attribution, provider.attribution)
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.time, 1_758_202_200)  // 2025-09-18T13:30:00+00:00
        XCTAssertEqual(current.temperature, 19.7)
        XCTAssertEqual(try XCTUnwrap(current.windSpeed), 18.7 / 3.6, accuracy: 1e-9)  // wind_speed_10, km/h
        XCTAssertEqual(try XCTUnwrap(current.windGust), 33.1 / 3.6, accuracy: 1e-9)
        XCTAssertEqual(current.windBearing, 260)
        XCTAssertEqual(current.precipIntensity, 0)
        XCTAssertEqual(current.humidity, 0.78)
        XCTAssertEqual(current.pressure, 1019.7)
        XCTAssertEqual(try XCTUnwrap(current.visibility), 61.711, accuracy: 1e-9)
        XCTAssertEqual(current.cloudCover, 0.88)
        XCTAssertEqual(current.icon, "cloudy")
        XCTAssertEqual(current.summary, "Cloudy")
        XCTAssertNil(current.precipProbability, "an observation has no chance of rain")
        XCTAssertNil(current.apparentTemperature)
        XCTAssertNil(current.uvIndex)
    }

    func testRecorded8Days_eachHourTakesItsRainAndWindFromTheRecordAnHourLater() throws {
        let forecast = try recorded("berlin-8-days", zone: try berlinZone)
        XCTAssertEqual(forecast.hourly.count, 182)
        let first = forecast.hourly[0]
        XCTAssertEqual(first.time, 1_758_153_600)  // 2025-09-18T00:00:00+00:00
        XCTAssertEqual(first.temperature, 14.6)
        XCTAssertNil(first.precipProbability, "observed hours have no chance of rain")
        // 13:00 UTC is the last observed record; the hour it starts is
        // MOSMIX's record of 14:00: 0.1 mm, 17 %, 14.8 km/h from 258°.
        let hour = try XCTUnwrap(forecast.hourly.first { $0.time == 1_758_200_400 })
        XCTAssertEqual(hour.temperature, 19.4, "the temperature is the observation's at 13:00")
        XCTAssertEqual(hour.precipIntensity, 0.1)
        XCTAssertEqual(hour.precipProbability, 0.17)
        XCTAssertEqual(try XCTUnwrap(hour.windSpeed), 14.8 / 3.6, accuracy: 1e-9)
        XCTAssertEqual(hour.windBearing, 258)
        XCTAssertEqual(hour.icon, "cloudy")
        XCTAssertEqual(hour.summary, "Cloudy with rain", "rain too light for Bright Sky's rain icon")
        let last = try XCTUnwrap(forecast.hourly.last)
        XCTAssertEqual(last.time, 1_758_805_200)  // 2025-09-25T13:00:00+00:00
        XCTAssertEqual(last.temperature, 15.5)
        XCTAssertNil(last.precipIntensity, "nothing follows the last record")
        XCTAssertNil(last.windSpeed)
        XCTAssertEqual(last.icon, "unknown")
        XCTAssertEqual(last.summary, "")
        XCTAssertTrue(forecast.hourly.allSatisfy { $0.apparentTemperature == nil })
    }

    func testRecorded8Days_daysAreBerlinsDays_withLowsAndHighsOnlyFromDaysNearlyWhole() throws {
        let forecast = try recorded("berlin-8-days", zone: try berlinZone)
        XCTAssertEqual(
            forecast.daily.map(\.time),
            [
                1_758_146_400, 1_758_232_800, 1_758_319_200, 1_758_405_600, 1_758_492_000, 1_758_578_400, 1_758_664_800,
                1_758_751_200,
            ], "local midnights, 22:00 UTC in summer time")
        // Thursday the 18th: 22 hours from 02:00 local, observed until 15:00.
        let thursday = forecast.daily[0]
        XCTAssertEqual(thursday.temperatureMin, 14.6)
        XCTAssertEqual(thursday.temperatureMax, 19.6)
        XCTAssertNil(thursday.precipAccumulation, "two hours of the day are missing")
        XCTAssertNil(thursday.precipProbability, "the observed hours have none")
        XCTAssertEqual(thursday.icon, "cloudy")
        // Friday the 19th: a whole day of MOSMIX.
        let friday = forecast.daily[1]
        XCTAssertEqual(friday.temperatureMin, 16.2)
        XCTAssertEqual(friday.temperatureMax, 24.5)
        XCTAssertEqual(friday.precipAccumulation, 0)
        XCTAssertEqual(friday.precipProbability, 0.06)
        XCTAssertEqual(try XCTUnwrap(friday.windSpeed), 13 / 3.6, accuracy: 1e-9)
        XCTAssertEqual(friday.icon, "partly-cloudy-day")
        XCTAssertEqual(friday.summary, "Partly cloudy")
        // Monday the 22nd: three hours of rain make a rainy day.
        let monday = forecast.daily[4]
        XCTAssertEqual(try XCTUnwrap(monday.precipAccumulation), 5.1, accuracy: 1e-9)
        XCTAssertEqual(monday.precipProbability, 0.55)
        XCTAssertEqual(monday.icon, "rain")
        XCTAssertEqual(monday.summary, "Rain")
        // Thursday the 25th: MOSMIX's data ends at 15:00 local.
        let end = forecast.daily[7]
        XCTAssertNil(end.temperatureMin)
        XCTAssertNil(end.temperatureMax)
        XCTAssertNil(end.precipAccumulation)
        XCTAssertEqual(end.icon, "partly-cloudy-day", "its daytime hours still tell the sky")
        XCTAssertTrue(forecast.daily.allSatisfy { $0.sunrise == nil && $0.sunset == nil && $0.polar == nil })
    }

    func testRecorded8Days_withoutTheZonesRules_makesUTCDays() throws {
        let forecast = try recorded("berlin-8-days", zone: nil)
        XCTAssertEqual(forecast.daily.first?.time, 1_758_153_600, "2025-09-18 00:00 UTC")
        XCTAssertEqual(forecast.utcOffsetSeconds, 0, "the current record's offset, as written")
    }

    func testRecorded24Hours_allForecast_noDayClaimsALowOrAHigh() throws {
        let forecast = try recorded("berlin-24-hours", zone: try berlinZone)
        XCTAssertEqual(forecast.hourly.count, 24)
        XCTAssertEqual(forecast.hourly[0].precipProbability, 0.22, "from the record of 15:00 UTC")
        XCTAssertEqual(forecast.daily.map(\.time), [1_758_146_400, 1_758_232_800])
        XCTAssertTrue(forecast.daily.allSatisfy { $0.temperatureMin == nil && $0.temperatureMax == nil })
    }

    // MARK: - Hand-made answer: nulls, a missing source, the end of summer time

    func testDSTNulls_unknownsStayUnknown_andMissingOrFarSourcesAreNamed() throws {
        var notes: [String] = []
        let forecast = try recorded("berlin-dst-nulls", zone: try berlinZone) { notes.append($0) }
        XCTAssertEqual(
            notes,
            [
                "brightsky: hours name sources 7777, 6148, which the answer does not describe; how far away they are is unknown",
                "brightsky: current conditions are from Potsdam, 28 km away",
            ])
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.time, 1_761_485_400)  // 2025-10-26T14:30:00+01:00
        XCTAssertEqual(current.icon, "unknown")
        XCTAssertEqual(current.summary, "")
        for value in [
            current.temperature, current.humidity, current.windSpeed, current.windGust, current.windBearing,
            current.precipIntensity, current.precipProbability, current.pressure, current.visibility,
            current.cloudCover,
        ] {
            XCTAssertNil(value)
        }

        XCTAssertEqual(forecast.hourly.count, 29)
        XCTAssertEqual(Set(forecast.hourly.map(\.time)).count, 29, "02:00 comes twice, each hour once")
        // The record of 07:00 CET has nothing but its time: its hour has no
        // temperature, and the hour before it no rain, wind or weather.
        let blank = try XCTUnwrap(forecast.hourly.first { $0.time == 1_761_458_400 })
        XCTAssertNil(blank.temperature)
        let before = try XCTUnwrap(forecast.hourly.first { $0.time == 1_761_454_800 })
        XCTAssertEqual(before.temperature, 3.6)
        XCTAssertNil(before.precipIntensity)
        XCTAssertNil(before.windSpeed)
        XCTAssertNil(before.precipProbability)
        XCTAssertEqual(before.icon, "unknown")

        // Sunday the 26th has 25 hours; the days before and after, two each.
        XCTAssertEqual(forecast.daily.count, 1)
        let sunday = forecast.daily[0]
        XCTAssertEqual(sunday.time, 1_761_429_600)  // 00:00 CEST, 22:00 UTC on the 25th
        XCTAssertEqual(sunday.temperatureMin, 3.4, "the missing 07:00 reading (3.2 was planned) is not invented")
        XCTAssertEqual(sunday.temperatureMax, 11.8)
        XCTAssertNil(sunday.precipAccumulation, "one hour's rain is unknown")
        XCTAssertEqual(sunday.precipProbability, 0.8)
        XCTAssertEqual(try XCTUnwrap(sunday.windSpeed), 10, accuracy: 1e-9)  // 36 km/h
        XCTAssertEqual(sunday.icon, "sleet", "an hour of hail and one of sleet")
        XCTAssertNil(forecast.validationProblem())
    }

    func testADayOf25Hours_sumsItsRainFromAll25() throws {
        // 22:00 UTC on 25 October 2025 (00:00 CEST) to 23:00 UTC on the 26th (00:00 CET on the 27th).
        let records = (0..<26).map { index in
            "\"timestamp\": \"\(iso(1_761_429_600 + Double(index) * 3600))\", \"source_id\": 2382, "
                + "\"precipitation\": 0.1, \"temperature\": \(Double(index) / 2)"
        }
        let forecast = try parse(answers(records), zone: try berlinZone)
        XCTAssertEqual(forecast.hourly.count, 26)
        let sunday = try XCTUnwrap(forecast.daily.first { $0.time == 1_761_429_600 })
        XCTAssertEqual(try XCTUnwrap(sunday.precipAccumulation), 2.5, accuracy: 1e-9)
        XCTAssertEqual(sunday.temperatureMin, 0)
        XCTAssertEqual(sunday.temperatureMax, 12)
    }

    /// `2025-10-25T22:00:00+00:00`.
    private func iso(_ unixSeconds: Double) -> String {
        let time = CivilDateTime(unixSeconds: unixSeconds, utcOffsetSeconds: 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):\(two(time.minute)):00+00:00"
    }

    // MARK: - Words

    func testIconsAndConditions_inRaindsVocabulary() {
        XCTAssertEqual(BrightSkyRecord.weather(icon: "hail", condition: "hail").icon, "sleet")
        XCTAssertEqual(BrightSkyRecord.weather(icon: "hail", condition: "hail").summary, "Hail")
        XCTAssertEqual(BrightSkyRecord.weather(icon: "clear-night", condition: "dry").summary, "Clear")
        XCTAssertEqual(BrightSkyRecord.weather(icon: "wind", condition: "rain").summary, "Windy with rain")
        XCTAssertEqual(BrightSkyRecord.weather(icon: "rain", condition: "dry").summary, "Rain")
        XCTAssertEqual(BrightSkyRecord.weather(icon: nil, condition: "snow").icon, "unknown")
        XCTAssertEqual(BrightSkyRecord.weather(icon: nil, condition: "snow").summary, "Snow")
        XCTAssertEqual(BrightSkyRecord.weather(icon: "tornado", condition: "whirl").icon, "unknown")
        XCTAssertEqual(BrightSkyRecord.weather(icon: "tornado", condition: "whirl").summary, "")
        for word in [
            "clear-day", "partly-cloudy-night", "cloudy", "fog", "wind", "rain", "sleet", "snow", "thunderstorm",
        ] {
            XCTAssertEqual(BrightSkyRecord.weather(icon: word, condition: nil).icon, word)
        }
    }

    func testTimestamps_needAnOffset() {
        XCTAssertEqual(BrightSkyRecord.instant("2025-09-18T13:30:00+00:00")?.unixSeconds, 1_758_202_200)
        XCTAssertEqual(BrightSkyRecord.instant("2025-09-18T15:30:00+02:00")?.unixSeconds, 1_758_202_200)
        XCTAssertEqual(BrightSkyRecord.instant("2025-09-18T15:30:00.000+0200")?.unixSeconds, 1_758_202_200)
        XCTAssertEqual(BrightSkyRecord.instant("2025-09-18T13:30:00Z")?.unixSeconds, 1_758_202_200)
        XCTAssertEqual(BrightSkyRecord.instant("2025-09-18T04:00:00-09:30")?.utcOffsetSeconds, -34_200)
        for bad in [
            "2025-09-18T13:30:00", "2025-09-18", "2025-09-18T13:30:00+19:00", "2025-09-18T13:30:00+02:60",
            "2025-09-18T13:30:00 +02:00", "2025-13-18T13:30:00+00:00", "2025-09-18T13:30:00+02:00x", "",
        ] {
            XCTAssertNil(BrightSkyRecord.instant(bad), bad)
        }
    }

    // MARK: - Bad answers

    func testImpossibleValues_areLeftOutWithANote_theRestIsKept() throws {
        var notes: [String] = []
        let forecast = try parse(
            answers([
                "\"timestamp\": \"2025-09-18T14:00:00+00:00\", \"temperature\": 293.15, \"pressure_msl\": 101970",
                "\"timestamp\": \"2025-09-18T15:00:00+00:00\", \"temperature\": 19.5, \"wind_speed\": -4, \"precipitation_probability\": 140",
            ])
        ) { notes.append($0) }
        XCTAssertEqual(
            notes,
            [
                "brightsky sent 4 value(s) no weather has, left out as unknown: weather[0].temperature = 293.15, "
                    + "weather[0].pressure_msl = 101970.0, weather[1].precipitation_probability = 140.0, …"
            ])
        XCTAssertNil(forecast.hourly[0].temperature, "a kelvin temperature is no °C")
        XCTAssertNil(forecast.hourly[0].windSpeed)
        XCTAssertNil(forecast.hourly[0].precipProbability)
        XCTAssertEqual(forecast.hourly[1].temperature, 19.5)
    }

    func testWrongTypes_areErrorsNamingTheField_inEitherAnswer() {
        XCTAssertEqual(
            parseError(answers(["\"timestamp\": \"2025-09-18T14:00:00+00:00\", \"wind_speed\": \"fast\""]))?.field,
            "weather[0].wind_speed")
        XCTAssertEqual(
            parseError(answers(["\"timestamp\": \"2025-09-18T14:00:00\""]))?.field, "weather[0].timestamp",
            "a time without an offset names no instant")
        XCTAssertEqual(parseError(answers(["\"temperature\": 3"]))?.field, "weather[0].timestamp")
        XCTAssertEqual(
            parseError(
                answers(
                    [], current: "{\"weather\": {\"timestamp\": \"2025-09-18T13:30:00+00:00\", \"temperature\": [1]}}"
                ))?.field, "current_weather.weather.temperature")
        XCTAssertEqual(parseError(answers([], current: "{\"sources\": []}"))?.field, "current_weather.weather")
        XCTAssertEqual(parseError(answers([], current: "<html>"))?.field, "current_weather")
        let sources = "{\"id\": \"2382\"}"
        XCTAssertEqual(
            parseError(answers(["\"timestamp\": \"2025-09-18T14:00:00+00:00\""], sources: sources))?.field,
            "sources[0].id")
        XCTAssertEqual(parseError([[]])?.problem, .invalidValue("expected 2 answers, got 1"))
    }

    func testItsErrorObject_isReported() {
        let body = Array("{\"detail\": \"No sources match your criteria\"}".utf8)
        let error = parseError([body, answers([])[1]])
        XCTAssertEqual(error?.problem, .providerReported("No sources match your criteria"))
        XCTAssertEqual(error?.provider, "brightsky")
        XCTAssertEqual(provider.refusal(in: body, now: now), ProviderRefusal(reason: "No sources match your criteria"))
        let invalid = Array(
            "{\"detail\": [{\"loc\": [\"query\", \"tz\"], \"msg\": \"Value error, Unknown timezone:\\nMars\", \"type\": \"value_error\"}]}"
                .utf8)
        XCTAssertEqual(provider.refusal(in: invalid, now: now)?.reason, "Value error, Unknown timezone: Mars")
        XCTAssertNil(provider.refusal(in: Array("<html>429</html>".utf8), now: now))
    }

    func testRepeatedAndUnorderedHours_areOrdered_eachOnce_theFirstKept() throws {
        var notes: [String] = []
        let forecast = try parse(
            answers([
                "\"timestamp\": \"2025-09-18T16:00:00+00:00\", \"temperature\": 3",
                "\"timestamp\": \"2025-09-18T14:00:00+00:00\", \"temperature\": 1",
                "\"timestamp\": \"2025-09-18T16:00:00+02:00\", \"temperature\": 9",
                "\"timestamp\": \"2025-09-18T15:00:00+00:00\", \"temperature\": 2",
            ])
        ) { notes.append($0) }
        XCTAssertEqual(forecast.hourly.map(\.temperature), [1, 2, 3])
        XCTAssertEqual(
            notes, ["brightsky sent 1 record(s) for an hour it had already given; the first of each is kept"])
    }

    func testFarStations_areNamed_nearOnesAreNot() throws {
        let far = """
            {"id": 2382, "observation_type": "forecast", "station_name": "WITTENBERG\\u001b[31m", "distance": 61234},
            {"id": 6150, "observation_type": "current", "station_name": "Tempelhof", "distance": 25001},
            {"id": 9, "observation_type": "historical", "station_name": "Dahlem", "distance": 26000}
            """
        let current = """
            {"weather": {"timestamp": "2025-09-18T13:30:00+00:00", "source_id": 1,
               "fallback_source_ids": {"temperature": 2, "wind_speed_10": 2, "solar_10": 3, "sunshine_30": 2}},
             "sources": [{"id": 1, "station_name": "Near", "distance": 25000},
                         {"id": 2, "station_name": "Lindenberg", "distance": 48500},
                         {"id": 3, "station_name": "Far For Sun Only", "distance": 49000}]}
            """
        var notes: [String] = []
        _ = try parse(
            answers(
                [
                    "\"timestamp\": \"2025-09-18T13:00:00+00:00\", \"source_id\": 6150, \"fallback_source_ids\": {\"wind_speed\": 9, \"sunshine\": 9}",
                    "\"timestamp\": \"2025-09-18T14:00:00+00:00\", \"source_id\": 2382",
                ], sources: far, current: current)
        ) { notes.append($0) }
        XCTAssertEqual(
            notes,
            [
                "brightsky: observed hours are from Tempelhof, 25 km away",
                "brightsky: the hourly forecast is for WITTENBERG[31m, 61 km away",
                "brightsky: some hours' wind_speed are from Dahlem, 26 km away",
                "brightsky: current temperature, wind_speed_10 are from Lindenberg, 49 km away",
            ])
    }

    /// Bright Sky's current answer for a mountain place whose own station
    /// (Feldberg, 1,490 m) lacks values a station `height` m high filled in.
    private func mountain(fallbackHeight: Double, distance: Double = 21_000) -> String {
        """
        {"weather": {"timestamp": "2025-09-18T13:30:00+00:00", "source_id": 1, "temperature": 32,
           "relative_humidity": 40, "pressure_msl": 1012, "wind_speed_10": 10, "dew_point": 17, "solar_10": 0.1,
           "fallback_source_ids": {"temperature": 2, "relative_humidity": 2, "pressure_msl": 2, "dew_point": 2,
                                   "solar_10": 3}},
         "sources": [{"id": 1, "station_name": "Feldberg/Schwarzwald", "distance": 900, "height": 1489.6},
                     {"id": 2, "station_name": "Freiburg", "distance": \(distance), "height": \(fallbackHeight)},
                     {"id": 3, "station_name": "Sun Only", "distance": 30000, "height": 200}]}
        """
    }

    func testValuesFromAnotherStation_sayWhichFromWhereHowFarAndHowMuchHigher() throws {
        var notes: [String] = []
        let forecast = try parse(
            answers(["\"timestamp\": \"2025-09-18T13:00:00+00:00\""], current: mountain(fallbackHeight: 1290)),
            leftOut: { notes.append($0) })
        let current = try XCTUnwrap(forecast.current)
        XCTAssertEqual(current.temperature, 32)
        // The dew point and the sun are not shown, so not named; the wind is the place's own station's.
        XCTAssertEqual(
            current.sources,
            [
                ValueSource(
                    values: ["temperature", "humidity", "pressure"], station: "Freiburg", distanceMetres: 21_000,
                    heightDifferenceMetres: -199.6)
            ])
        XCTAssertEqual(notes, [])
        // All the place's own station's: nothing to say.
        let own = try parse(answers(["\"timestamp\": \"2025-09-18T13:00:00+00:00\""]))
        XCTAssertNil(own.current?.sources)
    }

    func testAStationFarHigherOrLower_isNotUsedForCurrentConditions() throws {
        var notes: [String] = []
        let forecast = try parse(
            answers(
                ["\"timestamp\": \"2025-09-18T13:00:00+00:00\", \"temperature\": -1"],
                current: mountain(fallbackHeight: 236.3)),
            leftOut: { notes.append($0) })
        XCTAssertNil(forecast.current, "32 °C from Freiburg is not the Feldberg's: the forecast's hour stands in")
        XCTAssertEqual(forecast.hourly.first?.temperature, -1)
        XCTAssertEqual(
            notes,
            [
                "brightsky: current conditions not used, the forecast's hour stands in: temperature, humidity, "
                    + "pressure from Freiburg, 21 km away, 1253 m lower than the place's own station"
            ])
    }

    func testTooManyHours_areCutAt15Days() throws {
        let records = (0..<400).map { "\"timestamp\": \"\(iso(1_758_153_600 + Double($0) * 3600))\"" }
        var notes: [String] = []
        let forecast = try parse(answers(records)) { notes.append($0) }
        XCTAssertEqual(forecast.hourly.count, 360)
        XCTAssertEqual(notes, ["brightsky sent 400 hourly records; raind keeps the first 360 (15 days)"])
    }
}
