import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct METARObservationSourceTests {
    let source = METARObservationSource()
    let laxStation = ObservationStation(
        id: "KLAX", name: "Los Angeles Intl, CA, US", latitude: 33.9382, longitude: -118.3866, heightMetres: 30)
    /// 2026-07-29 14:00 UTC: minutes after the recorded reports.
    let now = 1_785_333_600.0

    func body(_ name: String) throws -> [UInt8] { try Fixtures.bytes("observations/" + name) }

    func parsed(_ text: String, station: ObservationStation) -> Result<Observation, ProviderParseError> {
        do {
            return .success(try source.observation(Array(text.utf8), station: station, now: now))
        } catch {
            return .failure(error)
        }
    }

    @Test func asksForTheReportsInABoxAroundThePlaceThenForItsStation() {
        let washington = Location(
            id: LocationID("washington"), name: "Washington", countryCode: "US", latitude: 38.8894,
            longitude: -77.0352, source: .coordinates)
        // ±25 km: 0.23° of latitude, 0.29° of longitude at 39° N, rounded outwards.
        #expect(
            source.stationPlan(for: washington, lookup: nil)
                == .stations(ProviderRequest(path: "/api/data/metar?bbox=38.66,-77.33,39.12,-76.74&format=json")))
        #expect(source.request(for: laxStation) == ProviderRequest(path: "/api/data/metar?ids=KLAX&format=json"))
        #expect(source.terms.pollingInterval >= 3600 && source.terms.countries == nil)
        // Near a pole the box stops at its edge.
        var pole = washington
        pole.latitude = 89.95
        guard case .stations(let request) = source.stationPlan(for: pole, lookup: nil) else {
            Issue.record("no station request")
            return
        }
        #expect(request.path.contains(",90,") || request.path.contains(",90.00,") || request.path.contains("90&"))
    }

    @Test func theRecordedReportOfLosAngeles() throws {
        let observation = try source.observation(
            try body("aviationweather-metar-json-klax-kjfk-kord.json"), station: laxStation, now: now)
        #expect(observation.source == "metar" && observation.station == laxStation)
        #expect(observation.time == 1_785_333_180)
        #expect(observation.temperature == 21.7 && observation.dewPoint == 17.2)
        // 09005KT: 5 knots from the east; 9SM.
        #expect(abs((observation.windSpeed ?? 0) - 2.572) < 0.001 && observation.windBearing == 90)
        #expect(observation.windGust == nil)
        #expect(abs((observation.visibility ?? 0) - 14.484) < 0.001)
        #expect(observation.weather.isEmpty && observation.precipitation == nil)
    }

    @Test func tenPlusMilesReadsAsItsBound() throws {
        let kennedy = ObservationStation(
            id: "KJFK", name: "JFK", latitude: 40.6392, longitude: -73.7639, heightMetres: 3)
        let observation = try source.observation(
            try body("aviationweather-metar-json-klax-kjfk-kord.json"), station: kennedy, now: now)
        #expect(abs((observation.visibility ?? 0) - 16.093) < 0.001 && observation.windBearing == 290)
    }

    @Test func theNewestOfSeveralHoursIsKept() throws {
        let orlando = ObservationStation(
            id: "KMCO", name: "Orlando", latitude: 28.4182, longitude: -81.3241, heightMetres: 27)
        let observation = try source.observation(
            try body("aviationweather-metar-json-kmco-kjax-kdab-hours2.json"), station: orlando, now: 1_784_668_000)
        // 20:53Z, not the 19:53Z report with its 19-knot gust.
        #expect(observation.time == 1_784_667_180 && observation.temperature == 34 && observation.windGust == nil)
    }

    @Test func theStationsOfABoxEachOnce() throws {
        let stations = try source.stations(try body("aviationweather-metar-json-kmco-kjax-kdab-hours2.json"), now: now)
        #expect(stations.map(\.id) == ["KMCO", "KJAX", "KDAB"])
        #expect(stations[0].name == "Orlando Intl, FL, US" && stations[0].heightMetres == 27)
        #expect(try source.stations([], now: now).isEmpty)
        #expect(try source.stations(Array("[]".utf8), now: now).isEmpty)
    }

    @Test func aStationLeftOutOfTheAnswerIsSaidSo() throws {
        let other = ObservationStation(id: "EDDB", name: "Berlin", latitude: 52.36, longitude: 13.5, heightMetres: 48)
        #expect(throws: ProviderParseError.self) {
            try source.observation(try body("aviationweather-metar-json-klax-kjfk-kord.json"), station: other, now: now)
        }
        guard case .failure(let error) = parsed("[]", station: other) else {
            Issue.record("parsed")
            return
        }
        #expect(error.problem == .notCovered("no recent report from EDDB"))
    }

    @Test func hostileAnswersAreRefusedNamingTheField() {
        let report = #"[{"icaoId":"KLAX","obsTime":1785333180,"lat":33.9,"lon":-118.4"#
        let cases: [(String, String)] = [
            ("not json", ""),
            (#"{"error":"Invalid station"}"#, ""),
            (#"[1]"#, "[0]"),
            (report + #","wdir":"NNW"}]"#, "[0].wdir"),
            (report + #","visib":"lots"}]"#, "[0].visib"),
            (report + #","temp":"warm"}]"#, "[0].temp"),
            (report + #","temp":1e308}]"#, "temperature"),
            (report + #","temp":10,"dewp":25}]"#, "dewPoint"),
            (report + #","wspd":-4}]"#, "windSpeed"),
            (#"[{"icaoId":"KLAX","obsTime":1885333180,"lat":33.9,"lon":-118.4}]"#, "time"),
            (#"[{"icaoId":"KLAX","lat":33.9,"lon":-118.4}]"#, "[0].obsTime"),
        ]
        for (text, field) in cases {
            guard case .failure(let error) = parsed(text, station: laxStation) else {
                Issue.record("parsed \(text)")
                continue
            }
            #expect(error.field == field, "\(text): \(error)")
            #expect(error.provider == "metar")
        }
        // Variable wind has no bearing; calm has none either.
        guard case .success(let variable) = parsed(report + #","wdir":"VRB","wspd":3}]"#, station: laxStation),
            case .success(let calm) = parsed(report + #","wdir":0,"wspd":0}]"#, station: laxStation)
        else {
            Issue.record("refused")
            return
        }
        #expect(variable.windBearing == nil && variable.windSpeed != nil && calm.windBearing == nil)
    }

    @Test func aStationWhoseIDCannotGoInAPathIsLeftOutOfTheList() throws {
        let text =
            #"[{"icaoId":"K/../x","lat":1,"lon":2,"obsTime":1},{"icaoId":"KLAX","lat":33.9,"lon":-118.4,"obsTime":1},"#
            + #"{"icaoId":"KBAD","lat":123,"lon":2,"obsTime":1}]"#
        #expect(try source.stations(Array(text.utf8), now: now).map(\.id) == ["KLAX"])
    }

    @Test func presentWeatherAndPrecipitation() throws {
        let text =
            #"[{"icaoId":"KLAX","obsTime":1785333180,"lat":33.9,"lon":-118.4,"wxString":"+TSRA BR","precip":0.12}]"#
        guard case .success(let observation) = parsed(text, station: laxStation) else {
            Issue.record("refused")
            return
        }
        #expect(observation.weather == [ObservedWeather(.thunderstorm, intensity: .heavy), ObservedWeather(.mist)])
        #expect(abs((observation.precipitation ?? 0) - 3.048) < 1e-9 && observation.precipitationHours == 1)
    }
}

@Suite struct PresentWeatherCodeTests {
    @Test(arguments: [
        ("-SN", [ObservedWeather(.snow, intensity: .light)]),
        ("SN", [ObservedWeather(.snow)]),
        ("+TSRA BR", [ObservedWeather(.thunderstorm, intensity: .heavy), ObservedWeather(.mist)]),
        ("FZDZ", [ObservedWeather(.freezingRain)]),
        ("-RASN", [ObservedWeather(.sleet, intensity: .light)]),
        ("SHRA", [ObservedWeather(.rain, showers: true)]),
        ("-RA RA +RA", [ObservedWeather(.rain, intensity: .heavy)]),
        ("FG HZ", [ObservedWeather(.fog), ObservedWeather(.haze)]),
        ("GR", [ObservedWeather(.hail)]),
        ("UP", [ObservedWeather(.precipitation)]),
        ("VCSH", []),
        ("BLSN", []),
        ("DRSN -SN", [ObservedWeather(.snow, intensity: .light)]),
        ("XXYY", []),
        ("R", []),
        ("", []),
        ("NSW", []),
    ])
    func decodes(_ text: String, _ expected: [ObservedWeather]) {
        #expect(PresentWeatherCode.decode(text) == expected)
    }

    @Test func aLongStringIsReadOnlyToItsBound() {
        let many = Array(repeating: "RA", count: 10_000).joined(separator: " ")
        #expect(PresentWeatherCode.decode(many) == [ObservedWeather(.rain)])
        #expect(PresentWeatherCode.decode(String(repeating: "RA", count: 5_000)).isEmpty)
    }
}
