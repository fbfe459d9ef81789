import TestSupport
import XCTest

@testable import RainCore

/// The moon and the day's length as `now` and the bar templates show them.
final class SkyPresentationTests: XCTestCase {
    /// 2026-01-15T10:00 in Paris (UTC+1), three days before the new moon of 18 January.
    private let parisTen: Double = 1_768_467_600
    private let paris = Fixtures.zoneInfo.rules(named: "Europe/Paris")
    private let place = PlaceCoordinates(latitude: 48.8534, longitude: 2.3488)

    /// Today with the provider's sunrise at 08:40 and sunset at 17:15, or none.
    private func forecast(sun: Bool = true) -> Forecast {
        let midnight = parisTen - 10 * 3600
        return Forecast(
            provider: "test", fetchedAt: parisTen - 60, timeZone: "Europe/Paris", utcOffsetSeconds: 3600,
            current: CurrentConditions(time: parisTen - 60, temperature: 1),
            daily: [
                DailyForecast(
                    time: midnight, sunrise: sun ? midnight + 8 * 3600 + 40 * 60 : nil,
                    sunset: sun ? midnight + 17 * 3600 + 15 * 60 : nil)
            ])
    }

    private func values(_ forecast: Forecast, icons: IconStyle, coordinates: PlaceCoordinates?) -> BarValues {
        BarValues(
            placeName: "Paris", forecast: forecast, units: .si, now: parisTen, iconStyle: icons, zone: paris,
            coordinates: coordinates)
    }

    func testNow_showsDayLengthAndMoon_underTheSun() throws {
        let text = ForecastPresenter(
            forecast: forecast(), placeName: "Paris", units: .si, now: parisTen, zone: paris, coordinates: place
        ).nowView()
        // The provider's 08:40–17:15 is 8 h 35 min. The change, and the moon, as PyEphem 4.1 computes
        // them (run once for this test): days of 520.8 and 522.9 minutes on 14 and 15 January, the
        // moon 11.2% lit at 10:00, rising at 06:31:36 and setting at 13:47:55.
        XCTAssertTrue(
            text.contains(
                """
                Sun             rises 08:40, sets 17:15
                Day length      8 h 35 min, 2 min longer
                Moon            Waning crescent, 11% illuminated
                                rises 06:32, sets 13:48

                """), text)
    }

    func testNow_withoutCoordinates_hasNoSkyRows() {
        let text = ForecastPresenter(forecast: forecast(), placeName: "Paris", units: .si, now: parisTen, zone: paris)
            .nowView()
        XCTAssertFalse(text.contains("Day length"), text)
        XCTAssertFalse(text.contains("Moon"), text)
    }

    /// A provider without sunrise and sunset (met.no, the NWS, Bright Sky)
    /// still has the day's length, computed.
    func testNow_providerWithoutSunTimes_computesTheDayLength() {
        let text = ForecastPresenter(
            forecast: forecast(sun: false), placeName: "Paris", units: .si, now: parisTen, zone: paris,
            coordinates: place
        ).nowView()
        XCTAssertFalse(text.contains("Sun "), text)
        // 08:38:45 to 17:21:38 by PyEphem: 8 h 43 min.
        XCTAssertTrue(text.contains("Day length      8 h 43 min, 2 min longer\n"), text)
    }

    func testTemplates_moonPhaseAndDayLength() throws {
        let text = values(forecast(), icons: .text, coordinates: place)
        XCTAssertEqual(
            try BarTemplate(parsing: "{moon} · {moon_phase} · {daylength} · {daylength:value}").render(text),
            "waning crescent · Waning crescent · 8 h 35 min · 515")
        XCTAssertEqual(
            try BarTemplate(parsing: "{moon}").render(values(forecast(), icons: .emoji, coordinates: place)), "🌘")
        // Weather Icons' nf-weather-moon_waning_crescent_N lie at U+E3A3...U+E3A8.
        let nerd = try BarTemplate(parsing: "{moon}").render(values(forecast(), icons: .nerd, coordinates: place))
        XCTAssertTrue((0xE3A3...0xE3A8).contains(nerd.unicodeScalars.first?.value ?? 0), nerd)
    }

    func testTemplates_withoutCoordinates_readMissing() throws {
        let text = values(forecast(), icons: .text, coordinates: nil)
        XCTAssertEqual(try BarTemplate(parsing: "[{moon}] {moon_phase} {daylength}").render(text), "[] – –")
    }

    func testCoordinates_offTheGlobe_areRefused() {
        XCTAssertNil(PlaceCoordinates(latitude: 91, longitude: 0))
        XCTAssertNil(PlaceCoordinates(latitude: 0, longitude: -180.5))
        XCTAssertNil(PlaceCoordinates(latitude: .nan, longitude: 0))
        XCTAssertNil(PlaceCoordinates(latitude: 0, longitude: .infinity))
        XCTAssertNotNil(PlaceCoordinates(latitude: -90, longitude: 180))
    }

