import RainCore
import TestSupport
import XCTest

@testable import RainPlaces

/// The online geocoder's answers are judged by the rules of the embedded
/// data (`PlaceDirectory.resolveOnline`), on answers in the documented shape
/// of Open-Meteo's geocoding API (Tests/Fixtures/SOURCES.md).
final class OnlineResolutionTests: XCTestCase {
    private func answer(_ fixture: String) throws -> [OnlinePlace] {
        try OnlinePlace.parseOpenMeteo(try Fixtures.bytes(fixture))
    }

    func testXyzzyville_answeredWithAContinent_isNotFound_notAntarctica() throws {
        let places = try PlaceTestSupport.openDirectory()
        let found = try answer("openmeteo-geocoding-xyzzyville.json")
        XCTAssertEqual(found.map(\.featureCode), ["CONT"])
        guard case .notFound(let suggestions) = places.resolveOnline("Xyzzyville", answers: found) else {
            return XCTFail("Xyzzyville must not be saved as Antarctica")
        }
        XCTAssertTrue(suggestions.isEmpty, "a continent is no suggestion for a town")
    }

    func testAnswerUnderAnotherName_isNotFound_suggestingThePopulatedPlace() throws {
        let places = try PlaceTestSupport.openDirectory()
        // The recorded answer for Enschede, as if given for another query.
        guard
            case .notFound(let suggestions) = places.resolveOnline(
                "Lonneker", answers: try answer("openmeteo-geocoding-enschede.json"))
        else { return XCTFail("Lonneker is not Enschede") }
        XCTAssertEqual(suggestions.map(\.candidate.name), ["Enschede"], "the airport is no suggestion")
    }

    func testRecordedAnswer_forItsOwnName_isThePopulatedPlace_notTheAirport() throws {
        let places = try PlaceTestSupport.openDirectory()
        let resolution = places.resolveOnline("enschede", answers: try answer("openmeteo-geocoding-enschede.json"))
        guard case .unique(let place) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(place.source, .geocoder(provider: "open-meteo", id: "2756071"))
    }

    func testVillageWithoutPopulation_isUnique_whenNothingElseHasItsName() throws {
        let places = try PlaceTestSupport.openDirectory()
        let resolution = places.resolveOnline("Lönneker", answers: try answer("openmeteo-geocoding-lonneker.json"))
        guard case .unique(let place) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(place.name, "Lonneker")
        XCTAssertEqual(place.population, 0)
        XCTAssertEqual(place.timeZone, "Europe/Amsterdam")
    }

    func testTwoVillagesOfOneName_withoutPopulation_areAmbiguous() throws {
        let places = try PlaceTestSupport.openDirectory()
        let found = try answer("openmeteo-geocoding-oosterend.json")
        guard case .ambiguous(let listed) = places.resolveOnline("Oosterend", answers: found) else {
            return XCTFail("nothing tells the two Oosterends apart")
        }
        XCTAssertEqual(Set(listed.map(\.candidate.region)), ["North Holland", "Friesland"])
        // A region after a comma tells them apart.
        guard case .unique(let place) = places.resolveOnline("Oosterend, Friesland", answers: found) else {
            return XCTFail("Oosterend, Friesland is one place")
        }
        XCTAssertEqual(place.region, "Friesland")
    }

    func testPopulatedPlace_isPreferredOverTheIslandOfTheSameName() throws {
        let places = try PlaceTestSupport.openDirectory()
        let found = try answer("openmeteo-geocoding-marken.json")
        XCTAssertEqual(found.map(\.featureCode), ["ISL", "PPL"])
        guard case .unique(let place) = places.resolveOnline("Marken", answers: found) else {
            return XCTFail("the village is meant")
        }
        XCTAssertEqual(place.source, .geocoder(provider: "open-meteo", id: "2751128"))
    }

    func testClearWinner_isOneRule_byPopulationOrFeatureCode() {
        func place(_ population: Int, _ code: String) -> OnlinePlace {
            OnlinePlace(
                candidate: PlaceCandidate(
                    name: "X", latitude: 0, longitude: 0, population: population,
                    source: .coordinates),
                featureCode: code)
        }
        XCTAssertTrue(ClearWinner.isClear(place(150_000, "PPL").evidence, over: place(10_000, "PPL").evidence))
        XCTAssertFalse(ClearWinner.isClear(place(140_000, "PPL").evidence, over: place(10_000, "PPL").evidence))
        // Without population: a regional seat over a village, not a village over a village.
        XCTAssertTrue(ClearWinner.isClear(place(0, "PPLA").evidence, over: place(0, "PPL").evidence))
        XCTAssertFalse(ClearWinner.isClear(place(0, "PPL").evidence, over: place(0, "PPL").evidence))
    }

    func testParse_recordedEnschedeAnswer_mapsEveryField() throws {
        let candidates = try answer("openmeteo-geocoding-enschede.json").map(\.candidate)
        XCTAssertEqual(candidates.count, 2)
        XCTAssertEqual(candidates[0].name, "Enschede")
        XCTAssertEqual(candidates[0].region, "Overijssel")
        XCTAssertEqual(candidates[0].countryCode, "NL")
        XCTAssertEqual(candidates[0].population, 153655)
        XCTAssertEqual(candidates[0].timeZone, "Europe/Amsterdam")
        XCTAssertEqual(candidates[0].source, .geocoder(provider: "open-meteo", id: "2756071"))
        XCTAssertEqual(candidates[1].population, 0, "a missing population is 0")
        XCTAssertThrowsError(try OnlinePlace.parseOpenMeteo(Array("<html>".utf8)))
    }

    func testParse_errorObject_throwsWithTheReason() {
        XCTAssertThrowsError(
            try OnlinePlace.parseOpenMeteo(
                Array(#"{"error": true, "reason": "Parameter count must be between 1 and 100."}"#.utf8))
        ) {
            XCTAssertTrue("\($0)".contains("Parameter count"), "\($0)")
        }
        XCTAssertEqual(try OnlinePlace.parseOpenMeteo(Array(#"{"generationtime_ms": 0.2}"#.utf8)), [])
    }
}
