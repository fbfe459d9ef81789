import RainCore
import XCTest

@testable import RainPlaces

final class ResolutionTests: XCTestCase {
    private func uniqueID(_ resolution: PlaceResolution) -> Int? {
        if case .unique(let place) = resolution { return PlaceTestSupport.geonamesID(place) }
        return nil
    }

    func testResolve_paris_isParisFrance_becauseItDwarfsParisTexas() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(uniqueID(places.resolve("Paris")), 2988507)
        XCTAssertEqual(uniqueID(places.resolve("paris")), 2988507)
    }

    func testResolve_london_isLondonEngland() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(uniqueID(places.resolve("London")), 2643743)
    }

    func testResolve_springfield_isAmbiguous_withEveryUSSpringfield() throws {
        let places = try PlaceTestSupport.openDirectory()
        guard case .ambiguous(let matches) = places.resolve("Springfield") else {
            return XCTFail("Springfield should be ambiguous, got \(places.resolve("Springfield"))")
        }
        let regions = Set(matches.filter { $0.candidate.name == "Springfield" }.map(\.candidate.region))
        XCTAssertTrue(
            regions.isSuperset(of: ["Missouri", "Massachusetts", "Illinois", "Oregon", "Ohio"]), "\(regions)")
        XCTAssertEqual(matches.first?.candidate.region, "Missouri", "most populous first")
    }

    func testResolve_portland_isAmbiguous_becauseOregonIsOnlyTenTimesMaine() throws {
        let places = try PlaceTestSupport.openDirectory()
        guard case .ambiguous(let matches) = places.resolve("Portland") else {
            return XCTFail("Portland should be ambiguous")
        }
        XCTAssertEqual(Array(matches.prefix(2).map(\.candidate.region)), ["Oregon", "Maine"])
    }

    /// GeoNames keeps "Portland" among the old names of Sandusky, Ohio and
    /// Blue Island, Illinois; beside places called Portland today they are
    /// no candidates. An other name still finds a place more populous than
    /// every place of that name ("Munich" is München).
    func testSearch_portland_offersOnlyPlacesCalledPortland() throws {
        let places = try PlaceTestSupport.openDirectory()
        let names = Set(places.search("Portland").map(\.candidate.name))
        XCTAssertEqual(
            names, ["Portland"], "\(places.search("Portland").map { "\($0.candidate.name), \($0.candidate.region)" })")
        XCTAssertEqual(places.search("Munich").first?.candidate.name, "Munich")
        XCTAssertEqual(places.search("Munich").first?.candidate.countryCode, "DE")
    }

    func testResolve_withRegionOrCountry_isUnique() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(uniqueID(places.resolve("Portland, ME")), 4975802)
        XCTAssertEqual(uniqueID(places.resolve("Portland, Oregon")), 5746545)
        XCTAssertEqual(uniqueID(places.resolve("Springfield, IL")), 4250542)
        XCTAssertEqual(uniqueID(places.resolve("Paris, US-TX")), 4717560)
        XCTAssertEqual(uniqueID(places.resolve("London, Canada")), 6058560)
    }

    func testResolve_geonamesID_isUnique() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(uniqueID(places.resolve("4717560")), 4717560)
        XCTAssertEqual(uniqueID(places.resolve("geonames:4717560")), 4717560)
        XCTAssertEqual(places.place(geonameID: 4717560)?.region, "Texas")
        XCTAssertNil(places.place(geonameID: 1))
    }

    func testResolve_typo_isNotFound_withTheIntendedPlaceSuggested() throws {
        let places = try PlaceTestSupport.openDirectory()
        guard case .notFound(let suggestions) = places.resolve("Zurihc") else {
            return XCTFail("a misspelling must not be added without asking")
        }
        XCTAssertEqual(suggestions.first?.candidate.name, "Zürich")
    }

    func testResolve_nonsense_isNotFound_withoutSuggestions() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.resolve("qqqqqqqqqqqq"), .notFound(suggestions: []))
        XCTAssertEqual(places.resolve(""), .notFound(suggestions: []))
    }

    func testResolve_qualifierThatRulesOutEverything_suggestsThePlaceElsewhere() throws {
        let places = try PlaceTestSupport.openDirectory()
        guard case .notFound(let suggestions) = places.resolve("Paris, Germany") else {
            return XCTFail("there is no Paris in Germany")
        }
        XCTAssertEqual(suggestions.first.flatMap { PlaceTestSupport.geonamesID($0.candidate) }, 2988507)
    }

    func testResolve_parsi_anOtherNameOfBarshiOneSwapFromParis_isAmbiguousListingBoth() throws {
        let places = try PlaceTestSupport.openDirectory()
        guard case .ambiguous(let listed) = places.resolve("Parsi") else {
            return XCTFail("Parsi must not be saved as Barshi without asking: \(places.resolve("Parsi"))")
        }
        let ids = listed.compactMap { PlaceTestSupport.geonamesID($0.candidate) }
        XCTAssertTrue(ids.contains(1_276_856), "Barshi, whose other name is Parsi")
        XCTAssertTrue(ids.contains(2_988_507), "Paris, one swap away")
    }

    func testResolve_otherNamesOfBigPlaces_areNotMadeAmbiguousByNearSpellings() throws {
        let places = try PlaceTestSupport.openDirectory()
        for row in try SearchQualityTests.loadTable() where row.category == "alternate" {
            switch places.resolve(row.query) {
            case .unique(let place):
                XCTAssertEqual(PlaceTestSupport.geonamesID(place), row.expectedID, "line \(row.line): \(row.query)")
            case .ambiguous(let listed):
                // "NYC" is also an other name of Manhattan: ambiguous by other names alone.
                XCTAssertFalse(listed.contains { $0.kind == .nearSpelling }, "line \(row.line): \(row.query)")
                XCTAssertEqual(listed.first.flatMap { PlaceTestSupport.geonamesID($0.candidate) }, row.expectedID)
            case .notFound:
                XCTFail("line \(row.line): \(row.query) not found")
            }
        }
    }

    func testResolve_aTypoAlone_isNeverUnique() throws {
        let places = try PlaceTestSupport.openDirectory()
        for query in ["Pariss", "Lodnon", "sprngfield"] {
            if case .unique(let place) = places.resolve(query) {
                XCTFail("\(query) saved \(place.name) without asking")
            }
        }
    }
}
