import RainCore
import RainDaemonCore
import TestSupport
import XCTest

/// The nowcast: read from both providers' short-range blocks (every fixture
/// shape: rain starting, stopping, intermittent, none, a missing block, -999
/// and other broken values), derived against a clock, and the rule for what
/// counts as a material change.
final class NowcastTests: XCTestCase {
    /// The fixtures' first step (tests/integration/nowcast_fixtures.py).
    static let openMeteoStart = 1_768_466_700.0
    static let pirateWeatherStart = 1_768_936_020.0

    private func openMeteo(_ shape: String, now: Double? = nil) throws -> Forecast {
        try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-nowcast-\(shape).json"), fetchedAt: now ?? Self.openMeteoStart + 600)
    }

    private func pirateWeather(_ shape: String, now: Double? = nil) throws -> Forecast {
        try PirateWeather.parseForecast(
            try Fixtures.bytes("pirateweather-nowcast-\(shape).json"), fetchedAt: now ?? Self.pirateWeatherStart + 30)
    }

    // MARK: Requests

    func testRequests_askForTheShortRangeBlocks() {
        let path = OpenMeteo.forecastPath(latitude: 48.8534, longitude: 2.3488)
        XCTAssertTrue(path.contains("minutely_15=precipitation&forecast_minutely_15=10"), path)
        XCTAssertFalse(PirateWeather.forecastPath(apiKey: "k", latitude: 1, longitude: 2).contains("exclude"))
    }

    // MARK: Open-Meteo

    func testOpenMeteo_rainStarting_isLightRainAheadWithItsEnd() throws {
        let nowcast = try XCTUnwrap(try openMeteo("starting").nowcast)
        XCTAssertEqual(nowcast.resolutionSeconds, 900)
        XCTAssertFalse(nowcast.rainingNow)
        XCTAssertEqual(nowcast.startsAt, Self.openMeteoStart + 1800)
        XCTAssertEqual(nowcast.stopsAt, Self.openMeteoStart + 4500)
        // A quarter hour's 0.3 mm is 1.2 mm/h.
        XCTAssertEqual(try XCTUnwrap(nowcast.peakIntensity), 1.2, accuracy: 1e-9)
        XCTAssertEqual(nowcast.intensity, .light)
        XCTAssertFalse(nowcast.intermittent)
        XCTAssertEqual(nowcast.summary, "Light rain starting in about 20 min, for about 45 min")
        XCTAssertEqual(nowcast.steps.count, 9, "ten rows make nine steps: each step's rain is in the next row")
    }

    func testOpenMeteo_rainStopping_isModerateRainNowWithItsEnd() throws {
        let nowcast = try XCTUnwrap(try openMeteo("stopping").nowcast)
        XCTAssertTrue(nowcast.rainingNow)
        XCTAssertNil(nowcast.startsAt)
        XCTAssertEqual(nowcast.stopsAt, Self.openMeteoStart + 2700)
        XCTAssertEqual(nowcast.intensity, .moderate)
        XCTAssertEqual(nowcast.summary, "Moderate rain stopping in about 35 min")
    }

    func testOpenMeteo_intermittent_speaksOfTheFirstSpellAndMore() throws {
        let nowcast = try XCTUnwrap(try openMeteo("intermittent").nowcast)
        XCTAssertTrue(nowcast.rainingNow)
        XCTAssertEqual(nowcast.stopsAt, Self.openMeteoStart + 900)
        XCTAssertEqual(nowcast.intensity, .light, "the heavy spell later is not the one spoken of")
        XCTAssertTrue(nowcast.intermittent)
        XCTAssertEqual(nowcast.summary, "Light rain stopping in about 5 min, then on and off")
    }

    func testOpenMeteo_none_isNoRainForTheWholeSpan() throws {
        let nowcast = try XCTUnwrap(try openMeteo("none").nowcast)
        XCTAssertFalse(nowcast.rainingNow)
        XCTAssertNil(nowcast.startsAt)
        XCTAssertNil(nowcast.intensity)
        XCTAssertEqual(nowcast.coveredUntil, Self.openMeteoStart + 600 + Nowcast.horizon)
        XCTAssertEqual(nowcast.summary, "No rain in the next 2 h")
    }

    func testOpenMeteo_missingBlock_isNoNowcast_andTheRestStays() throws {
        let forecast = try openMeteo("missing")
        XCTAssertNil(forecast.nowcast)
        XCTAssertNotNil(forecast.current)
        XCTAssertEqual(forecast.hourly.count, 48)
    }

