import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct DWDObservationSourceTests {
    let source = DWDObservationSource()
    let berlin = Location(
        id: LocationID("berlin"), name: "Berlin", countryCode: "DE", latitude: 52.52, longitude: 13.41,
        timeZone: "Europe/Berlin", source: .coordinates)
    let tempelhof = ObservationStation(
        id: "00433", name: "Berlin-Tempelhof", latitude: 52.4676, longitude: 13.402, heightMetres: 47.7)
    /// 2025-09-18 13:40 UTC.
    let now = 1_758_202_800.0

    func body() throws -> String {
        try String(decoding: Fixtures.bytes("observations/brightsky-current-weather-berlin.json"), as: UTF8.self)
    }

    func parsed(_ text: String, station: ObservationStation? = nil) -> Result<Observation, ProviderParseError> {
        do {
            return .success(try source.observation(Array(text.utf8), station: station ?? tempelhof, now: now))
        } catch {
            return .failure(error)
        }
    }

    @Test func asksForThePointsStationThenForItsID() {
        #expect(
            source.stationPlan(for: berlin, lookup: nil)
                == .stations(ProviderRequest(path: "/current_weather?lat=52.52&lon=13.41&max_dist=25000&units=dwd")))
        var strasbourg = berlin
        strasbourg.countryCode = "FR"
        #expect(
            source.stationPlan(for: strasbourg, lookup: nil) == .notCovered("the DWD reports stations in Germany only"))
        #expect(
            source.request(for: tempelhof) == ProviderRequest(path: "/current_weather?dwd_station_id=00433&units=dwd"))
        #expect(source.terms.pollingInterval >= 3600 && source.terms.countries == ["DE"])
    }

    @Test func theRecordedStationsTheRecordsOwnFirst() throws {
        let stations = try source.stations(Array(try body().utf8), now: now)
        #expect(stations.map(\.id) == ["00433", "03987"])
        #expect(stations[0] == tempelhof && stations[1].name == "Potsdam" && stations[1].heightMetres == 80.9)
    }

    @Test func theRecordedSynopAtTempelhof() throws {
        guard case .success(let observation) = parsed(try body()) else {
            Issue.record("refused")
            return
        }
        #expect(observation.source == "dwd" && observation.station == tempelhof && observation.time == 1_758_202_200)
        #expect(observation.temperature == 19.7 && observation.dewPoint == 15.77)
        #expect(abs((observation.windSpeed ?? 0) - 18.7 / 3.6) < 1e-9 && observation.windBearing == 260)
        #expect(abs((observation.windGust ?? 0) - 33.1 / 3.6) < 1e-9)
        #expect(abs((observation.visibility ?? 0) - 61.711) < 1e-9)
        #expect(observation.precipitation == 0 && observation.precipitationHours == 1 && observation.weather.isEmpty)
    }

    @Test func valuesFromAnotherStationAreLeftOut() throws {
        let text = try body().replacingFirst(
            #""fallback_source_ids": {"#, with: #""fallback_source_ids": { "temperature": 254907, "condition": 254907,"#
        )
        let changed = text.replacingFirst(#""condition": "dry""#, with: #""condition": "snow""#)
        guard case .success(let observation) = parsed(changed) else {
            Issue.record("refused")
            return
        }
        #expect(observation.temperature == nil && observation.weather.isEmpty && observation.dewPoint == 15.77)
        guard
            case .success(let snowing) = parsed(
                try body().replacingFirst(#""condition": "dry""#, with: #""condition": "snow""#))
        else {
            Issue.record("refused")
            return
        }
        #expect(snowing.weather == [ObservedWeather(.snow)])
    }

    @Test func anAnswerFromAnotherStationIsRefused() throws {
        let potsdam = ObservationStation(
            id: "03987", name: "Potsdam", latitude: 52.3813, longitude: 13.0622, heightMetres: 80.9)
        guard case .failure(let error) = parsed(try body(), station: potsdam) else {
            Issue.record("parsed")
            return
        }
        #expect(error.field == "weather.source_id")
    }

    @Test func hostileAnswersAreRefusedNamingTheField() throws {
        let cases: [(String, String)] = [
            (#"{"detail":"No sources match your criteria"}"#, "detail"),
            ("[]", ""),
            (#"{"sources":[]}"#, "weather"),
            (try body().replacingFirst(#""temperature": 19.7"#, with: #""temperature": 190.7"#), "temperature"),
            (
                try body().replacingFirst(#""temperature": 19.7"#, with: #""temperature": "warm""#),
                "weather.temperature"
            ),
            (
                try body().replacingFirst(#""timestamp": "2025-09-18T13:30:00+00:00""#, with: #""timestamp": "soon""#),
                "weather.timestamp"
            ),
            (
                try body().replacingFirst(#""dwd_station_id": "00433""#, with: #""dwd_station_id": "../x""#),
                "weather.source_id"
            ),
        ]
        for (text, field) in cases {
            guard case .failure(let error) = parsed(text) else {
                Issue.record("parsed \(text.prefix(80))")
                continue
            }
            #expect(error.field == field, "\(text.prefix(80)): \(error)")
        }
    }
}

extension String {
    /// The text with the first `target` replaced; unchanged when absent (the test then fails on its values).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let wanted = Array(target.utf8)
        guard !wanted.isEmpty, bytes.count >= wanted.count else { return self }
        for start in 0...(bytes.count - wanted.count) where bytes[start..<(start + wanted.count)].elementsEqual(wanted)
        {
            return String(
                decoding: bytes[..<start] + Array(replacement.utf8) + bytes[(start + wanted.count)...], as: UTF8.self)
        }
        return self
    }
}
