import RainCore
import TestSupport
import XCTest

@testable import RainPlaces

/// Positions are named the way a person names them (docs/PLACES.md,
/// "Naming a position"): city-centre landmarks after their city, towns next
/// to big cities after themselves. The table is position-naming.tsv.
final class PositionNamingTests: XCTestCase {
    struct Row {
        var line: Int
        var kind: String
        var what: String
        var latitude: Double
        var longitude: Double
        var expectedID: Int
        var expectedName: String
    }

    static func loadTable() throws -> [Row] {
        try TestFile.tableRows(Repository.path("Tests/RainPlacesTests/position-naming.tsv")).compactMap {
            line, fields in
            guard fields.count == 6, let latitude = Double(fields[2]), let longitude = Double(fields[3]),
                let id = Int(fields[4])
            else { return nil }
            return Row(
                line: line, kind: fields[0], what: fields[1], latitude: latitude, longitude: longitude,
                expectedID: id, expectedName: fields[5])
        }
    }

    func testTable_holdsLandmarksOnFiveContinentsAndTownsNextToCities() throws {
        let rows = try Self.loadTable()
        let landmarks = rows.filter { $0.kind == "landmark" }
        XCTAssertGreaterThanOrEqual(landmarks.count, 25)
        XCTAssertGreaterThanOrEqual(rows.filter { $0.kind == "town" }.count, 10)
        // Continents by the place's time zone area: Europe, America, Asia, Africa, Australia.
        let places = try PlaceTestSupport.openDirectory()
        let areas = Set(
            landmarks.compactMap { places.place(geonameID: $0.expectedID)?.timeZone.split(separator: "/").first })
        for area in ["Europe", "America", "Asia", "Africa", "Australia"] {
            XCTAssertTrue(areas.contains(Substring(area)), "no landmark in \(area)")
        }
    }

    func testEveryPositionOfTheTable_isNamedAsAPersonNamesIt() throws {
        let places = try PlaceTestSupport.openDirectory()
        for row in try Self.loadTable() {
            let named = PositionNaming.candidate(
                latitude: row.latitude, longitude: row.longitude, name: nil, directory: places)
            let chosen =
                places.placeNaming(latitude: row.latitude, longitude: row.longitude)
                ?? places.nearest(latitude: row.latitude, longitude: row.longitude)
            XCTAssertEqual(
                chosen.flatMap(PlaceTestSupport.geonamesID), row.expectedID,
                "line \(row.line): \(row.what) should be \(row.expectedName), got \(chosen?.name ?? "nothing")")
            XCTAssertEqual(named.name, row.expectedName, "line \(row.line): \(row.what)")
        }
    }

    func testTheIssueExamples_centralBerlinTimesSquareAndCentralTokyo() throws {
        let places = try PlaceTestSupport.openDirectory()
        // The nearest GeoNames points are Mitte, Times Square and Chūō.
        XCTAssertEqual(places.nearest(latitude: 52.52003, longitude: 13.40489)?.name, "Mitte")
        XCTAssertEqual(places.placeNaming(latitude: 52.52003, longitude: 13.40489)?.name, "Berlin")
        XCTAssertEqual(places.nearest(latitude: 40.75636, longitude: -73.98644)?.name, "Times Square")
        XCTAssertEqual(places.placeNaming(latitude: 40.75636, longitude: -73.98644)?.name, "New York City")
        XCTAssertEqual(places.nearest(latitude: 35.67004, longitude: 139.77544)?.name, "Chūō")
        XCTAssertEqual(places.placeNaming(latitude: 35.67004, longitude: 139.77544)?.name, "Tokyo")
    }

    func testFarFromEveryPlace_isNearTheNearestOrCoordinates() throws {
        let places = try PlaceTestSupport.openDirectory()
        // 60 km out to sea west of Brittany: no disc holds it, the nearest place is far.
        let sea = PositionNaming.candidate(latitude: 48.3, longitude: -5.8, name: nil, directory: places)
        XCTAssertTrue(sea.name.hasPrefix("Near "), sea.name)
        let ocean = PositionNaming.candidate(latitude: -40, longitude: -130, name: nil, directory: places)
        XCTAssertEqual(ocean.name, "-40.0, -130.0")
        XCTAssertEqual(ocean.countryCode, "")
    }

    func testAGivenName_isKept_andTheDataAddsRegionAndCountry() throws {
        let places = try PlaceTestSupport.openDirectory()
        let named = PositionNaming.candidate(latitude: 40.758, longitude: -73.9855, name: "Office", directory: places)
        XCTAssertEqual(named.name, "Office")
        XCTAssertEqual(named.countryCode, "US")
        let withoutData = PositionNaming.candidate(
            latitude: 40.758, longitude: -73.9855, name: "Office", directory: nil)
        XCTAssertEqual(withoutData.name, "Office")
        XCTAssertEqual(withoutData.countryCode, "")
    }

    func testRadiusSearch_findsWhatAScanFinds() throws {
        let places = try PlaceTestSupport.openDirectory()
        for (latitude, longitude) in [(52.52, 13.40), (-33.86, 151.21), (64.1, -21.9), (0.0, 179.9), (89.0, 0.0)] {
            var search = RadiusSearch(file: places.file, latitude: latitude, longitude: longitude, kilometres: 30)
            search.run()
            var scanned: [Int] = []
            for index in 0..<places.count {
                let place = places.place(at: index)
                let distance = GeoDistance.kilometres(
                    latitude1: latitude, longitude1: longitude, latitude2: place.latitude, longitude2: place.longitude)
                // Leave out the float rounding band at the edge.
                if distance <= 29.99 { scanned.append(index) }
            }
            let found = Set(search.places)
            XCTAssertTrue(Set(scanned).isSubset(of: found), "at \(latitude), \(longitude)")
            XCTAssertLessThanOrEqual(found.count, scanned.count + 2)
        }
    }
}