    func testOpenMeteo_invalidValues_endTheDataWhereTheyBegin() throws {
        let nowcast = try XCTUnwrap(try openMeteo("invalid").nowcast)
        // Steps 0-2 are known; step 3's row is -999: the data ends at 45 min.
        XCTAssertEqual(nowcast.coveredUntil, Self.openMeteoStart + 2700)
        XCTAssertEqual(nowcast.startsAt, Self.openMeteoStart + 1800)
        XCTAssertNil(nowcast.stopsAt, "rain still falling where the data ends has no known end")
        XCTAssertEqual(nowcast.summary, "Light rain starting in about 20 min")
        // -999, null, -0.5 and the two rows past the array's end are unknown; the 0.2 after them is kept.
        XCTAssertEqual(
            nowcast.steps.map { $0.precipIntensity == nil }, [false, false, false, true, true, true, false, true, true])
    }

    /// Each broken value on its own: -999, null, a negative number, an absurd
    /// one, a string, a short array, a null time; none loses the forecast.
    func testOpenMeteo_eachBrokenValue_isUnknownOrDropsOnlyTheNowcast() throws {
        var leftOut: [String] = []
        func parse(_ minutely: String) throws -> Forecast {
            let body = """
                {"utc_offset_seconds": 0, "current": {"time": 1000, "temperature_2m": 5},
                 "minutely_15_units": {"precipitation": "mm"}, "minutely_15": \(minutely)}
                """
            leftOut = []
            return try OpenMeteo.parseForecast(Array(body.utf8), fetchedAt: 1000) { leftOut.append($0) }
        }
        for bad in ["-999", "null", "-0.5", "1000"] {
            let nowcast = try XCTUnwrap(
                try parse(#"{"time": [900, 1800, 2700], "precipitation": [0, 0.1, \#(bad)]}"#).nowcast, bad)
            XCTAssertEqual(nowcast.steps.map(\.precipIntensity), [0.4, nil], bad)
            XCTAssertEqual(nowcast.coveredUntil, 1800, bad)
            XCTAssertEqual(leftOut, [], "an unknown value is not an unusable block: \(bad)")
        }
        let short = try XCTUnwrap(try parse(#"{"time": [900, 1800, 2700], "precipitation": [0, 0]}"#).nowcast)
        XCTAssertEqual(short.steps.map(\.precipIntensity), [0, nil])
        for broken in [
            #"{"time": [900, 1800], "precipitation": ["a", 0]}"#, #"{"time": [900, null], "precipitation": [0, 0]}"#,
            #"{"time": [900], "precipitation": [0]}"#, #"{"time": "x"}"#, "[1, 2]",
            #"{"time": [900, 1e20, 2700], "precipitation": [0, 0, 0]}"#,
        ] {
            let forecast = try parse(broken)
            XCTAssertNil(forecast.nowcast, broken)
            XCTAssertEqual(forecast.current?.temperature, 5, "the forecast stays: \(broken)")
            XCTAssertEqual(leftOut.count, 1, "the reason is told: \(broken)")
            XCTAssertTrue(
                leftOut.first?.hasPrefix("open-meteo sent a nowcast (minutely_15) raind cannot use: ") == true,
                "\(leftOut)")
        }
        XCTAssertTrue(leftOut.first?.contains("60 to 3600 expected") == true, "\(leftOut)")
        _ = try parse(#"{"time": "x"}"#)
        XCTAssertTrue(leftOut.first?.contains("minutely_15.time") == true, "\(leftOut)")
        _ = try parse(#"{"time": [900], "precipitation": [0]}"#)
        XCTAssertTrue(leftOut.first?.contains("1 row(s), at least 2 needed") == true, "\(leftOut)")
        XCTAssertNil(Nowcast.checkedIntensity(.nan))
        XCTAssertNil(Nowcast.checkedIntensity(.infinity))
        XCTAssertNil(Nowcast.checkedProbability(1.5))
    }

    // MARK: Pirate Weather

    func testPirateWeather_rainStarting_isTheBriefsExample() throws {
        let nowcast = try XCTUnwrap(try pirateWeather("starting").nowcast)
        XCTAssertEqual(nowcast.resolutionSeconds, 60)
        XCTAssertEqual(nowcast.steps.count, 61)
        XCTAssertFalse(nowcast.rainingNow)
        XCTAssertEqual(nowcast.startsAt, Self.pirateWeatherStart + 1200)
        XCTAssertEqual(nowcast.stopsAt, Self.pirateWeatherStart + 3600)
        XCTAssertEqual(nowcast.summary, "Light rain starting in about 20 min, for about 40 min")
        // Coverage is the hour the block holds, not the horizon.
        XCTAssertEqual(nowcast.coveredUntil, Self.pirateWeatherStart + 61 * 60)
    }

    func testPirateWeather_rainStopping_intermittent_none_missing() throws {
        let stopping = try XCTUnwrap(try pirateWeather("stopping").nowcast)
        XCTAssertTrue(stopping.rainingNow)
        XCTAssertEqual(stopping.intensity, .moderate)
        XCTAssertEqual(stopping.summary, "Moderate rain stopping in about 25 min")

        let intermittent = try XCTUnwrap(try pirateWeather("intermittent").nowcast)
        XCTAssertEqual(intermittent.summary, "Light rain stopping in about 10 min, then on and off")
        XCTAssertTrue(intermittent.intermittent)

        let none = try XCTUnwrap(try pirateWeather("none").nowcast)
        XCTAssertNil(none.intensity)
        XCTAssertEqual(none.summary, "No rain in the next 1 h")
        XCTAssertEqual(none.steps.first?.precipProbability, 0, "a left-out probability is 0")

        XCTAssertNil(try pirateWeather("missing").nowcast)
        XCTAssertNotNil(try pirateWeather("missing").current)
    }

    /// A block present but unusable is left out, with the reason told; the rest stays.
    func testPirateWeather_unusableBlock_isLeftOutWithItsReason() throws {
        for (minutely, reason) in [
            (#"{"data": [{"time": 1000}]}"#, "1 point(s), at least 2 needed"),
            (#"{"data": [{"time": 1000}, {"time": 1010}]}"#, "points 10.0 s apart, 60 to 3600 expected"),
            (#"{"data": [{"time": 1000}, {"precipIntensity": 0}]}"#, "minutely.data"),
        ] {
            let body =
                #"{"flags": {"units": "si"}, "currently": {"time": 1000, "temperature": 5}, "minutely": \#(minutely)}"#
            var leftOut: [String] = []
            let forecast = try PirateWeather.parseForecast(Array(body.utf8), fetchedAt: 1000) { leftOut.append($0) }
            XCTAssertNil(forecast.nowcast, minutely)
            XCTAssertEqual(forecast.current?.temperature, 5, minutely)
            XCTAssertEqual(leftOut.count, 1, minutely)
            XCTAssertTrue(
                leftOut.first?.hasPrefix("pirateweather sent a nowcast (minutely) raind cannot use: ") == true)
            XCTAssertTrue(leftOut.first?.contains(reason) == true, "\(leftOut)")
        }
        var leftOut: [String] = []
        _ = try PirateWeather.parseForecast(try Fixtures.bytes("pirateweather-nowcast-missing.json"), fetchedAt: 1000) {
            leftOut.append($0)
        }
        XCTAssertEqual(leftOut, [], "no block is nothing to report")
    }

    func testPirateWeather_minus999_isUnknown() throws {
        let nowcast = try XCTUnwrap(try pirateWeather("invalid").nowcast)
        XCTAssertNil(nowcast.steps[5].precipProbability, "a -999 probability is unknown")
        XCTAssertEqual(nowcast.steps[5].precipIntensity, 0)
        XCTAssertNil(nowcast.steps[30].precipIntensity, "a -999 intensity is unknown")
        XCTAssertEqual(nowcast.coveredUntil, Self.pirateWeatherStart + 1800)
        XCTAssertEqual(nowcast.startsAt, Self.pirateWeatherStart + 900)
        XCTAssertNil(nowcast.stopsAt)
        XCTAssertEqual(nowcast.summary, "Light rain starting in about 15 min")
    }

    func testPirateWeather_unlikelyRain_isNoRain() throws {
        let steps = (0..<10).map { NowcastStep(time: Double($0 * 60), precipIntensity: 3, precipProbability: 0.3) }
        let nowcast = try XCTUnwrap(Nowcast(steps: steps, resolutionSeconds: 60, now: 0))
        XCTAssertNil(nowcast.intensity, "3 mm/h at 30 % is less likely than not")
    }

    // MARK: Against the clock

    func testSameData_laterClock_givesTheSummaryOfThatMoment() throws {
        let nowcast = try XCTUnwrap(try openMeteo("starting").nowcast)
        let start = Self.openMeteoStart
        XCTAssertEqual(nowcast.at(start + 1500)?.summary, "Light rain starting in about 5 min, for about 45 min")
        XCTAssertEqual(nowcast.at(start + 1790)?.summary, "Light rain starting now, for about 45 min")
        let during = try XCTUnwrap(nowcast.at(start + 2400))
        XCTAssertTrue(during.rainingNow)
        XCTAssertEqual(during.summary, "Light rain stopping in about 35 min")
        XCTAssertEqual(during.episode?.start, start + 1800, "the spell began before now")
        XCTAssertEqual(nowcast.at(start + 4600)?.summary, "No rain in the next 1 h")
        XCTAssertNil(nowcast.at(start + 9 * 900), "past the data there is no nowcast")
        XCTAssertNil(nowcast.at(start - 1000), "before the data there is none either")
    }

    func testIntensityClasses_followTheDocumentedThresholds() {
        XCTAssertEqual(RainIntensity(millimetresPerHour: 2.49), .light)
        XCTAssertEqual(RainIntensity(millimetresPerHour: 2.5), .moderate)
        XCTAssertEqual(RainIntensity(millimetresPerHour: 7.6), .moderate)
        XCTAssertEqual(RainIntensity(millimetresPerHour: 7.61), .heavy)
    }

    // MARK: Material change

    /// Nine quarter-hour steps from 0 with rain (mm/h) where given.
    private func quarters(_ rain: [Int: Double], now: Double = 0) -> Nowcast? {
        let steps = (0..<9).map { NowcastStep(time: Double($0 * 900), precipIntensity: rain[$0] ?? 0) }
        return Nowcast(steps: steps, resolutionSeconds: 900, now: now)
    }

    func testChange_sameOutlookOrTimePassing_isNone() throws {
        let rainAhead = quarters([3: 1, 4: 1])
        XCTAssertNil(NowcastChange.between(rainAhead, quarters([3: 1, 4: 1])))
        XCTAssertNil(NowcastChange.between(rainAhead, quarters([3: 1, 4: 1], now: 600)), "time passing alone")
        XCTAssertNil(NowcastChange.between(nil, quarters([:])), "the first data, dry, is no news")
        XCTAssertNil(NowcastChange.between(quarters([:]), nil))
        XCTAssertNil(
            NowcastChange.between(rainAhead, quarters([4: 1, 5: 1])), "a move of one step is within the resolution")
    }

    func testChange_materialMoves_areNamed() throws {
        let rainAhead = quarters([3: 1, 4: 1])
        XCTAssertEqual(NowcastChange.between(quarters([:]), rainAhead)?.reasons, [.rainExpected])
        XCTAssertEqual(NowcastChange.between(nil, rainAhead), NowcastChange(reasons: [.rainExpected], newEpisode: true))
        XCTAssertEqual(NowcastChange.between(rainAhead, quarters([:]))?.reasons, [.rainNoLongerExpected])
        XCTAssertEqual(NowcastChange.between(rainAhead, quarters([5: 1]))?.reasons, [.startMoved])
        XCTAssertEqual(NowcastChange.between(rainAhead, quarters([3: 5, 4: 1]))?.reasons, [.intensityChanged])
        XCTAssertEqual(NowcastChange.between(rainAhead, quarters([3: 1, 4: 1, 5: 1, 6: 1]))?.reasons, [.stopMoved])
        // The rain that was expected arrives: started, the same spell.
        let arrived = try XCTUnwrap(NowcastChange.between(rainAhead, quarters([3: 1, 4: 1], now: 2800)))
        XCTAssertEqual(arrived.reasons, [.rainStarted])
        XCTAssertFalse(arrived.newEpisode)
        let stopped = try XCTUnwrap(
            NowcastChange.between(quarters([3: 1, 4: 1], now: 2800), quarters([3: 1, 4: 1], now: 4600)))
        XCTAssertEqual(stopped.reasons, [.rainStopped])
        XCTAssertFalse(stopped.newEpisode)
        // A later spell after a dry spell is a new episode.
        let later = try XCTUnwrap(NowcastChange.between(quarters([1: 1]), quarters([6: 1, 7: 1])))
        XCTAssertEqual(later.reasons, [.startMoved, .stopMoved])
        XCTAssertTrue(later.newEpisode)
    }
}
