import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// What raind keeps to judge a place's providers (docs/ACCURACY.md): a
/// forecast's samples at the lead times, the station's hours, the bounds,
/// and a file read back refused, naming the field, when it breaks the rules.
final class AccuracyRecordTests: XCTestCase {
    /// 2026-11-01T00:00:00Z.
    static let start = 1_793_491_200.0
    static let station = ObservationStation(
        id: "KLAX", name: "Los Angeles", latitude: 33.94, longitude: -118.39, heightMetres: 38)

    /// A forecast fetched at `issued` with hourly rows from its hour for `hours` hours.
    static func forecast(
        _ provider: String, issued: Double, hours: Int = 60, temperature: (Double) -> Double = { _ in 10 }
    )
        -> Forecast
    {
        let first = (issued / 3600).rounded(.up) * 3600
        let rows = (0..<hours).map { index -> HourlyForecast in
            let time = first + Double(index) * 3600
            var row = HourlyForecast(time: time)
            row.temperature = temperature(time)
            row.windSpeed = 3
            row.precipIntensity = index % 2 == 0 ? 0.4 : 0
            row.precipProbability = 0.5
            row.icon = "cloudy"
            return row
        }
        return Forecast(provider: provider, fetchedAt: issued, hourly: rows)
    }

    func testForecast_isSampledAtEachLeadTime_forThreeHoursEach() {
        var record = AccuracyRecord()
        let issued = Self.start + 600
        record.record(Self.forecast("open-meteo", issued: issued), now: issued)
        for lead in AccuracyRecord.leadHours {
            let hours = record.samples.filter { $0.lead == lead }.map(\.hour)
            // From L h after the fetch (the next whole hour) to before L + 3 h.
            XCTAssertEqual(hours, [1, 2, 3].map { Self.start + Double(lead * 3600 + $0 * 3600) }, "lead \(lead)")
        }
        let sample = record.samples[0]
        XCTAssertEqual(sample.temperature, 10)
        XCTAssertEqual(sample.rainProbability, 0.5)
        XCTAssertEqual(sample.windSpeed, 3)
        XCTAssertEqual(record.samples.map(\.rain).compactMap { $0 }.count, 9, "every hour says rain or not")
    }

    func testLaterForecast_replacesTheSample_forTheSameProviderLeadAndHour_notAnotherProvider() {
        var record = AccuracyRecord()
        record.record(Self.forecast("open-meteo", issued: Self.start), now: Self.start)
        record.record(Self.forecast("metno", issued: Self.start), now: Self.start)
        record.record(
            Self.forecast("open-meteo", issued: Self.start + 3600, temperature: { _ in 14 }), now: Self.start + 3600)
        let hour = Self.start + 7 * 3600
        let kept = record.samples.filter { $0.hour == hour && $0.lead == 6 }
        XCTAssertEqual(kept.count, 2)
        XCTAssertEqual(kept.first { $0.provider == "open-meteo" }?.temperature, 14, "the later issue wins")
        XCTAssertEqual(kept.first { $0.provider == "metno" }?.temperature, 10)
    }

    func testBackfilledSample_neverReplacesOneKeptAsItCame() {
        var record = AccuracyRecord()
        let hour = Self.start + 24 * 3600
        let real = ForecastSample(provider: "open-meteo", lead: 24, hour: hour, issuedAt: Self.start, temperature: 5)
        var archived = real
        archived.issuedAt += 600
        archived.temperature = 9
        archived.backfilled = true
        record.merge([real], now: Self.start)
        record.merge([archived], now: Self.start)
        XCTAssertEqual(record.samples, [real])
        var other = AccuracyRecord()
        other.merge([archived], now: Self.start)
        other.merge([real], now: Self.start)
        XCTAssertEqual(other.samples, [real], "what came replaces the archive's")
    }

    func testObservation_keepsTheNearestToEachHour_andAnotherStationStartsAnew() {
        var record = AccuracyRecord()
        func observation(
            _ time: Double, _ temperature: Double, station: ObservationStation = AccuracyRecordTests.station
        ) -> Observation {
            Observation(
                source: "metar", station: station, time: time, temperature: temperature, windSpeed: 2,
                weather: temperature < 0 ? [ObservedWeather(.snow)] : [])
        }
        record.record(observation(Self.start + 3600 - 420, 12), now: Self.start + 3600)
        record.record(observation(Self.start + 3600 + 900, 13), now: Self.start + 3600)
        record.record(observation(Self.start + 7200 - 60, -1), now: Self.start + 7200)
        XCTAssertEqual(record.observed.map(\.hour), [Self.start + 3600, Self.start + 7200])
        XCTAssertEqual(record.observed.map(\.temperature), [12, -1], "07 min before beats 15 min after")
        XCTAssertEqual(record.observed.map(\.rain), [false, true], "precipitation reported is wet")
        var elsewhere = Self.station
        elsewhere.id = "KSMO"
        record.record(observation(Self.start + 10_800, 15, station: elsewhere), now: Self.start + 10_800)
        XCTAssertEqual(record.station, "KSMO")
        XCTAssertEqual(record.observed.count, 1)
    }

