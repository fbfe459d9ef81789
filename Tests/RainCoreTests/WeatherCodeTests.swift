import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class WeatherCodeTests: XCTestCase {
    func testSummary_namesTheWeather() {
        XCTAssertEqual(WeatherCode(61).summary, "Light rain")
        XCTAssertEqual(WeatherCode(0).summary, "Clear sky")
        XCTAssertEqual(WeatherCode(99).summary, "Thunderstorm with heavy hail")
    }

    func testIcon_clearAndPartlyCloudyFollowDayAndNight() {
        XCTAssertEqual(WeatherCode(0).icon(isDay: true), "clear-day")
        XCTAssertEqual(WeatherCode(1).icon(isDay: false), "clear-night")
        XCTAssertEqual(WeatherCode(2).icon(isDay: false), "partly-cloudy-night")
        XCTAssertEqual(WeatherCode(2).icon(), "partly-cloudy-day")
    }

    func testIcon_precipitationKinds() {
        XCTAssertEqual(WeatherCode(3).icon(), "cloudy")
        XCTAssertEqual(WeatherCode(45).icon(), "fog")
        XCTAssertEqual(WeatherCode(53).icon(), "rain")
        XCTAssertEqual(WeatherCode(81).icon(), "rain")
        XCTAssertEqual(WeatherCode(66).icon(), "sleet")
        XCTAssertEqual(WeatherCode(75).icon(), "snow")
        XCTAssertEqual(WeatherCode(86).icon(), "snow")
        XCTAssertEqual(WeatherCode(95).icon(isDay: false), "thunderstorm")
    }

    func testUnknownCode_saysSoAndIsUnknownNotCloudy() {
        XCTAssertFalse(WeatherCode(42).isKnown)
        XCTAssertEqual(WeatherCode(42).summary, "Unknown weather (code 42)")
        XCTAssertEqual(WeatherCode(42).icon(), "unknown")
        XCTAssertEqual(WeatherCode(42).icon(isDay: false), "unknown")
    }
}
