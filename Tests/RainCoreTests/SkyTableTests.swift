import TestSupport
import XCTest

@testable import RainCore

/// Rising, setting, phases and day lengths against published tables, and
/// the polar days when the moon does not rise or set.
///
/// The tables are Open-Meteo's own, in two recorded real answers kept in
/// Tests/Fixtures (SOURCES.md gives their origin): openmeteo-forecast-
/// enschede.json (moonrise, moonset, moon phase, sunrise and sunset for
/// Enschede, 3–5 October 2026) and openmeteo-forecast-toronto.json
/// (sunrise and sunset for Toronto over eight days across the change to
/// summer time, 4–11 March 2026). Open-Meteo prints its times to the
/// minute, cut, not rounded (its 16:13 is an instant from 16:13:00 to
/// 16:13:59): a computed time agrees when it falls within a minute of the
/// printed minute, which is what "to the minute" can mean between two
/// computations that each print minutes.
final class SkyTableTests: XCTestCase {
    /// One day of a recorded table: the local date and, per column, the printed times.
    private struct TableDay {
        var date: CivilDateTime
        var columns: [String: CivilDateTime?]
    }

    private func table(_ fixture: String, columns: [String]) throws -> [TableDay] {
        let json = try JSON(parsing: try Fixtures.bytes(fixture))
        let daily = try XCTUnwrap(json["daily"])
        let dates = try XCTUnwrap(daily["time"]?.arrayValue).map { try XCTUnwrap($0.stringValue) }
        return try dates.enumerated().map { index, date in
            var day = TableDay(date: try XCTUnwrap(CivilDateTime(iso8601Local: date + "T00:00")), columns: [:])
            for column in columns {
                let value = try XCTUnwrap(daily[column]?.arrayValue)[index]
                day.columns[column] = value.stringValue.flatMap(CivilDateTime.init(iso8601Local:))
            }
            return day
        }
    }

    private func zone(_ name: String) throws -> TimeZoneRules {
        try XCTUnwrap(Fixtures.zoneInfo.rules(named: name), "no tz data for \(name); install tzdata")
    }

    /// Asserts that `computed` (Unix seconds) falls within a minute of the
    /// printed local minute `printed`.
    /// `printed` is read in `zone`, or at `offset` seconds from UTC when
    /// given (Open-Meteo keeps one offset for a whole answer, so its times
    /// after a change to summer time are still in winter time:
    /// open-meteo/open-meteo#488).
    private func assertAgrees(
        _ computed: Double?, _ printed: CivilDateTime, in zone: TimeZoneRules, offset: Int? = nil,
        _ what: String, line: UInt = #line
    ) {
        guard let computed else {
            return XCTFail("\(what): computed none, table says \(printed.hourMinute)", line: line)
        }
        let minute =
            offset.map { printed.unixSeconds(utcOffsetSeconds: $0) }
            ?? zone.startOfDay(printed.daysSinceEpoch) + Double(printed.hour * 3600 + printed.minute * 60)
        XCTAssert(
            computed >= minute - 60 && computed < minute + 120,
            "\(what): computed \(zone.local(computed).hourMinute):\(zone.local(computed).second), "
                + "table says \(printed.hourMinute)", line: line)
    }

    func testMoonAndSun_matchOpenMeteoTable_enschedeOctober2026() throws {
        let zone = try zone("Europe/Amsterdam")
        let place = try XCTUnwrap(PlaceCoordinates(latitude: 52.276, longitude: 6.873))
        let days = try table(
            "openmeteo-forecast-enschede.json", columns: ["moonrise", "moonset", "sunrise", "sunset"])
        XCTAssertEqual(days.count, 3)
        var daysWithoutMoonrise = 0
        for day in days {
            let today = day.date.daysSinceEpoch
            let start = zone.startOfDay(today)
            let end = zone.startOfDay(today + 1)
            let moon = MoonReport(
                latitude: place.latitude, longitude: place.longitude, now: start + 43_200, dayStart: start,
                dayEnd: end)
            let rises = moon.events.compactMap { if case .rise(let time) = $0 { time } else { nil } }
            let sets = moon.events.compactMap { if case .set(let time) = $0 { time } else { nil } }
            let label = "\(day.date.year)-\(day.date.month)-\(day.date.day)"
            if let rise = day.columns["moonrise"] ?? nil {
                XCTAssertEqual(rises.count, 1, "\(label): moonrises \(rises)")
                assertAgrees(rises.first, rise, in: zone, "\(label) moonrise")
            } else {
                // 4 October: the moon rises 49 minutes after midnight on the 5th, and not on the 4th.
                XCTAssertEqual(rises, [], "\(label): the table has no moonrise")
                daysWithoutMoonrise += 1
            }
            let set = try XCTUnwrap(day.columns["moonset"] ?? nil)
            XCTAssertEqual(sets.count, 1)
            assertAgrees(sets.first, set, in: zone, "\(label) moonset")

            let sun = HorizonCrossing.events(
                of: Daylight.body, latitude: place.latitude, longitude: place.longitude, from: start, to: end)
            XCTAssertEqual(sun.count, 2)
            assertAgrees(sun.first?.instant, try XCTUnwrap(day.columns["sunrise"] ?? nil), in: zone, "\(label) sunrise")
            assertAgrees(sun.last?.instant, try XCTUnwrap(day.columns["sunset"] ?? nil), in: zone, "\(label) sunset")
        }
        XCTAssertEqual(daysWithoutMoonrise, 1)
    }

