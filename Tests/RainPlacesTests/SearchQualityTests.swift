import RainCore
import TestSupport
import XCTest

@testable import RainPlaces

/// The table in search-quality.tsv: for each query, the place a person means
/// must come first.
final class SearchQualityTests: XCTestCase {
    struct Row {
        var line: Int
        var category: String
        var query: String
        var expectedID: Int
        var expectedName: String
    }

    static func loadTable() throws -> [Row] {
        try TestFile.tableRows(Repository.path("Tests/RainPlacesTests/search-quality.tsv")).compactMap {
            line, fields in
            guard fields.count == 4, let id = Int(fields[2]) else { return nil }
            return Row(
                line: line, category: fields[0], query: unescape(fields[1]), expectedID: id, expectedName: fields[3])
        }
    }

    /// `\uXXXX` escapes, so the table can hold decomposed text legibly.
    static func unescape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let first = scalars.first {
            if first == "\\", scalars.count >= 6, scalars.dropFirst().first == "u",
                let value = UInt32(String(String.UnicodeScalarView(scalars.dropFirst(2).prefix(4))), radix: 16),
                let scalar = Unicode.Scalar(value)
            {
                out.append(scalar)
                scalars = scalars.dropFirst(6)
            } else {
                out.append(first)
                scalars = scalars.dropFirst()
            }
        }
        return String(out)
    }

    func testTable_isLargeAndCoversEveryCategory() throws {
        let rows = try Self.loadTable()
        XCTAssertGreaterThanOrEqual(rows.count, 40, "search-quality.tsv must hold at least 40 queries")
        let categories = Set(rows.map(\.category))
        for needed in ["diacritics", "alternate", "region", "country", "ambiguous", "typo"] {
            XCTAssertTrue(categories.contains(needed), "no \(needed) queries in search-quality.tsv")
        }
    }

    func testSearch_firstResultIsThePlaceMeant_forEveryQueryOfTheTable() throws {
        let places = try PlaceTestSupport.openDirectory()
        let rows = try Self.loadTable()
        var failures: [String] = []
        for row in rows {
            let first = places.search(row.query).first
            let id = first.flatMap { PlaceTestSupport.geonamesID($0.candidate) }
            if id != row.expectedID {
                let got = first.map { "\($0.candidate.name), \($0.candidate.countryCode) (\(id ?? -1))" } ?? "nothing"
                failures.append(
                    "line \(row.line) [\(row.category)] \"\(row.query)\": expected \(row.expectedName) (\(row.expectedID)), got \(got)"
                )
            } else if let first, !row.expectedName.hasPrefix(first.candidate.name + ", ") {
                failures.append(
                    "line \(row.line): \(row.expectedID) is named \(first.candidate.name), table says \(row.expectedName)"
                )
            }
        }
        XCTAssertTrue(
            failures.isEmpty, "\(failures.count) of \(rows.count) queries wrong:\n" + failures.joined(separator: "\n"))
    }

    func testSearch_typoQueries_areMarkedAsNearSpellings() throws {
        let places = try PlaceTestSupport.openDirectory()
        for row in try Self.loadTable() where row.category == "typo" {
            XCTAssertEqual(places.search(row.query).first?.kind, .nearSpelling, row.query)
        }
    }

    func testSearch_resultsAreBestFirstAndWithinLimit() throws {
        let places = try PlaceTestSupport.openDirectory()
        for query in ["Springfield", "san", "Paris", "lodnon"] {
            let results = places.search(query, limit: 4)
            XCTAssertLessThanOrEqual(results.count, 4, query)
            XCTAssertFalse(results.isEmpty, query)
            XCTAssertEqual(results.map(\.score), results.map(\.score).sorted(by: >), query)
            let ids = results.compactMap { PlaceTestSupport.geonamesID($0.candidate) }
            XCTAssertEqual(Set(ids).count, ids.count, "a place listed twice for \(query)")
        }
    }

    func testSearch_emptyOrPunctuationOnly_findsNothing() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.search(""), [])
        XCTAssertEqual(places.search("  , ,"), [])
        XCTAssertEqual(places.search("Paris", limit: 0), [])
    }

    func testSearch_candidateCarriesRegionCountryZoneAndPopulation() throws {
        let places = try PlaceTestSupport.openDirectory()
        let portland = try XCTUnwrap(places.search("Portland, OR").first?.candidate)
        XCTAssertEqual(portland.name, "Portland")
        XCTAssertEqual(portland.region, "Oregon")
        XCTAssertEqual(portland.country, "United States")
        XCTAssertEqual(portland.countryCode, "US")
        XCTAssertEqual(portland.timeZone, "America/Los_Angeles")
        XCTAssertGreaterThan(portland.population, 500_000)
        XCTAssertEqual(portland.latitude, 45.52, accuracy: 0.05)
        XCTAssertEqual(portland.longitude, -122.68, accuracy: 0.05)
        XCTAssertEqual(portland.source, .geonames(id: 5746545))
    }

    func testSuggestions_findNearSpellings_fewestEditsFirst() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.suggestions(for: "Zuirch").first?.candidate.name, "Zürich")
        XCTAssertEqual(places.suggestions(for: "Manchestr").first?.candidate.name, "Manchester")
        XCTAssertLessThanOrEqual(places.suggestions(for: "lodnon", limit: 3).count, 3)
        XCTAssertEqual(places.suggestions(for: "xyz"), [], "three letters are too few to guess from")
        XCTAssertEqual(places.suggestions(for: "qqqqqqqqqqqqqq"), [])
    }
}
