import XCTest

@testable import RainCore

final class CivilDateTimeTests: XCTestCase {
    func testInit_fromUnixSecondsWithOffset_givesLocalWallClock() {
        // 2026-10-03T10:30:00Z is 12:30 in Amsterdam (UTC+2).
        let time = CivilDateTime(unixSeconds: 1_791_023_400, utcOffsetSeconds: 7200)
        XCTAssertEqual(time, CivilDateTime(year: 2026, month: 10, day: 3, hour: 12, minute: 30))
        XCTAssertEqual(time.weekdayName, "Saturday")
        XCTAssertEqual(time.shortMonthName, "Oct")
        XCTAssertEqual(time.hourMinute, "12:30")
    }

    func testInit_negativeOffsetCrossesMidnightBackwards() {
        // 2026-01-01T03:00Z is 22:00 on New Year's Eve in New York (UTC-5).
        let time = CivilDateTime(unixSeconds: 1_767_236_400, utcOffsetSeconds: -18_000)
        XCTAssertEqual(time, CivilDateTime(year: 2025, month: 12, day: 31, hour: 22))
        XCTAssertEqual(time.weekdayName, "Wednesday")
    }

    func testInit_beforeEpochAndLeapDay() {
        XCTAssertEqual(
            CivilDateTime(unixSeconds: -1, utcOffsetSeconds: 0),
            CivilDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        let leap = CivilDateTime(year: 2024, month: 2, day: 29, hour: 6)
        XCTAssertEqual(CivilDateTime(unixSeconds: leap.unixSeconds(utcOffsetSeconds: 0), utcOffsetSeconds: 0), leap)
        XCTAssertEqual(CivilDateTime(year: 2000, month: 3, day: 1).daysSinceEpoch, 11_017)
    }

    func testRoundTrip_everyDayOverFourHundredYears() {
        var days = CivilDateTime(year: 1900, month: 1, day: 1).daysSinceEpoch
        var previousWeekday = CivilDateTime(year: 1899, month: 12, day: 31).weekday
        let end = CivilDateTime(year: 2300, month: 1, day: 1).daysSinceEpoch
        while days < end {
            let date = CivilDateTime(unixSeconds: Double(days) * 86_400, utcOffsetSeconds: 0)
            XCTAssertEqual(date.daysSinceEpoch, days)
            XCTAssertEqual(date.weekday, (previousWeekday + 1) % 7)
            previousWeekday = date.weekday
            days += 1
        }
    }

    func testISO8601Local_readsOpenMeteoForms() {
        XCTAssertEqual(CivilDateTime(iso8601Local: "2026-10-03"), CivilDateTime(year: 2026, month: 10, day: 3))
        XCTAssertEqual(
            CivilDateTime(iso8601Local: "2026-10-03T07:36"),
            CivilDateTime(year: 2026, month: 10, day: 3, hour: 7, minute: 36))
        XCTAssertEqual(
            CivilDateTime(iso8601Local: "2026-10-03T07:36:09"),
            CivilDateTime(year: 2026, month: 10, day: 3, hour: 7, minute: 36, second: 9))
    }

    func testISO8601Local_rejectsMalformedAndOutOfRange() {
        for bad in [
            "", "2026-10-3", "2026-13-01", "2026-02-29", "2026-10-03T24:00", "2026-10-03 07:36",
            "2026-10-03T07:36Z", "2026-10-03T07:3x", "２０２６-10-03",
        ] {
            XCTAssertNil(CivilDateTime(iso8601Local: bad), bad)
        }
    }
}
