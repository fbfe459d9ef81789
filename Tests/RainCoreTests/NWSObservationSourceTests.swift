import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct NWSObservationSourceTests {
    let source = NWSObservationSource()
    let washington = Location(
        id: LocationID("washington"), name: "Washington", countryCode: "US", latitude: 38.8894, longitude: -77.0352,
        timeZone: "America/New_York", source: .coordinates)
    let reagan = ObservationStation(
        id: "KDCA", name: "Washington/Reagan National Airport, DC", latitude: 38.84833, longitude: -77.03417,
        heightMetres: 3.9624)
    /// 2026-02-06 21:45 UTC.
    let now = 1_770_414_300.0

    func body(_ name: String) throws -> [UInt8] { try Fixtures.bytes("observations/" + name) }

    func parsed(_ text: String) -> Result<Observation, ProviderParseError> {
        do {
            return .success(try source.observation(Array(text.utf8), station: reagan, now: now))
        } catch {
            return .failure(error)
        }
    }

    /// An observation with `properties` added to the recorded station and time.
    func made(_ properties: String) -> String {
        #"{"type":"Feature","properties":{"stationId":"KDCA","timestamp":"2026-02-06T21:30:00+00:00""#
            + (properties.isEmpty ? "" : "," + properties) + "}}"
    }

    @Test func looksUpTheGridCellThenAsksForItsStations() throws {
        let points = ProviderRequest(path: "/points/38.89,-77.04", headers: ["Accept": "application/geo+json"])
        #expect(source.stationPlan(for: washington, lookup: nil) == .lookup(points))
        let cell = try #require(NWSGridCell(office: "LWX", x: 97, y: 71, timeZone: nil))
        #expect(
            source.stationPlan(for: washington, lookup: cell.lookup(expiresAt: now + 3600))
                == .stations(
                    ProviderRequest(path: "/gridpoints/LWX/97,71/stations", headers: ["Accept": "application/geo+json"])
                ))
        var paris = washington
        paris.countryCode = "FR"
        #expect(source.stationPlan(for: paris, lookup: nil) == .notCovered(NWS.notCovered))
        #expect(
            source.request(for: reagan)
                == ProviderRequest(
                    path: "/stations/KDCA/observations/latest", headers: ["Accept": "application/geo+json"]))
        #expect(source.terms.pollingInterval >= 3600)
    }

    @Test func theRecordedStationListsNearestFirst() throws {
        let stations = try source.stations(try body("nws-gridpoints-stations-lwx-97-71.json"), now: now)
        #expect(stations.count == 56 && stations[0] == reagan)
        #expect(stations.prefix(3).map(\.id) == ["KDCA", "KCGS", "KADW"])
        // The older shape, without distances.
        let ohio = try source.stations(try body("nws-gridpoints-stations-central-ohio.json"), now: now)
        #expect(ohio.count == 41 && ohio[0].id == "KCMH" && ohio[0].name == "John Glenn Columbus International Airport")
        #expect(abs((ohio[0].heightMetres ?? 0) - 245.9736) < 1e-9)
    }

    @Test func theRecordedLightSnowAtReagan() throws {
        let observation = try source.observation(
            try body("nws-station-observations-latest-kdca.json"), station: reagan, now: now)
        #expect(observation.source == "nws" && observation.time == 1_770_413_400)
        #expect(observation.temperature == -1 && observation.dewPoint == -7)
        // Calm: no bearing; the gust is null.
        #expect(observation.windSpeed == 0 && observation.windBearing == nil && observation.windGust == nil)
        #expect(abs((observation.visibility ?? 0) - 9.65606) < 1e-9)
        #expect(observation.weather == [ObservedWeather(.snow, intensity: .light)])
        #expect(observation.precipitation == nil)
    }

    @Test func theOlderShapeInMetresOfRain() throws {
        let lauderdale = ObservationStation(
            id: "KFLL", name: "KFLL", latitude: 26.07, longitude: -80.15, heightMetres: 3)
        let observation = try source.observation(
            try body("nws-station-observations-latest-kfll.json"), station: lauderdale, now: 1_646_266_000)
        #expect(observation.time == 1_646_265_180 && observation.temperature == 22.8 && observation.dewPoint == 18.3)
        #expect(abs((observation.windSpeed ?? 0) - 2.1) < 1e-9 && observation.windBearing == 20)
        // No rain in the last six hours, in `wmoUnit:m`.
        #expect(observation.precipitation == 0 && observation.precipitationHours == 6)
        #expect(observation.visibility == 16.09)
    }

    @Test func theNewestOfACollection() throws {
        let birmingham = ObservationStation(
            id: "KBHM", name: "KBHM", latitude: 33.56, longitude: -86.75, heightMetres: 187)
        let observation = try source.observation(
            try body("nws-station-observations-limit1-kbhm.json"), station: birmingham, now: 1_708_445_000)
        #expect(observation.time == 1_708_444_380 && observation.temperature == 13.9 && observation.windBearing == 250)
        #expect(throws: ProviderParseError.self) {
            try source.observation(
                Array(#"{"type":"FeatureCollection","features":[]}"#.utf8), station: birmingham, now: now)
        }
    }

    @Test func valuesQualityControlMarksBadAreLeftOut() throws {
        for mark in ["X", "Q", "B"] {
            let text = made(
                #""temperature":{"unitCode":"wmoUnit:degC","value":48,"qualityControl":"\#(mark)"},"#
                    + #""dewpoint":{"unitCode":"wmoUnit:degC","value":-7,"qualityControl":"V"}"#)
            guard case .success(let observation) = parsed(text) else {
                Issue.record("refused \(mark)")
                continue
            }
            #expect(observation.temperature == nil && observation.dewPoint == -7)
        }
        for mark in ["V", "C", "S", "Z", "G"] {
            let text = made(#""temperature":{"unitCode":"wmoUnit:degF","value":50,"qualityControl":"\#(mark)"}"#)
            guard case .success(let observation) = parsed(text) else {
                Issue.record("refused \(mark)")
                continue
            }
            #expect(observation.temperature == 10)
        }
    }

    @Test func hostileAnswersAreRefusedNamingTheField() {
        let cases: [(String, String)] = [
            ("[]", ""),
            (#"{"type":"https://api.weather.gov/problems/Unexpected","title":"Unexpected Problem","status":500}"#, ""),
            (made(#""temperature":{"unitCode":"wmoUnit:furlong","value":3}"#), "properties.temperature.unitCode"),
            (made(#""temperature":{"unitCode":"wmoUnit:degC","value":"hot"}"#), "properties.temperature.value"),
            (made(#""temperature":{"unitCode":"wmoUnit:degC","value":900}"#), "temperature"),
            (made(#""windSpeed":{"unitCode":"wmoUnit:km_h-1","value":-3}"#), "windSpeed"),
            (made(#""presentWeather":[3]"#), "properties.presentWeather[0]"),
            (
                #"{"type":"Feature","properties":{"stationId":"KIAD","timestamp":"2026-02-06T21:30:00+00:00"}}"#,
                "properties.stationId"
            ),
            (#"{"type":"Feature","properties":{"stationId":"KDCA","timestamp":"yesterday"}}"#, "properties.timestamp"),
            (#"{"type":"Feature","properties":{"stationId":"KDCA"}}"#, "properties.timestamp"),
        ]
        for (text, field) in cases {
            guard case .failure(let error) = parsed(text) else {
                Issue.record("parsed \(text)")
                continue
            }
            #expect(error.field == field, "\(text): \(error)")
        }
    }

    @Test func presentWeatherInWordsAndNotInTheVicinity() {
        let text = made(
            #""presentWeather":[{"intensity":"heavy","modifier":null,"weather":"rain","rawString":"+RA"},"#
                + #"{"intensity":null,"modifier":"showers","weather":"rain","rawString":"VCSH","inVicinity":true},"#
                + #"{"intensity":"light","modifier":"freezing","weather":"drizzle"}]"#)
        guard case .success(let observation) = parsed(text) else {
            Issue.record("refused")
            return
        }
        #expect(
            observation.weather == [
                ObservedWeather(.freezingRain, intensity: .light), ObservedWeather(.rain, intensity: .heavy),
            ])
    }
}
