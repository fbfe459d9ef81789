import Foundation
import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The tz database read without Foundation: the system's TZif files
/// (Debian's tzdata), their POSIX footers, and what the views make of them.
final class TimeZoneRulesTests: XCTestCase {
    private func zone(_ name: String) throws -> TimeZoneRules {
        try XCTUnwrap(Fixtures.zoneInfo.rules(named: name), "no \(ZoneInfo.defaultDirectory)/\(name); install tzdata")
    }

    private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Double {
        CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute).unixSeconds(utcOffsetSeconds: 0)
    }

    func testParis_changesAtOneUTC_onTheLastSundaysOfMarchAndOctober() throws {
        let paris = try zone("Europe/Paris")
        XCTAssertEqual(paris.offset(at: utc(2026, 3, 29, 0, 59)), 3600)
        XCTAssertEqual(paris.offset(at: utc(2026, 3, 29, 1, 0)), 7200)
        XCTAssertEqual(paris.offset(at: utc(2026, 10, 25, 0, 59)), 7200)
        XCTAssertEqual(paris.offset(at: utc(2026, 10, 25, 1, 0)), 3600)
        XCTAssertEqual(paris.local(utc(2026, 3, 29, 1, 0)).hourMinute, "03:00")  // 02:00 never happens
    }

    func testNewYork_changesOnTheSecondSundayOfMarch_andFirstOfNovember() throws {
        let newYork = try zone("America/New_York")
        XCTAssertEqual(newYork.offset(at: utc(2026, 3, 8, 6, 59)), -5 * 3600)
        XCTAssertEqual(newYork.offset(at: utc(2026, 3, 8, 7, 0)), -4 * 3600)
        XCTAssertEqual(newYork.offset(at: utc(2026, 11, 1, 5, 59)), -4 * 3600)
        XCTAssertEqual(newYork.offset(at: utc(2026, 11, 1, 6, 0)), -5 * 3600)
    }

    func testKathmanduAndMarquesas_haveQuarterAndHalfHourOffsets() throws {
        let noon = utc(2026, 1, 15, 12)
        XCTAssertEqual(try zone("Asia/Kathmandu").offset(at: noon), 5 * 3600 + 45 * 60)
        XCTAssertEqual(try zone("Asia/Kathmandu").local(noon).hourMinute, "17:45")
        XCTAssertEqual(try zone("Pacific/Marquesas").offset(at: noon), -(9 * 3600 + 30 * 60))
        XCTAssertEqual(try zone("Pacific/Marquesas").local(noon).hourMinute, "02:30")
    }

    func testSydney_southernSummerTime_spansTheNewYear() throws {
        let sydney = try zone("Australia/Sydney")
        XCTAssertEqual(sydney.offset(at: utc(2026, 1, 15, 0)), 11 * 3600)
        XCTAssertEqual(sydney.offset(at: utc(2026, 7, 15, 0)), 10 * 3600)
    }

    /// Beyond the last transition in the file the footer's rule answers; it
    /// must agree with the listed transitions wherever both exist.
    func testFooterRule_agreesWithListedTransitions_andCoversLaterYears() throws {
        let rule = try XCTUnwrap(PosixTimeZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        let paris = try zone("Europe/Paris")
        var instant = utc(2000, 1, 1, 0)
        while instant < utc(2037, 1, 1, 0) {
            XCTAssertEqual(rule.offset(at: Int64(instant)), paris.offset(at: instant), "at \(instant)")
            instant += 3 * 3600 + 17 * 60
        }
        XCTAssertEqual(paris.offset(at: utc(2061, 7, 1, 12)), 7200)
        XCTAssertEqual(paris.offset(at: utc(2061, 12, 1, 12)), 3600)
    }

    func testFooterRule_readsQuotedNamesFixedOffsetsAndJulianDays() throws {
        XCTAssertEqual(PosixTimeZoneRule("<+0545>-5:45")?.offset(at: 0), 20_700)
        XCTAssertEqual(PosixTimeZoneRule("<-0930>9:30")?.offset(at: 0), -34_200)
        let julian = try XCTUnwrap(PosixTimeZoneRule("XST5XDT,J60/2,J300/2"))
        XCTAssertEqual(julian.offset(at: Int64(utc(2026, 6, 1, 12))), -4 * 3600)
        XCTAssertEqual(julian.offset(at: Int64(utc(2026, 1, 1, 12))), -5 * 3600)
        XCTAssertNil(PosixTimeZoneRule("C"))
        XCTAssertNil(PosixTimeZoneRule("CET-1CEST,M13.5.0,M10.5.0"))
    }

    func testBadData_isAnErrorAndBadNamesReadNothing() throws {
        XCTAssertThrowsError(try TimeZoneRules(name: "x", tzif: Array("not a zone".utf8)))
        let paris = try XCTUnwrap(
            Fixtures.zoneInfo.readFile(ZoneInfo.defaultDirectory + "/Europe/Paris", ZoneInfo.maximumBytes))
        XCTAssertThrowsError(try TimeZoneRules(name: "Europe/Paris", tzif: Array(paris.prefix(200)))) { error in
            XCTAssertEqual((error as? TimeZoneError)?.reason, "the TZif data ends early")
        }
        for name in ["", "../etc/passwd", "/etc/localtime", "Europe/../../etc", "Europe/Paris ", "Nowhere/Atlantis"] {
            XCTAssertNil(Fixtures.zoneInfo.rules(named: name), name)
        }
    }

    /// Without the zone (one offset for the whole forecast, as before) the
    /// days after the change are an hour off; with it they are right.
    func testPresenter_showsSunriseAfterTheChange_inSummerTime() throws {
        let forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-paris-dst.json"), fetchedAt: 1_774_724_700)
        XCTAssertEqual(forecast.utcOffsetSeconds, 3600)  // the offset at fetch time, before the change
        var monday = forecast
        monday.current?.time = utc(2026, 3, 30, 8)  // 10:00 CEST
        let presenter = ForecastPresenter(
            forecast: monday, placeName: "Paris", units: .si, now: utc(2026, 3, 30, 8), zone: try zone("Europe/Paris"))
        let text = presenter.nowView()
        XCTAssertTrue(text.contains("Monday 30 March 2026, 10:00\n"), text)
        XCTAssertTrue(text.contains("Sun             rises 07:54, sets 20:30\n"), text)
        let daily = presenter.dailyView(days: 2)
        XCTAssertTrue(daily.contains("Mon  30 Mar") && daily.contains("Tue  31 Mar"), daily)
    }

    /// Open-Meteo keeps one offset for its whole series (open-meteo#1545):
    /// after the spring change its daily "midnights" are 01:00 local. They
    /// are moved to the real local midnights, one per date.
    func testAlignDays_putsSpringDaysOnLocalMidnights() throws {
        var forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-paris-dst.json"), fetchedAt: 1_774_724_700)
        let paris = try zone("Europe/Paris")
        XCTAssertEqual(paris.local(forecast.daily[2].time).hourMinute, "01:00")  // as sent
        forecast.alignDays(to: paris)
        XCTAssertEqual(forecast.daily.map { paris.local($0.time).hourMinute }, Array(repeating: "00:00", count: 7))
        XCTAssertEqual(forecast.daily.map { paris.local($0.time).day }, [28, 29, 30, 31, 1, 2, 3])
    }

    /// In autumn the same rule puts a day at 23:00 the evening before
    /// (Pirate Weather issue #114); read by the zone as it is, that date
    /// would show twice.
    func testAlignDays_putsAutumnDaysOnLocalMidnights_andViewsShowEachDateOnce() throws {
        let newYork = try zone("America/New_York")
        let firstMidnight = utc(2026, 10, 30, 4)  // 00:00 EDT, Friday 30 October
        // Midnights at the offset valid when asked (-4 h), for five days across 1 November.
        let days = (0..<5).map { DailyForecast(time: firstMidnight + Double($0) * 86_400, summary: "d\($0)") }
        var forecast = Forecast(
            provider: PirateWeather.providerName, fetchedAt: firstMidnight, timeZone: "America/New_York",
            utcOffsetSeconds: -4 * 3600, daily: days)
        XCTAssertEqual(newYork.local(forecast.daily[3].time).hourMinute, "23:00")  // as sent: 1 November, 23:00
        let unaligned = ForecastPresenter(
            forecast: forecast, placeName: "New York", units: .us, now: firstMidnight + 3600, zone: newYork
        ).dailyView(days: 5)
        forecast.alignDays(to: newYork)
        XCTAssertEqual(forecast.daily.map { newYork.local($0.time).hourMinute }, Array(repeating: "00:00", count: 5))
        XCTAssertEqual(forecast.daily.map { newYork.local($0.time).day }, [30, 31, 1, 2, 3])
        let aligned = ForecastPresenter(
            forecast: forecast, placeName: "New York", units: .us, now: firstMidnight + 3600, zone: newYork
        ).dailyView(days: 5)
        for text in [unaligned, aligned] {
            for date in ["Fri  30 Oct", "Sat  31 Oct", "Sun  1 Nov", "Mon  2 Nov", "Tue  3 Nov"] {
                XCTAssertTrue(text.contains(date), "\(date) missing in\n\(text)")
            }
        }
    }

    /// Chile moves its clocks at 24:00: 6 September 2026 starts at 01:00.
    func testStartOfDay_whenTheClockSkipsMidnight_isTheFirstInstantOfTheDay() throws {
        let santiago = try zone("America/Santiago")
        let day = CivilDateTime(year: 2026, month: 9, day: 6).daysSinceEpoch
        let start = santiago.startOfDay(day)
        XCTAssertEqual(santiago.local(start).hourMinute, "01:00")
        XCTAssertEqual(santiago.local(start).day, 6)
        XCTAssertEqual(santiago.local(start - 1).day, 5)
        let paris = try zone("Europe/Paris")
        XCTAssertEqual(
            paris.startOfDay(CivilDateTime(year: 2026, month: 3, day: 30).daysSinceEpoch), utc(2026, 3, 29, 22))
    }

    /// The core reads through the reader it is given, and asks it for nothing
    /// when a name could leave the database.
    func testZoneInfo_asksItsReaderOnlyForPlainNames() {
        let asked = AskedPaths()
        let zones = ZoneInfo(directory: "/zones") { path, limit in
            asked.add(path)
            return path == "/zones/Too/Large" ? [UInt8](repeating: 0, count: limit + 1) : nil
        }
        for name in ["", "../etc/passwd", "/etc/localtime", "Europe/../../etc", "Europe/./Paris", "Europe/Paris "] {
            XCTAssertNil(zones.rules(named: name), name)
        }
        XCTAssertEqual(asked.paths, [])
        XCTAssertNil(zones.tzif(named: "Too/Large"), "a file above the limit is refused whatever the reader")
        XCTAssertNil(zones.rules(named: "Nowhere/Atlantis"))
        XCTAssertEqual(asked.paths, ["/zones/Too/Large", "/zones/Nowhere/Atlantis"])
    }
}

/// The paths a reader was asked for (the reader is `@Sendable`).
private final class AskedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func add(_ path: String) { lock.withLock { recorded.append(path) } }
    var paths: [String] { lock.withLock { recorded } }
}
