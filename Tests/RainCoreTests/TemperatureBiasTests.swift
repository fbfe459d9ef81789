import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Correcting the temperature by the provider's measured bias
/// (docs/ACCURACY.md, "Correcting the temperature"): a provider whose error
/// depends on the hour of day and the lead time, its expected bias worked
/// out here from the generating functions, not from the record.
final class TemperatureBiasTests: XCTestCase {
    /// 2026-11-01T00:00:00Z.
    static let start = 1_793_491_200.0

    static func truth(_ hour: Double) -> Double { 5 + Double(Int(hour / 3600) % 24) / 2 }
    /// The provider's error at `lead` for `hour`: by lead, and by UTC hour of day.
    static func error(_ hour: Double, lead: Int) -> Double {
        let ofDay = Double(Int(hour / 3600) % 24)
        return (lead == 6 ? 1 : lead == 24 ? 2.5 : -1) + ofDay / 10
    }

    /// `days` of every hour observed, with the provider's samples at +6 h and +24 h (not +48 h).
    static func record(days: Int, provider: String = "open-meteo") -> AccuracyRecord {
        var record = AccuracyRecord(station: "KLAX")
        for index in 0..<(days * 24) {
            let hour = start + Double(index) * 3600
            record.observed.append(ObservedHour(hour: hour, observedAt: hour, temperature: truth(hour)))
            for lead in [6, 24] {
                record.samples.append(
                    ForecastSample(
                        provider: provider, lead: lead, hour: hour, issuedAt: hour - Double(lead) * 3600,
                        temperature: truth(hour) + error(hour, lead: lead)))
            }
        }
        return record
    }

    /// The bias the correction should take off an hour of day at `lead`:
    /// the mean error of that hour and the hours either side, each as often.
    static func expectedBias(hourOfDay: Int, lead: Int) -> Double {
        let errors = [-1, 0, 1].map { offset in
            error(start + Double((hourOfDay + offset + 24) % 24) * 3600, lead: lead)
        }
        return errors.reduce(0, +) / 3
    }

    /// The provider's forecast fetched at `fetched`: 60 hours, two days, a current block.
    static func forecast(fetched: Double, provider: String = "open-meteo") -> Forecast {
        let hours = (0..<60).map { index -> HourlyForecast in
            let time = fetched + Double(index) * 3600
            return HourlyForecast(time: time, temperature: 10 + Double(index % 24) / 4, apparentTemperature: 7)
        }
        return Forecast(
            provider: provider, attribution: Attribution(text: "", url: ""), fetchedAt: fetched,
            current: CurrentConditions(time: fetched, temperature: 9),
            hourly: hours,
            daily: [
                DailyForecast(time: fetched, temperatureMin: 9, temperatureMax: 16),
                DailyForecast(time: fetched + 86_400, temperatureMin: 8, temperatureMax: 17),
            ])
    }

