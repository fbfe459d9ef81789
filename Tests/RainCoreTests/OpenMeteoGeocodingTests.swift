import XCTest
@testable import RainCore

final class OpenMeteoGeocodingTests: XCTestCase {
    func testParse_recordedEnschedeAnswer() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/openmeteo-geocoding-enschede.json")
        let candidates = try OpenMeteoGeocoding.parse(Array(try Data(contentsOf: url)))
        XCTAssertEqual(candidates.count, 2)
        XCTAssertEqual(candidates[0].name, "Enschede")
        XCTAssertEqual(candidates[0].region, "Overijssel")
        XCTAssertEqual(candidates[0].countryCode, "NL")
        XCTAssertEqual(candidates[0].population, 153655)
        XCTAssertEqual(candidates[0].timeZone, "Europe/Amsterdam")
        XCTAssertEqual(candidates[0].source, .geocoder(provider: "open-meteo", id: "2756071"))
        XCTAssertEqual(candidates[1].population, 0, "a missing population is 0")
    }

    func testParse_noResults_isEmpty_andGarbageIsAnError() throws {
        XCTAssertEqual(try OpenMeteoGeocoding.parse(Array(#"{"generationtime_ms":0.1}"#.utf8)), [])
        XCTAssertThrowsError(try OpenMeteoGeocoding.parse(Array("<html>".utf8)))
        XCTAssertThrowsError(try OpenMeteoGeocoding.parse(Array(#"{"error":true,"reason":"bad"}"#.utf8)))
    }

    func testSearchPath_percentEncodesTheName() {
        XCTAssertEqual(
            OpenMeteoGeocoding.searchPath(name: "São Paulo&x"),
            "/v1/search?name=S%C3%A3o%20Paulo%26x&count=10&language=en&format=json")
    }
}
