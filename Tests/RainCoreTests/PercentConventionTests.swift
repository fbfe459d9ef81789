import TestSupport
import XCTest

@testable import RainCore

/// A percentage as the reader's language writes it, from the catalogue's
/// `{number}%` (issue 36): Czech puts a no-break space before the sign,
/// Turkish puts the sign first; English and the older catalogues write `30%`.
final class PercentConventionTests: XCTestCase {
    static let catalogues: String? = {
        guard let directory = Catalogues.compiled else { return nil }
        Localization.bind(environment: ["RAIND_LOCALE_DIR": directory], executablePath: nil)
        return directory
    }()

    func testPercent_followsTheCatalogue() throws {
        XCTAssertNotNil(Self.catalogues, "msgfmt (Debian's gettext) could not compile po/*.po")
        let shown = { (locale: String) in
            try XCTUnwrap(
                Localization.with(locale: locale) { [UnitFormatter.percent(0.3), UnitFormatter.percent(nil)] },
                "\(locale) is not installed: ./scripts/test runs localedef")
        }
        XCTAssertEqual(try shown("cs_CZ.UTF-8"), ["30\u{A0}%", "–"])
        XCTAssertEqual(try shown("tr_TR.UTF-8"), ["%30", "–"])
        XCTAssertEqual(try shown("de_DE.UTF-8"), ["30%", "–"])
        XCTAssertEqual(try shown("C"), ["30%", "–"])
        // A template's bare value is the number alone, wherever the sign goes.
        XCTAssertEqual(UnitFormatter.percentNumber(0.3), "30")
        XCTAssertEqual(UnitFormatter.percentNumber(1.7), "100")
        XCTAssertNil(UnitFormatter.percentNumber(.nan))
    }
}
