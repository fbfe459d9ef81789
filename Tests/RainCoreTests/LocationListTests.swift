import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class LocationListTests: XCTestCase {
    func candidate(
        _ name: String, _ lat: Double, _ lon: Double, country: String = "", geonames: Int? = nil
    ) -> PlaceCandidate {
        PlaceCandidate(
            name: name, countryCode: country, latitude: lat, longitude: lon,
            source: geonames.map { .geonames(id: $0) } ?? .coordinates)
    }

    func testAdd_firstPlace_isSelected() {
        var list = LocationList()
        let (paris, events) = list.add(candidate("Paris", 48.85, 2.35, country: "FR"))
        XCTAssertEqual(paris.id, LocationID("paris-fr"))
        XCTAssertEqual(list.selectedID, paris.id)
        XCTAssertEqual(events, [.locationAdded(paris), .locationSelected(paris)])
    }

    func testAdd_keepsPlacesSortedByName() {
        var list = LocationList()
        _ = list.add(candidate("Zürich", 47.37, 8.54))
        _ = list.add(candidate("amsterdam", 52.37, 4.89))
        _ = list.add(candidate("Berlin", 52.52, 13.40))
        XCTAssertEqual(list.locations.map(\.name), ["amsterdam", "Berlin", "Zürich"])
    }

    func testAdd_withinOneKilometre_returnsExisting() {
        var list = LocationList()
        let (first, _) = list.add(candidate("London", 51.5074, -0.1278))
        let (again, events) = list.add(candidate("Westminster", 51.5010, -0.1246))
        XCTAssertEqual(again, first)
        XCTAssertTrue(events.isEmpty)
        XCTAssertEqual(list.locations.count, 1)
    }

    func testAdd_sameSourceID_returnsExistingEvenWhenFar() {
        var list = LocationList()
        let (first, _) = list.add(candidate("Paris", 48.85, 2.35, geonames: 2988507))
        let (again, _) = list.add(candidate("Paris", 48.95, 2.45, geonames: 2988507))
        XCTAssertEqual(again.id, first.id)
    }

    func testAdd_samePlaceNameFarApart_getsDistinctIDs() {
        var list = LocationList()
        let (a, _) = list.add(candidate("Paris", 48.85, 2.35, country: "FR"))
        let (b, _) = list.add(candidate("Paris", 48.86, 2.50, country: "FR"))
        XCTAssertEqual(a.id.rawValue, "paris-fr")
        XCTAssertEqual(b.id.rawValue, "paris-fr-2")
    }

    func testRemove_whenSelected_isRefused() {
        var list = LocationList()
        let (paris, _) = list.add(candidate("Paris", 48.85, 2.35))
        XCTAssertThrowsError(try list.remove(paris.id)) { error in
            XCTAssertEqual(error as? LocationListError, .isSelected(paris))
        }
        XCTAssertEqual(list.locations.count, 1)
    }

    func testRemove_unselected_removesAndReportsEvent() throws {
        var list = LocationList()
        _ = list.add(candidate("Paris", 48.85, 2.35))
        let (rome, _) = list.add(candidate("Rome", 41.9, 12.5))
        XCTAssertEqual(try list.remove(rome.id), [.locationRemoved(rome)])
        XCTAssertNil(list[rome.id])
    }

    func testSelect_unknown_throwsNotFound() {
        var list = LocationList()
        XCTAssertThrowsError(try list.select(LocationID("nowhere"))) { error in
            XCTAssertEqual(error as? LocationListError, .notFound("nowhere"))
        }
    }

    func testSelect_selectedAgain_changesNothing() throws {
        var list = LocationList()
        let (paris, _) = list.add(candidate("Paris", 48.85, 2.35))
        XCTAssertEqual(try list.select(paris.id), [])
    }

    func testResolve_byNameIgnoringCaseAndDiacritics() throws {
        var list = LocationList()
        let (zurich, _) = list.add(candidate("Zürich", 47.37, 8.54, country: "CH"))
        XCTAssertEqual(try list.resolve("zurich"), zurich)
        XCTAssertEqual(try list.resolve("zurich-ch"), zurich)
        XCTAssertEqual(try list.resolve("ZURICH-CH"), zurich)
    }

    func testResolve_sharedName_isAmbiguous() {
        var list = LocationList()
        _ = list.add(candidate("Paris", 48.85, 2.35, country: "FR"))
        _ = list.add(candidate("Paris", 33.66, -95.55, country: "US"))
        XCTAssertThrowsError(try list.resolve("Paris")) { error in
            guard case .ambiguous(_, let matches)? = error as? LocationListError else {
                return XCTFail("expected ambiguous, got \(error)")
            }
            XCTAssertEqual(matches.count, 2)
        }
    }

    func testTextFolding_foldsDiacriticsAndLigatures() {
        XCTAssertEqual(TextFolding.fold("  São Paulo "), "sao paulo")
        XCTAssertEqual(TextFolding.fold("Kraków"), "krakow")
        XCTAssertEqual(TextFolding.fold("Straße"), "strasse")
        XCTAssertEqual(TextFolding.fold("Ærøskøbing"), "aeroskobing")
        XCTAssertEqual(TextFolding.slug("Saint-Étienne du Rouvray"), "saint-etienne-du-rouvray")
    }

    func testGeoDistance_acrossAntimeridian() {
        let d = GeoDistance.kilometres(latitude1: 0, longitude1: 179.9, latitude2: 0, longitude2: -179.9)
        XCTAssertEqual(d, 22.24, accuracy: 0.1)
    }
}
