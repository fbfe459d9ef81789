import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

/// What a backfill reads (docs/ACCURACY.md, "Backfill"): Open-Meteo's
/// Previous Runs answer as samples at +24 h and +48 h, marked backfilled,
/// and each observation source's history of a station; an answer that
/// breaks a rule is refused whole, naming the field.
@Suite struct BackfillParsingTests {
    let archive = OpenMeteoPreviousRuns()
    /// 2026-07-21T21:00Z: the hour of the made answers' last report.
    let orlandoNow = 1_784_667_600.0
    let kmco = ObservationStation(
        id: "KMCO", name: "Orlando Intl, FL, US", latitude: 28.4182, longitude: -81.3241, heightMetres: 27)

    func refusal(_ text: String, now: Double = 1_800_000_000) -> ProviderParseError? {
        do {
            _ = try archive.parse(Array(text.utf8), now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test func asksForTheRunsOfOneAndTwoDaysBefore_overSevenPastDays() {
        let orlando = Location(
            id: LocationID("orlando"), name: "Orlando", countryCode: "US", latitude: 28.5383, longitude: -81.3792,
            source: .coordinates)
        #expect(
            archive.request(for: orlando).path
                == "/v1/forecast?latitude=28.54&longitude=-81.38&hourly=temperature_2m_previous_day1,"
                + "temperature_2m_previous_day2,precipitation_previous_day1,precipitation_previous_day2,"
                + "wind_speed_10m_previous_day1,wind_speed_10m_previous_day2&past_days=7&forecast_days=1"
                + "&timezone=GMT&wind_speed_unit=ms&timeformat=unixtime")
        #expect(OpenMeteoPreviousRuns.leads.map(\.leadHours) == [24, 48])
    }

    @Test func theRecordedAnswer_givesBackfilledSamplesAt24And48Hours() throws {
        // 2026-10-02T00:00 GMT and the two hours after it; ISO 8601 times, no wind.
        let first = 1_790_899_200.0
        let samples = try archive.parse(Fixtures.bytes("openmeteo-previous-runs-enschede-trimmed.json"), now: 1.8e9)
        let day1 = samples.filter { $0.lead == 24 }
        let day2 = samples.filter { $0.lead == 48 }
        #expect(day1.map(\.hour) == [first, first + 3600, first + 7200])
        #expect(day1.map(\.temperature) == [14.2, 12.9, 12.1])
        #expect(day2.map(\.temperature) == [14.4, 14.2, 13.4])
        #expect(samples.allSatisfy { $0.backfilled == true && $0.provider == "open-meteo" && $0.windSpeed == nil })
        #expect(samples.allSatisfy { $0.issuedAt == $0.hour - Double($0.lead * 3600) })
        // An hour's rain is the next row's; the last row has none after it.
        #expect(day1.map(\.rain) == [false, false, nil])
        // Hours still ahead are not taken.
        #expect(
            try archive.parse(Fixtures.bytes("openmeteo-previous-runs-enschede-trimmed.json"), now: first).count == 2)
    }

    @Test func theMadeWeekOfOrlando() throws {
        let samples = try archive.parse(Fixtures.bytes("openmeteo-previous-runs-orlando-made.json"), now: orlandoNow)
        // From 2026-07-14T00:00Z to the hour now: 190 hours at each lead.
        #expect(samples.filter { $0.lead == 24 }.count == 190 && samples.filter { $0.lead == 48 }.count == 190)
        #expect(samples.allSatisfy { $0.hour <= orlandoNow && $0.rainProbability == nil })
        #expect(samples.filter { $0.lead == 24 && $0.rain == true }.count == 32)
    }

    @Test func aDamagedAnswer_isRefusedWhole_namingTheField() {
        let good = #""hourly":{"time":[1800000000,1800003600],"temperature_2m_previous_day1":[10,11],"#
        let cases: [(String, String)] = [
            ("{\"hourly\":", ""),
            (#"{"error":true,"reason":"Cannot initialize WeatherVariable from invalid String value"}"#, "reason"),
            (#"{"latitude":52}"#, "hourly"),
            ("{" + good + #""temperature_2m_previous_day2":[10]}}"#, "hourly.temperature_2m_previous_day2"),
            ("{" + good + #""temperature_2m_previous_day2":[10,900]}}"#, "hourly.temperature_2m_previous_day2[1]"),
            ("{" + good + #""temperature_2m_previous_day2":[10,"NaN"]}}"#, "hourly.temperature_2m_previous_day2[1]"),
            (
                "{" + good + #""wind_speed_10m_previous_day1":[-3,2],"temperature_2m_previous_day2":[1,2]}}"#,
                "hourly.wind_speed_10m_previous_day1[0]"
            ),
            (
                #"{"hourly":{"time":[1800000000,1800000600],"temperature_2m_previous_day1":[1,2],"#
                    + #""temperature_2m_previous_day2":[1,2]}}"#, "hourly.time[1]"
            ),
            (
                #"{"hourly":{"time":[1800003600,1800000000],"temperature_2m_previous_day1":[1,2],"#
                    + #""temperature_2m_previous_day2":[1,2]}}"#, "hourly.time[1]"
            ),
            ("{" + good + "\"x\":0}}", "hourly.temperature_2m_previous_day2"),
            (
                #"{"hourly_units":{"temperature_2m_previous_day1":"K"},"# + good
                    + #""temperature_2m_previous_day2":[1,2]}}"#, "hourly_units.temperature_2m_previous_day1"
            ),
        ]
        for (text, field) in cases {
            let error = refusal(text)
            #expect(error != nil, "\(text) was read")
            #expect(error?.field == field, "\(text): \(String(describing: error))")
        }
        #expect(refusal("{" + good + #""temperature_2m_previous_day2":[1,2]}}"#) == nil)
    }

    @Test func theStationsHistoryOfEachSource() throws {
        let metar = METARObservationSource()
        #expect(
            metar.historyRequest(for: kmco, since: orlandoNow - 7 * 86_400, now: orlandoNow).path
                == "/api/data/metar?ids=KMCO&format=json&hours=168")
        let recorded = try metar.history(
            Fixtures.bytes("observations/aviationweather-metar-json-kmco-kjax-kdab-hours2.json"), station: kmco,
            now: orlandoNow)
        #expect(recorded.map(\.time) == [1_784_663_580, 1_784_667_180], "oldest first, KMCO's only")
        #expect(recorded.map(\.temperature) == [36, 34])
        let made = try metar.history(
            Fixtures.bytes("observations/aviationweather-metar-json-kmco-168-hours-made.json"), station: kmco,
            now: orlandoNow)
        #expect(made.count == 168 && made.last?.time == orlandoNow - 420)

        let nws = NWSObservationSource()
        let birmingham = ObservationStation(
            id: "KBHM", name: "KBHM", latitude: 33.56, longitude: -86.75, heightMetres: 187)
        #expect(
            nws.historyRequest(for: birmingham, since: 1_708_444_800 - 86_400, now: 1_708_444_800).path
                == "/stations/KBHM/observations?start=2024-02-19T16:00:00Z")
        let fromNWS = try nws.history(
            Fixtures.bytes("observations/nws-station-observations-limit1-kbhm.json"), station: birmingham,
            now: 1_708_445_000)
        #expect(fromNWS.map(\.time) == [1_708_444_380] && fromNWS.first?.temperature == 13.9)

        let dwd = DWDObservationSource()
        let tempelhof = ObservationStation(
            id: "00433", name: "Berlin-Tempelhof", latitude: 52.4675, longitude: 13.4021, heightMetres: 48)
        #expect(
            dwd.historyRequest(for: tempelhof, since: 1_758_196_800, now: 1_758_200_400).path
                == "/weather?dwd_station_id=00433&date=2025-09-18T12:00:00Z&last_date=2025-09-18T13:00:00Z&units=dwd")
        let answer = #"""
            {"weather":[
             {"timestamp":"2025-09-18T12:00:00+00:00","source_id":6007,"temperature":21.5,"wind_speed":10.8,
              "precipitation":0.3,"condition":"rain","fallback_source_ids":{}},
             {"timestamp":"2025-09-18T13:00:00+00:00","source_id":6007,"temperature":22.1,"wind_speed":7.2,
              "precipitation":0,"condition":"dry","fallback_source_ids":{"wind_speed":1}},
             {"timestamp":"2025-09-18T13:00:00+00:00","source_id":9999,"temperature":30}],
             "sources":[{"id":6007,"dwd_station_id":"00433","observation_type":"synop","lat":52.4675,"lon":13.4021,
              "height":48,"station_name":"Berlin-Tempelhof"},
              {"id":9999,"dwd_station_id":"10389","observation_type":"forecast","lat":52.5,"lon":13.4}]}
            """#
        let fromDWD = try dwd.history(Array(answer.utf8), station: tempelhof, now: 1_758_200_400)
        #expect(fromDWD.map(\.temperature) == [21.5, 22.1], "the forecast record is not the station's")
        #expect(fromDWD.first?.weather == [ObservedWeather(.rain)] && fromDWD.first?.precipitation == 0.3)
        #expect(fromDWD.last?.windSpeed == nil, "a value borrowed from another station is left out")
    }

    @Test func aHistoryWithOneImpossibleValue_isRefusedWhole() throws {
        var text = String(
            decoding: try Fixtures.bytes("observations/aviationweather-metar-json-kmco-kjax-kdab-hours2.json"),
            as: UTF8.self)
        text = text.replacingFirst(#""temp":36,"#, with: #""temp":360,"#)
        #expect(throws: ProviderParseError.self) {
            try METARObservationSource().history(Array(text.utf8), station: kmco, now: orlandoNow)
        }
        #expect(throws: ProviderParseError.self) {
            try METARObservationSource().history(Array("[{".utf8), station: kmco, now: orlandoNow)
        }
    }

    /// The archive's answers, cut short and with bytes changed, through the
    /// fuzz target: each returns, and what it takes makes a record raind reads back.
    @Test func cutAndChangedArchiveAnswersNeverTrap() throws {
        for name in ["openmeteo-previous-runs-enschede-trimmed.json", "openmeteo-previous-runs-orlando-made.json"] {
            let bytes = try Fixtures.bytes(name)
            FuzzTargets.observations(bytes)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
                FuzzTargets.observations(Array(bytes[..<cut]))
                var changed = bytes
                changed[cut] = changed[cut] == UInt8(ascii: "9") ? UInt8(ascii: "\"") : UInt8(ascii: "9")
                FuzzTargets.observations(changed)
            }
        }
    }

    @Test func anObservationNoRecordKeeps_isUnknownInTheRecord() {
        var record = AccuracyRecord()
        let hot = Observation(source: "metar", station: kmco, time: orlandoNow - 420, temperature: 94, windSpeed: 150)
        #expect(hot.validationProblem(now: orlandoNow) == nil, "an observation may hold it")
        record.record(hot, now: orlandoNow)
        #expect(record.observed.first?.temperature == nil && record.observed.first?.windSpeed == nil)
        #expect(record.validationProblem() == nil)
    }
}
