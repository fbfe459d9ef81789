import Foundation
import TestSupport
import XCTest

@testable import RainCore

/// What the catalogues decide beyond single words, through the real glibc
/// and msgfmt's catalogues (as `LocalizedViewTests`): the imperial units'
/// and the degrees' symbols, short dates in figures where the reader's
/// short dates are, a list's separator and a count's plural form.
final class LocalizedWordingTests: XCTestCase {
    static let bound: Bool = {
        guard let directory = Catalogues.compiled else { return false }
        Localization.bind(environment: ["RAIND_LOCALE_DIR": directory], executablePath: nil)
        return true
    }()

    private func inLocale<T>(_ locale: String, _ body: () -> T) throws -> T {
        XCTAssertTrue(Self.bound, "msgfmt (Debian's gettext) could not compile po/*.po")
        return try XCTUnwrap(
            Localization.with(locale: locale, body), "\(locale) is not installed: ./scripts/test runs localedef")
    }

    /// The units the `us` and `uk` systems show, and the degrees, come from
    /// the catalogue as the metric ones do: Russian writes `миль/ч`.
    func testImperialUnitsAndDegrees_areTheReaders() throws {
        let shown = { (locale: String) in
            try self.inLocale(locale) {
                let us = UnitFormatter(system: .us)
                return [
                    us.spaced(3, .windSpeed), us.spaced(2.54, .precipitationIntensity),
                    us.spaced(2.54, .precipitationAccumulation), us.spaced(1013, .pressure),
                    us.spaced(16.09344, .visibility), us.label(for: .temperature),
                    UnitFormatter(system: .si).label(for: .temperature), ProviderChoice.difference(1, .us),
                ]
            }
        }
        XCTAssertEqual(
            try shown("ru_RU.UTF-8"),
            ["7 миль/ч", "0,1 дюйм/ч", "0,1 дюйм", "1013 мбар", "10 миль", "°F", "°C", "1,8 °F"])
        XCTAssertEqual(
            try shown("uk_UA.UTF-8"),
            ["7 миль/год", "0,1 дюйм/год", "0,1 дюйм", "1013 мбар", "10 миль", "°F", "°C", "1,8 °F"])
        XCTAssertEqual(
            try shown("de_DE.UTF-8"), ["7 mph", "0,1 in/h", "0,1 in", "1013 mbar", "10 mi", "°F", "°C", "1,8 °F"])
        XCTAssertEqual(try shown("C"), ["7 mph", "0.1 in/h", "0.1 in", "1013 mb", "10 mi", "°F", "°C", "1.8 °F"])
        // JSON keeps the Latin symbols whatever the reader's language.
        let labels = try inLocale("ru_RU.UTF-8") { UnitSystem.us.unitLabels }
        XCTAssertEqual(labels, UnitSystem.us.unitLabels)
        guard case .object(let object) = labels else { return XCTFail("unitLabels is not an object: \(labels)") }
        XCTAssertEqual(object["windSpeed"], .string("mph"))
    }

    /// A short date (the daily list's, an alert's time) in figures where the
    /// reader's short dates are: Czech `15. 1.`, German `15.01.`, Russian,
    /// Ukrainian, Polish and Turkish `15.01`; the month's name elsewhere.
    func testShortDates_areInFigures_whereTheReadersExpectThem() throws {
        let day = CivilDateTime(year: 2026, month: 1, day: 5, hour: 18)
        let dates = { (locale: String) in
            try self.inLocale(locale) { [day.shortDate, AlertWording.moment(day)] }
        }
        XCTAssertEqual(try dates("cs_CZ.UTF-8"), ["5.\u{A0}1.", "Po 5.\u{A0}1. 18:00"])
        XCTAssertEqual(try dates("de_DE.UTF-8"), ["05.01.", "Mo, 05.01. 18:00"])
        XCTAssertEqual(try dates("ru_RU.UTF-8"), ["05.01", "Пн, 05.01, 18:00"])
        XCTAssertEqual(try dates("uk_UA.UTF-8"), ["05.01", "пн, 05.01, 18:00"])
        XCTAssertEqual(try dates("pl_PL.UTF-8"), ["05.01", "pon 05.01 18:00"])
        XCTAssertEqual(try dates("tr_TR.UTF-8"), ["05.01", "05.01 Pzt 18:00"])
        XCTAssertEqual(try dates("fr_FR.UTF-8"), ["5 janv.", "lun. 5 janv. 18:00"])
        XCTAssertEqual(try dates("ja_JP.UTF-8"), ["1月5日", "1月5日(月) 18:00"])
        XCTAssertEqual(try dates("C"), ["5 Jan", "Mon 5 Jan 18:00"])
        // The long date keeps the month's name.
        XCTAssertEqual(try inLocale("ru_RU.UTF-8") { day.longDate }.contains("января"), true)
    }

    /// A list (the pollen row; the alerts' names) is joined as the
    /// language writes one: Chinese and Japanese with `、`.
    func testLists_takeTheLanguagesSeparator() throws {
        let air = AirQuality(
            provider: "open-meteo", fetchedAt: 0, index: .european, aqi: 30,
            pollen: [Pollen(kind: .birch, grains: 35), Pollen(kind: .grass, grains: 4)])
        XCTAssertEqual(try inLocale("zh_CN.UTF-8") { AirWording.pollenList(air) }?.contains("粒/m³、"), true)
        XCTAssertEqual(try inLocale("ja_JP.UTF-8") { AirWording.pollenList(air) }?.contains("粒/m³、"), true)
        XCTAssertEqual(try inLocale("C") { AirWording.pollenList(air) }, "birch 35 grains/m³, grass 4 grains/m³")
    }

    /// A pollen count agrees with its number: Polish `1 ziarno`, `22 ziarna`,
    /// `5 ziaren`; Czech `1 zrno`, `3 zrna`, `21 zrn`.
    func testPollenCounts_takeThePluralFormOfTheirNumber() throws {
        let counts = { (locale: String, grains: [Double]) in
            try self.inLocale(locale) { grains.map { AirWording.pollen(Pollen(kind: .birch, grains: $0)) } }
        }
        XCTAssertEqual(
            try counts("pl_PL.UTF-8", [1, 22, 5, 12]),
            ["brzoza 1 ziarno/m³", "brzoza 22 ziarna/m³", "brzoza 5 ziaren/m³", "brzoza 12 ziaren/m³"])
        XCTAssertEqual(
            try counts("cs_CZ.UTF-8", [1, 3, 21]).map { $0.split(separator: " ").dropFirst().joined(separator: " ") },
            ["1 zrno/m³", "3 zrna/m³", "21 zrn/m³"])
        XCTAssertEqual(try counts("C", [1, 35.4]), ["birch 1 grain/m³", "birch 35 grains/m³"])
        XCTAssertEqual(try counts("C", [.nan]), ["birch –"])
    }
}