    func testRecord_keepsThirtyTwoDays_andNoMoreThanItsBounds() {
        var record = AccuracyRecord()
        for day in 0..<40 {
            let time = Self.start + Double(day) * 86_400
            record.record(Self.forecast("open-meteo", issued: time), now: time)
            record.record(
                Observation(source: "metar", station: Self.station, time: time, temperature: 3), now: time)
        }
        let now = Self.start + 39 * 86_400
        XCTAssertTrue(record.samples.allSatisfy { $0.hour >= now - AccuracyRecord.keptSeconds })
        XCTAssertTrue(record.observed.allSatisfy { $0.hour >= now - AccuracyRecord.keptSeconds })
        XCTAssertEqual(record.observed.count, 33)

        var full = AccuracyRecord()
        let many = (0..<(AccuracyRecord.maximumSamples + 50)).map { index in
            ForecastSample(
                provider: "p\(index % 9)", lead: 6, hour: Self.start + Double(index / 9) * 3600,
                issuedAt: Self.start + Double(index / 9) * 3600 - 6 * 3600)
        }
        full.merge(many, now: Self.start + 30 * 86_400)
        XCTAssertLessThanOrEqual(full.samples.count, AccuracyRecord.maximumSamples)
        XCTAssertEqual(full.samples.map(\.hour).max(), many.map(\.hour).max(), "the oldest go first")
    }

    func testRecordWritten_readsBackTheSame() throws {
        var record = AccuracyRecord()
        record.record(Self.forecast("open-meteo", issued: Self.start), now: Self.start)
        record.record(
            Observation(source: "metar", station: Self.station, time: Self.start, temperature: 3), now: Self.start)
        record.ranking = ProviderRanking(leader: "metno")
        record.ranking?.challenger = "open-meteo"
        record.ranking?.streak = 2
        record.ranking?.decidedAt = Self.start
        let read = try AccuracyRecord(json: try JSON(parsing: record.jsonBytes))
        XCTAssertEqual(read, record)
        XCTAssertNil(read.validationProblem())
    }

    static func ranking(_ change: (inout ProviderRanking) -> Void) -> ProviderRanking {
        var ranking = ProviderRanking()
        change(&ranking)
        return ranking
    }

    func testDamagedValues_areRefused_namingTheField() {
        var base = AccuracyRecord()
        base.record(Self.forecast("open-meteo", issued: Self.start), now: Self.start)
        base.record(
            Observation(source: "metar", station: Self.station, time: Self.start, temperature: 3), now: Self.start)
        let cases: [(String, (inout AccuracyRecord) -> Void)] = [
            ("samples[0].lead", { $0.samples[0].lead = 7 }),
            ("samples[0].hour", { $0.samples[0].hour += 60 }),
            ("samples[0].issuedAt", { $0.samples[0].issuedAt -= 86_400 }),
            ("samples[0].temperature", { $0.samples[0].temperature = 500 }),
            ("samples[0].rainProbability", { $0.samples[0].rainProbability = 1.5 }),
            ("samples[0].windSpeed", { $0.samples[0].windSpeed = -1 }),
            ("samples[0].provider", { $0.samples[0].provider = "../etc" }),
            ("observed[1].hour", { $0.observed.append($0.observed[0]) }),
            ("observed[0].observedAt", { $0.observed[0].observedAt += 7200 }),
            ("station", { $0.station = "" }),
            ("version", { $0.version = 2 }),
            ("ranking.leader", { $0.ranking = ProviderRanking(leader: "Met Norway") }),
            ("ranking.challenger", { $0.ranking = Self.ranking { $0.challenger = "" } }),
            ("ranking.streak", { $0.ranking = Self.ranking { $0.streak = 3 } }),
            ("ranking.decidedAt", { $0.ranking = Self.ranking { $0.decidedAt = .infinity } }),
        ]
        for (field, damage) in cases {
            var record = base
            damage(&record)
            XCTAssertEqual(record.validationProblem()?.field, field)
        }
        var tooMany = base
        tooMany.observed = Array(repeating: base.observed[0], count: AccuracyRecord.maximumObservedHours + 1)
        XCTAssertEqual(tooMany.validationProblem()?.field, "observed")
    }
}
