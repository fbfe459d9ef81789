import XCTest

@testable import RainCore

final class UnitSystemTests: XCTestCase {
    func testDefault_followsLocaleMeasurementSystem() {
        XCTAssertEqual(UnitSystem.defaultFor(locale: "en_US.UTF-8"), .us)
        XCTAssertEqual(UnitSystem.defaultFor(locale: "en_GB.UTF-8"), .uk)
        XCTAssertEqual(UnitSystem.defaultFor(locale: "fr_CA"), .ca)
        XCTAssertEqual(UnitSystem.defaultFor(locale: "de_DE.UTF-8@euro"), .si)
        XCTAssertEqual(UnitSystem.defaultFor(locale: "C.UTF-8"), .si)
        XCTAssertEqual(UnitSystem.defaultFor(locale: nil), .si)
    }

    func testDefault_LCMeasurementWinsOverLang_LCAllWinsOverBoth() {
        XCTAssertEqual(
            UnitSystem.defaultFor(environment: ["LANG": "de_DE.UTF-8", "LC_MEASUREMENT": "en_US.UTF-8"]), .us)
        XCTAssertEqual(UnitSystem.defaultFor(environment: ["LC_ALL": "en_GB", "LC_MEASUREMENT": "en_US"]), .uk)
    }

    func testUserInput_acceptsWordsPeopleType() {
        XCTAssertEqual(UnitSystem(userInput: "Fahrenheit"), .us)
        XCTAssertEqual(UnitSystem(userInput: "celsius"), .si)
        XCTAssertEqual(UnitSystem(userInput: "UK"), .uk)
        XCTAssertNil(UnitSystem(userInput: "kelvin"))
    }
}