    func testBiasedProvider_isCorrectedByItsBias_byHourOfDayAndLead() throws {
        let now = Self.start + 30 * 86_400
        let biases = TemperatureBias.measure(Self.record(days: 30), station: "Los Angeles Intl", now: now)
        let bias = try XCTUnwrap(biases["open-meteo"])
        let provider = Self.forecast(fetched: now)
        let served = bias.correct(provider)
        let correction = try XCTUnwrap(served.correction)
        XCTAssertEqual(correction.station, "Los Angeles Intl")

        for (index, hour) in provider.hourly.enumerated() {
            let ahead = Double(index)
            let hourOfDay = Int(hour.time / 3600) % 24
            let shown = try XCTUnwrap(served.hourly[index].temperature)
            if ahead < 15 {
                XCTAssertEqual(
                    shown, hour.temperature! - Self.expectedBias(hourOfDay: hourOfDay, lead: 6), accuracy: 1e-9)
            } else if ahead < 36 {
                XCTAssertEqual(
                    shown, hour.temperature! - Self.expectedBias(hourOfDay: hourOfDay, lead: 24), accuracy: 1e-9)
            } else {
                XCTAssertEqual(shown, hour.temperature!, "no +48 h pairs: the provider's own")
                XCTAssertFalse(served.isCorrected(.hour, at: hour.time))
            }
            XCTAssertEqual(served.hourly[index].apparentTemperature, 7, "feels-like is left as it is")
            if ahead < 36 {
                let value = try XCTUnwrap(correction.value(.hour, at: hour.time))
                XCTAssertEqual(value.provider, hour.temperature)
                XCTAssertEqual(value.pairs, 90, "30 days of three hours of day")
            }
        }
        // The current temperature, by the +6 h bias at its hour.
        XCTAssertEqual(served.current?.temperature ?? 0, 9 - Self.expectedBias(hourOfDay: 0, lead: 6), accuracy: 1e-9)
        // Today's high by the bias at its warmest hour (23:00, +23 h: the +24 h bias), its low at its coldest (00:00).
        XCTAssertEqual(
            served.daily[0].temperatureMax ?? 0, 16 - Self.expectedBias(hourOfDay: 23, lead: 24), accuracy: 1e-9)
        XCTAssertEqual(
            served.daily[0].temperatureMin ?? 0, 9 - Self.expectedBias(hourOfDay: 0, lead: 6), accuracy: 1e-9)
        // Tomorrow's coldest hour is +24 h, its warmest +47 h: no +48 h pairs, so the high is the provider's.
        XCTAssertEqual(
            served.daily[1].temperatureMin ?? 0, 8 - Self.expectedBias(hourOfDay: 0, lead: 24), accuracy: 1e-9)
        XCTAssertEqual(served.daily[1].temperatureMax, 17)
        XCTAssertFalse(served.isCorrected(.high, at: provider.daily[1].time))

        // The provider's own comes back whole, and is what a record samples.
        XCTAssertEqual(served.uncorrected, provider)
        var sampled = AccuracyRecord()
        sampled.record(served, now: now)
        var direct = AccuracyRecord()
        direct.record(provider, now: now)
        XCTAssertEqual(sampled, direct)
    }

    func testBelowTheMinimumOfPairs_nothingIsCorrected() throws {
        // Seven days: each hour of day has 3 × 7 = 21 pairs at a lead, under the 24 needed.
        let short = Self.start + 7 * 86_400
        let few = try XCTUnwrap(TemperatureBias.measure(Self.record(days: 7), station: "X", now: short)["open-meteo"])
        let provider = Self.forecast(fetched: short)
        XCTAssertEqual(few.correct(provider), provider)
        XCTAssertNil(few.correct(provider).correction)
        // Eight days: 24 pairs, enough.
        let enough = Self.start + 8 * 86_400
        let eight = try XCTUnwrap(
            TemperatureBias.measure(Self.record(days: 8), station: "X", now: enough)["open-meteo"])
        XCTAssertEqual(eight.correct(Self.forecast(fetched: enough)).correction?.values.first?.pairs, 24)
    }

    func testOtherProvider_measuredCurrent_andHoursPastTheLastLead_areTheProvidersOwn() throws {
        let now = Self.start + 30 * 86_400
        var bias = try XCTUnwrap(TemperatureBias.measure(Self.record(days: 30), station: "X", now: now)["open-meteo"])
        let metno = Self.forecast(fetched: now, provider: "metno")
        XCTAssertEqual(bias.correct(metno), metno, "another provider's bias is not this one's")
        bias.correctsCurrent = false
        let served = bias.correct(Self.forecast(fetched: now))
        XCTAssertEqual(served.current?.temperature, 9, "a measured current temperature is not corrected")
        XCTAssertFalse(served.isCorrected(.current, at: now))
        XCTAssertNil(TemperatureBias.lead(ahead: Double(TemperatureBias.furthestHours) * 3600))
        XCTAssertEqual(TemperatureBias.lead(ahead: -3600), 6)
    }

    func testHourOfDay_isTheUTCHour() {
        XCTAssertEqual(TemperatureBias.hourOfDay(Self.start), 0)
        XCTAssertEqual(TemperatureBias.hourOfDay(Self.start + 13 * 3600 + 59 * 60), 13)
    }
}
