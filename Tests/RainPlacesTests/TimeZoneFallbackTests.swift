import RainCore
import XCTest

@testable import RainPlaces

final class TimeZoneFallbackTests: XCTestCase {
    func testMostPopulous_inAZone_isItsBiggestCity() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Europe/Paris")?.name, "Paris")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "America/New_York")?.name, "New York City")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "America/Los_Angeles")?.name, "Los Angeles")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Asia/Tokyo")?.name, "Tokyo")
        // Across the antimeridian too; Nasinu (Fiji) counts more people than Suva.
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Pacific/Fiji")?.name, "Nasinu")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Europe/Zurich")?.name, "Zürich")
    }

    func testMostPopulous_acceptsTZAndLocaltimeForms() throws {
        let places = try PlaceTestSupport.openDirectory()
        for form in [
            ":Europe/Berlin", "/usr/share/zoneinfo/Europe/Berlin", "../usr/share/zoneinfo/posix/Europe/Berlin",
            " Europe/Berlin\n",
        ] {
            XCTAssertEqual(places.mostPopulous(inTimeZone: form)?.name, "Berlin", form)
        }
    }

    func testMostPopulous_knowsOldAndNewZoneNames() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Asia/Calcutta")?.name, "Mumbai")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Asia/Saigon")?.name, "Ho Chi Minh City")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "US/Pacific")?.name, "Los Angeles")
        XCTAssertEqual(places.mostPopulous(inTimeZone: "Europe/Kiev")?.name, "Kyiv")
    }

    func testMostPopulous_inAZoneWithoutPlaces_isNil() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertNil(places.mostPopulous(inTimeZone: "UTC"))
        XCTAssertNil(places.mostPopulous(inTimeZone: "Etc/GMT+3"))
        XCTAssertNil(places.mostPopulous(inTimeZone: ""))
        XCTAssertNil(places.mostPopulous(inTimeZone: "Mars/Olympus_Mons"))
    }
}