    /// The recording's moon_phase is the fraction of the lunation (0.75 the
    /// last quarter): 0.745 on 3 October, so the last quarter falls that day,
    /// and the days after are waning crescents, less lit each day.
    func testPhase_matchesOpenMeteoTable_enschedeOctober2026() throws {
        let zone = try zone("Europe/Amsterdam")
        var phases: [MoonPhaseName] = []
        var lit: [Double] = []
        for day in 3...5 {
            let today = CivilDateTime(year: 2026, month: 10, day: day).daysSinceEpoch
            let start = zone.startOfDay(today)
            let moon = MoonReport(
                latitude: 52.276, longitude: 6.873, now: start + 43_200, dayStart: start,
                dayEnd: zone.startOfDay(today + 1))
            phases.append(moon.phase)
            lit.append(moon.illumination)
        }
        XCTAssertEqual(phases, [.lastQuarter, .waningCrescent, .waningCrescent])
        XCTAssertEqual(lit[0], 0.5, accuracy: 0.03)
        XCTAssertGreaterThan(lit[0], lit[1])
        XCTAssertGreaterThan(lit[1], lit[2])
    }

    /// Toronto, 4–11 March 2026, across the change to summer time on the
    /// 8th: every sunrise and sunset of the table, to the minute.
    func testSun_matchesOpenMeteoTable_torontoMarch2026() throws {
        let zone = try zone("America/Toronto")
        let days = try table("openmeteo-forecast-toronto.json", columns: ["sunrise", "sunset"])
        let offset = try XCTUnwrap(
            JSON(parsing: try Fixtures.bytes("openmeteo-forecast-toronto.json"))["utc_offset_seconds"]?.intValue)
        XCTAssertEqual(offset, -18_000)
        XCTAssertEqual(days.count, 8)
        for day in days {
            let today = day.date.daysSinceEpoch
            let start = zone.startOfDay(today)
            let end = zone.startOfDay(today + 1)
            let sun = HorizonCrossing.events(
                of: Daylight.body, latitude: 43.704_55, longitude: -79.404_625, from: start, to: end)
            guard sun.count == 2, case .rise(let rise) = sun[0], case .set(let set) = sun[1] else {
                XCTFail("\(day.date.day) March: \(sun)")
                continue
            }
            let sunrise = try XCTUnwrap(day.columns["sunrise"] ?? nil)
            let sunset = try XCTUnwrap(day.columns["sunset"] ?? nil)
            assertAgrees(rise, sunrise, in: zone, offset: offset, "\(day.date.day) March sunrise")
            assertAgrees(set, sunset, in: zone, offset: offset, "\(day.date.day) March sunset")
            let daylight = Daylight(latitude: 43.704_55, longitude: -79.404_625, dayStart: start, dayEnd: end)
            XCTAssertEqual(daylight.seconds, set - rise, accuracy: 0.001)
            XCTAssertNil(daylight.polar)
        }
    }

