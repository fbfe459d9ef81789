import XCTest

@testable import RainCore

/// Lines past 80 columns continue under the column they continue.
final class LineWrapTests: XCTestCase {
    func testALongTableRow_continuesUnderItsValue() {
        let line =
            "Aire              Poco saludable para grupos sensibles (ICA de EE. UU. 120), sobre todo PM2.5"
        let wrapped = LineWrap.wrap(line).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            wrapped,
            [
                "Aire              Poco saludable para grupos sensibles (ICA de EE. UU. 120),",
                "                  sobre todo PM2.5",
            ])
    }

    func testARowWhoseLabelIsTheWidest_continuesAfterItsColon() {
        let line = "Alert services: " + String(repeating: "paris-fr: not checked yet; ", count: 3)
        let wrapped = LineWrap.wrap(line).split(separator: "\n")
        XCTAssertTrue(wrapped.count > 1)
        XCTAssertTrue(wrapped.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 16)) }, "\(wrapped)")
        XCTAssertTrue(wrapped.allSatisfy { TextTable.width(String($0)) <= 80 })
    }

    func testLinesThatFit_andAWordLongerThanTheRoom_stayAsTheyAre() {
        XCTAssertEqual(LineWrap.wrap("Wind  3 m/s SW\nMoon  Waxing"), "Wind  3 m/s SW\nMoon  Waxing")
        let url = "https://example.org/" + String(repeating: "x", count: 90)
        XCTAssertEqual(LineWrap.wrap(url), url)
    }
}
