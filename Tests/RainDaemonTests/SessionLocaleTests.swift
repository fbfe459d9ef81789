import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemon

/// The session's language as the user manager's `Environment` gives it
/// (`DesktopNotifier.localeVariables`), and the locale it names.
final class SessionLocaleTests: XCTestCase {
    func testOnlyTheLocalesVariablesAreKept_andValuesThatAreNoLocaleNameAreDropped() {
        let environment = BusValue.array(
            element: "s",
            [
                .string("LANG=de_DE.UTF-8"), .string("LC_TIME=en_GB.UTF-8"), .string("PATH=/usr/bin"),
                .string("LC_MESSAGES=fr FR"), .string("LC_NUMERIC=" + String(repeating: "x", count: 200)),
                .string("LC_ALL"), .string("=oops"), .uint32(7),
            ])
        XCTAssertEqual(
            DesktopNotifier.localeVariables(of: environment), ["LANG": "de_DE.UTF-8", "LC_TIME": "en_GB.UTF-8"])
        XCTAssertNil(DesktopNotifier.localeVariables(of: .array(element: "s", [.string("PATH=/bin")])))
        XCTAssertNil(DesktopNotifier.localeVariables(of: .string("LANG=de_DE.UTF-8")))
    }

    func testTheNamedLocale_isChosenPerCategory_asGlibcChoosesFromAnEnvironment() throws {
        try XCTSkipIf(
            Localization.with(locale: "de_DE.UTF-8") { true } == nil
                || Localization.with(locale: "en_US.UTF-8") { true } == nil,
            "de_DE.UTF-8 and en_US.UTF-8 are not generated: ./scripts/test runs localedef")
        let mixed = Localization.inLocale(of: ["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8"]) {
            LocaleConventions.current
        }
        XCTAssertEqual(mixed.decimalSeparator, ",")
        XCTAssertTrue(mixed.twelveHourClock)
        let all = Localization.inLocale(of: ["LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"]) {
            LocaleConventions.current
        }
        XCTAssertEqual(all.decimalSeparator, ".")
        // Not installed, or a path: that category stays in C.
        let missing = Localization.inLocale(of: ["LANG": "xx_YY.UTF-8", "LC_NUMERIC": "/tmp/evil"]) {
            LocaleConventions.current
        }
        XCTAssertEqual(missing.decimalSeparator, ".")
        XCTAssertFalse(missing.twelveHourClock)
    }

    func testAlertLanguages_areTheSessions_afterRaindsOwnLANGUAGE_elseRaindsOwn() {
        let own = ["LANG": "C.UTF-8", "LANGUAGE": "fr_CA:en"]
        XCTAssertEqual(SessionLanguages.languages(session: ["LANG": "de_DE.UTF-8"], own: own), ["fr", "en", "de"])
        XCTAssertEqual(SessionLanguages.languages(session: ["LANG": "de_DE.UTF-8"], own: ["LANG": "C"]), ["de"])
        XCTAssertEqual(
            SessionLanguages.languages(session: ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "nb_NO.UTF-8"], own: [:]),
            ["nb", "de"])
        XCTAssertEqual(SessionLanguages.languages(session: nil, own: ["LANG": "sv_SE.UTF-8"]), ["sv"])
    }
}
