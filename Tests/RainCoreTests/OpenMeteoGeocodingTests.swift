import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class OpenMeteoGeocodingTests: XCTestCase {
    func testSearchPath_percentEncodesTheName() {
        XCTAssertEqual(
            OpenMeteoGeocoding.searchPath(name: "São Paulo&x"),
            "/v1/search?name=S%C3%A3o%20Paulo%26x&count=10&language=en&format=json")
    }
}