    func testWording_durationsAndChanges() {
        XCTAssertEqual(SkyWording.duration(9 * 3600 + 12 * 60 + 20), "9 h 12 min")
        XCTAssertEqual(SkyWording.duration(45 * 60), "45 min")
        XCTAssertEqual(SkyWording.duration(24 * 3600 - 10), "24 h")
        XCTAssertEqual(SkyWording.duration(.nan), "0 min")
        let length = 9 * 3600 + 12 * 60.0
        XCTAssertEqual(SkyWording.dayLength(seconds: length, polar: nil, change: -125), "9 h 12 min, 2 min shorter")
        XCTAssertEqual(SkyWording.dayLength(seconds: length, polar: nil, change: 61), "9 h 12 min, 1 min longer")
        XCTAssertEqual(
            SkyWording.dayLength(seconds: length, polar: nil, change: 12), "9 h 12 min, under a minute longer")
        XCTAssertEqual(
            SkyWording.dayLength(seconds: length, polar: nil, change: -3), "9 h 12 min, under a minute shorter")
        XCTAssertEqual(
            SkyWording.dayLength(seconds: length, polar: nil, change: 0.2), "9 h 12 min, as long as yesterday")
        XCTAssertEqual(SkyWording.dayLength(seconds: 5_400, polar: nil, change: 5_400), "1 h 30 min, 1 h 30 min longer")
        XCTAssertEqual(SkyWording.dayLength(seconds: 86_400, polar: .day, change: 0), "24 h (polar day)")
        XCTAssertEqual(SkyWording.dayLength(seconds: 0, polar: .night, change: 0), "no daylight (polar night)")
    }

    func testWording_moonTimes_inTheOrderTheyHappen() throws {
        var moon = MoonReport(latitude: 0, longitude: 0, now: 0, dayStart: 0, dayEnd: 86_400)
        let clock: (Double) -> String = { CivilDateTime(unixSeconds: $0, utcOffsetSeconds: 0).hourMinute }
        moon.events = [.set(3 * 3600 + 41 * 60), .rise(14 * 3600 + 2 * 60)]
        XCTAssertEqual(SkyWording.moonTimes(moon, clock: clock), "sets 03:41, rises 14:02")
        moon.events = [.rise(3600), .set(13 * 3600)]
        XCTAssertEqual(SkyWording.moonTimes(moon, clock: clock), "rises 01:00, sets 13:00")
        moon.events = [.set(16 * 3600 + 49 * 60)]
        XCTAssertEqual(SkyWording.moonTimes(moon, clock: clock), "sets 16:49, does not rise today")
        moon.events = [.rise(23 * 3600 + 12 * 60)]
        XCTAssertEqual(SkyWording.moonTimes(moon, clock: clock), "rises 23:12, does not set today")
        moon.events = []
        moon.upAtStart = true
        XCTAssertEqual(SkyWording.moonTimes(moon, clock: clock), "up all day")
        moon.upAtStart = false
        XCTAssertEqual(SkyWording.moonTimes(moon, clock: clock), "below the horizon all day")
        moon.illumination = 0.784
        moon.phase = .waxingGibbous
        XCTAssertEqual(SkyWording.phase(moon), "Waxing gibbous, 78% illuminated")
    }

    /// Each of the eight names in a month, the principal ones on their day
    /// only, in order; the glyphs follow the names.
    func testPhaseNames_overALunation_inOrder() throws {
        let utc = TimeZoneRules(name: "UTC", fixedOffsetSeconds: 0)
        let start = CivilDateTime(year: 2026, month: 1, day: 18).daysSinceEpoch  // a new moon (Meeus ch. 49)
        var seen: [MoonPhaseName] = []
        for day in start..<(start + 31) {
            let moon = MoonReport(
                latitude: 48.85, longitude: 2.35, now: utc.startOfDay(day) + 43_200, dayStart: utc.startOfDay(day),
                dayEnd: utc.startOfDay(day + 1))
            if seen.last != moon.phase { seen.append(moon.phase) }
            XCTAssertEqual(MoonIcon.glyph(moon, style: .emoji), MoonIcon.emoji[moon.phase])
            XCTAssertEqual(MoonIcon.nerdIndex(moon) % 7 == 0, moon.phase.isPrincipal, "\(moon.phase)")
        }
        XCTAssertEqual(Array(seen.prefix(9)), MoonPhaseName.allCases + [.new])
    }
}

/// Values from outside never trap the sky: the poles, the antimeridian,
/// days of no length or backwards, and times far from today or not numbers.
final class SkyHostileValueTests: XCTestCase {
    func testEdgesOfTheGlobeAndOfTime_giveAnswersNotTraps() throws {
        for (latitude, longitude) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 180.0)] {
            let place = try XCTUnwrap(PlaceCoordinates(latitude: latitude, longitude: longitude))
            for now in [0.0, 1_790_000_000, -62_135_596_800, 253_402_300_799, 1e15, -1e15] {
                let sky = LocalSky(coordinates: place, now: now, today: Int(now / 86_400)) { Double($0) * 86_400 }
                XCTAssert((0...1).contains(sky.moon.illumination), "\(latitude) \(now)")
                XCTAssert((0...86_400).contains(sky.daylight.seconds), "\(latitude) \(now)")
                _ = SkyWording.moonTimes(sky.moon) { _ in "" }
            }
        }
        let sky = LocalSky(coordinates: try XCTUnwrap(PlaceCoordinates(latitude: 0, longitude: 0)), now: .nan, today: 0)
        {
            _ in .nan
        }
        XCTAssertEqual(sky.moon.events, [])
        XCTAssertEqual(Daylight(latitude: 10, longitude: 0, dayStart: 100, dayEnd: 50).seconds, 0)
        XCTAssertEqual(HorizonCrossing.events(of: Daylight.body, latitude: 0, longitude: 0, from: 0, to: 1e12), [])
        XCTAssertEqual(SkyWording.duration(1e300), "8,784 h")
    }
}