    /// Tromsø (69.65° N) has polar night from late November to mid January
    /// and midnight sun from late May to late July (as every almanac for
    /// the town prints).
    func testDaylight_polarNightAndDay_tromso() throws {
        let zone = try zone("Europe/Oslo")
        func daylight(_ year: Int, _ month: Int, _ day: Int) -> Daylight {
            let today = CivilDateTime(year: year, month: month, day: day).daysSinceEpoch
            return Daylight(
                latitude: 69.6496, longitude: 18.957, dayStart: zone.startOfDay(today),
                dayEnd: zone.startOfDay(today + 1))
        }
        XCTAssertEqual(daylight(2026, 12, 21).polar, .night)
        XCTAssertEqual(daylight(2026, 12, 21).seconds, 0)
        XCTAssertEqual(daylight(2026, 6, 21).polar, .day)
        XCTAssertEqual(daylight(2026, 6, 21).seconds, 86_400)
        // Between them, an ordinary day near the equinox: about twelve hours.
        let equinox = daylight(2026, 3, 20)
        XCTAssertNil(equinox.polar)
        XCTAssertEqual(equinox.seconds / 3600, 12.3, accuracy: 0.3)
    }

    /// Near the poles the moon stays up, or down, for days. Longyearbyen
    /// (78.22° N, 15.63° E) in December 2026, against an independent
    /// computation: PyEphem 4.1 (XEphem's libastro: VSOP87 and ELP-2000/82,
    /// topocentric, the upper limb at −0°34′), run once for this test with
    /// `next_rising`/`next_setting` from each local midnight (UTC+1); its
    /// `NeverUpError` days are 5–14, its `AlwaysUpError` days 19–27. On
    /// every day the kinds of event agree, each time to the minute, and a
    /// day without one is held to the geometry: the moon cannot rise while
    /// its declination stays below φ − 90° (−11.8°), nor set above 90° − φ.
    func testMoon_polarDaysWithoutRiseOrSet_longyearbyen() throws {
        let zone = try zone("Arctic/Longyearbyen")
        let latitude = 78.2232
        let ephem: [Int: [String]] = [
            1: ["set 13:51", "rise 23:38"], 2: ["set 12:37"], 3: ["rise 02:40", "set 11:21"],
            4: ["rise 06:37", "set 09:02"], 15: ["rise 14:03", "set 20:14"], 16: ["rise 12:36", "set 23:16"],
            17: ["rise 11:27"], 18: ["set 02:14", "rise 10:08"], 28: ["set 12:33", "rise 20:43"],
            29: ["set 11:10", "rise 23:54"], 30: ["set 09:56"], 31: ["rise 03:19", "set 08:13"],
        ]
        for day in 1...31 {
            let today = CivilDateTime(year: 2026, month: 12, day: day).daysSinceEpoch
            let start = zone.startOfDay(today)
            let end = zone.startOfDay(today + 1)
            let moon = MoonReport(latitude: latitude, longitude: 15.6267, now: start, dayStart: start, dayEnd: end)
            let declinations = stride(from: start, through: end, by: 1800).map {
                MoonPosition(at: AstronomicalTime(unixSeconds: $0)).equatorial.declination
            }
            switch day {
            case 5...14:
                XCTAssertEqual(moon.events, [], "December \(day)")
                XCTAssertFalse(moon.upAtStart, "December \(day)")
                XCTAssertLessThan(declinations.min() ?? 0, latitude - 90, "December \(day)")
                XCTAssertEqual(SkyWording.moonTimes(moon) { _ in "" }, "below the horizon all day")
            case 19...27:
                XCTAssertEqual(moon.events, [], "December \(day)")
                XCTAssertTrue(moon.upAtStart, "December \(day)")
                XCTAssertGreaterThan(declinations.max() ?? 0, 90 - latitude, "December \(day)")
                XCTAssertEqual(SkyWording.moonTimes(moon) { _ in "" }, "up all day")
            default:
                let expected = try XCTUnwrap(ephem[day])
                XCTAssertEqual(moon.events.count, expected.count, "December \(day): \(moon.events)")
                for (event, text) in zip(moon.events, expected) {
                    let parts = text.split(separator: " ")
                    let kind: String
                    if case .rise = event { kind = "rise" } else { kind = "set" }
                    XCTAssertEqual(kind, String(parts[0]), "December \(day)")
                    let printed = try XCTUnwrap(CivilDateTime(iso8601Local: "2026-12-01T\(parts[1])"))
                    let minute = start + Double(printed.hour * 3600 + printed.minute * 60)
                    XCTAssertEqual(event.instant, minute, accuracy: 90, "December \(day) \(text)")
                }
            }
        }
    }
}
