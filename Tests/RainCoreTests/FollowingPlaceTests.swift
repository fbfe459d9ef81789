import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The place that follows the machine, as a value: one at most, moved only
/// across towns, its flag kept and validated in the state file.
final class FollowingPlaceTests: XCTestCase {
    func here(_ name: String, _ lat: Double, _ lon: Double, region: String = "Overijssel") -> PlaceCandidate {
        PlaceCandidate(
            name: name, region: region, country: "Netherlands", countryCode: "NL", latitude: lat, longitude: lon,
            timeZone: "Europe/Amsterdam", source: .current(approximate: false))
    }

    func testAddFollowing_savesAFollowingPlace_andSelectsTheFirst() {
        var list = LocationList()
        let (place, added, events) = list.addFollowing(here("Enschede", 52.2215, 6.8937))
        XCTAssertTrue(added)
        XCTAssertTrue(place.isFollowing)
        XCTAssertEqual(list.following, place)
        XCTAssertEqual(events, [.locationAdded(place), .locationSelected(place)])
    }

    func testAddFollowing_again_movesTheFlag_andTheOldPlaceStays() {
        var list = LocationList()
        let (first, _, _) = list.addFollowing(here("Enschede", 52.2215, 6.8937))
        let (second, added, events) = list.addFollowing(here("Zwolle", 52.5125, 6.0944))
        XCTAssertTrue(added)
        var unflagged = first
        unflagged.follows = nil
        XCTAssertEqual(events, [.locationChanged(unflagged), .locationAdded(second)])
        XCTAssertEqual(list.following?.id, second.id)
        XCTAssertEqual(list.locations.filter(\.isFollowing).count, 1)
        XCTAssertEqual(list[first.id]?.isFollowing, false)
    }

    func testAddFollowing_atAPlaceSavedByName_savesANewPlaceBesideIt() {
        var list = LocationList()
        _ = list.add(
            PlaceCandidate(name: "Home", latitude: 52.2215, longitude: 6.8937, source: .coordinates), byName: true)
        let (place, added, _) = list.addFollowing(here("Enschede", 52.2216, 6.8938))
        XCTAssertTrue(added, "the place saved by name would be renamed as the machine travels")
        XCTAssertEqual(list.locations.count, 2)
        XCTAssertEqual(list.following?.id, place.id)
    }

    func testAddFollowing_atTheFollowingPlace_changesNothing() {
        var list = LocationList()
        let (first, _, _) = list.addFollowing(here("Enschede", 52.2215, 6.8937))
        let (again, added, events) = list.addFollowing(here("Enschede", 52.2216, 6.8938))
        XCTAssertFalse(added)
        XCTAssertEqual(again, first)
        XCTAssertEqual(events, [])
    }

    func testMoveFollowing_acrossTowns_renamesAndKeepsTheID_withinATown_doesNothing() {
        var list = LocationList()
        let (place, _, _) = list.addFollowing(here("Enschede", 52.2215, 6.8937))
        XCTAssertEqual(list.moveFollowing(to: here("Enschede", 52.2400, 6.8500)), [], "same town")
        XCTAssertEqual(list.following?.latitude, 52.2215, "a move within the town is not even recorded")
        let events = list.moveFollowing(to: here("Hengelo", 52.2658, 6.7931))
        let moved = list.following
        XCTAssertEqual(moved?.id, place.id)
        XCTAssertEqual(moved?.name, "Hengelo")
        XCTAssertEqual(moved?.latitude, 52.2658)
        XCTAssertEqual(events, moved.map { [.locationChanged($0)] })
        // `moved` was set just above.
        XCTAssertTrue(LocationList.isAnotherTown(here("Hengelo", 0, 0, region: "Gelderland"), than: moved!))
    }

    func testMoveFollowing_withoutAFollowingPlace_doesNothing() {
        var list = LocationList()
        _ = list.add(here("Enschede", 52.2215, 6.8937))
        XCTAssertEqual(list.moveFollowing(to: here("Hengelo", 52.2658, 6.7931)), [])
    }

    func testStateFile_keepsTheFlag_andASecondFollowingPlaceLosesIt() throws {
        var list = LocationList()
        _ = list.addFollowing(here("Enschede", 52.2215, 6.8937))
        _ = list.add(here("Zwolle", 52.5125, 6.0944))
        let state = PersistentState(places: list, settings: Settings(units: .si))
        let read = try PersistentState(bytes: state.bytes)
        XCTAssertEqual(read, state)
        XCTAssertEqual(read.validated().problems, [])
        XCTAssertFalse(String(decoding: state.bytes, as: UTF8.self).contains("\"follows\":null"), "absent, not null")

        var text = String(decoding: state.bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"name\":\"Zwolle\"", with: "\"name\":\"Zwolle\",\"follows\":true")
        let (repaired, problems) = try PersistentState(bytes: Array(text.utf8)).validated()
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems[0].contains("only one place can"), problems[0])
        XCTAssertEqual(repaired.places.locations.filter(\.isFollowing).map(\.name), ["Enschede"])
        XCTAssertEqual(repaired.places.locations.count, 2, "no place is lost")
    }

    func testStateFile_followsFalse_readsAsAbsent() throws {
        var list = LocationList()
        _ = list.add(here("Enschede", 52.2215, 6.8937))
        var text = String(decoding: PersistentState(places: list, settings: Settings(units: .si)).bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"name\":\"Enschede\"", with: "\"name\":\"Enschede\",\"follows\":false")
        let (state, problems) = try PersistentState(bytes: Array(text.utf8)).validated()
        XCTAssertEqual(problems, [])
        XCTAssertNil(state.places.locations[0].follows)
    }
}
