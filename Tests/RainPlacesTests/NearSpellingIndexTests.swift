import RainCore
import XCTest

@testable import RainPlaces

/// The near-spelling index must find exactly the keys a scan of every key
/// finds, so the index changes speed, never results.
final class NearSpellingIndexTests: XCTestCase {
    /// Every distinct key within `limit` edits of `query`, by measuring each one.
    private func scan(_ file: PlaceFile, _ query: [UInt8], limit: Int) -> [Int: Int] {
        let distance = EditDistance()
        distance.prepare(query, limit: limit)
        var found: [Int: Int] = [:]
        var lastOffset = -1
        for index in 0..<file.names.count where file.nameKeyOffset(index) != lastOffset {
            lastOffset = file.nameKeyOffset(index)
            if let edits = distance.distance(to: file.nameKey(index)) { found[index] = edits }
        }
        return found
    }

    private func indexed(_ file: PlaceFile, _ query: [UInt8], limit: Int) -> [Int: Int] {
        let distance = EditDistance()
        distance.prepare(query, limit: limit)
        var found: [Int: Int] = [:]
        for match in NearSpellingIndex(file: file).matches(query, limit: limit, distance: distance) {
            found[match.name] = match.edits
        }
        return found
    }

    func testIndex_findsWhatAScanFinds_forRandomTyposOfEveryKind() throws {
        let places = try PlaceTestSupport.openDirectory()
        let file = places.file
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var checked = 0
        for round in 0..<150 {
            var key = Array(file.nameKey(next(file.names.count)))
            // One edit, or two when the key is long enough for the 2-edit limit.
            for _ in 0..<(round % 2 == 0 ? 1 : 2) where key.count > 3 {
                let at = next(key.count - 1)
                switch next(4) {
                case 0: key.remove(at: at)
                case 1: key.insert(UInt8(ascii: "a") + UInt8(next(26)), at: at)
                case 2: key[at] = UInt8(ascii: "a") + UInt8(next(26))
                default: key.swapAt(at, at + 1)
                }
            }
            guard let limit = PlaceDirectory.nearSpellingLimit(length: key.count) else { continue }
            let expected = scan(file, key, limit: limit)
            XCTAssertEqual(
                indexed(file, key, limit: limit), expected,
                "near spellings of \(String(decoding: key, as: UTF8.self)) (limit \(limit))")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
    }

    func testIndex_findsSwapsAtEveryPosition_ofALongName() throws {
        let places = try PlaceTestSupport.openDirectory()
        let name = Array("philadelphia".utf8)
        for at in 0..<name.count - 1 {
            var typo = name
            typo.swapAt(at, at + 1)
            let found = places.suggestions(for: String(decoding: typo, as: UTF8.self))
            XCTAssertEqual(
                found.first.flatMap { PlaceTestSupport.geonamesID($0.candidate) }, 4_560_349,
                "\(String(decoding: typo, as: UTF8.self)) should suggest Philadelphia")
        }
    }

    func testSuggestions_forTheIssueExamples_findTheObviousPlace() throws {
        let places = try PlaceTestSupport.openDirectory()
        let paris = places.suggestions(for: "pariss").first?.candidate
        XCTAssertEqual(paris.flatMap(PlaceTestSupport.geonamesID), 2_988_507)
        let springfield = places.suggestions(for: "sprngfield").map(\.candidate.name)
        XCTAssertEqual(springfield.first, "Springfield")
    }

    func testSuggestions_forAQueryLongerThanAnyName_findNothingAndDoNotTrap() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.suggestions(for: String(repeating: "東京", count: 100)), [])
        XCTAssertEqual(places.suggestions(for: String(repeating: "a", count: 300)), [])
        if case .unique = places.resolve(String(repeating: "東", count: 200)) { XCTFail("a long query names nothing") }
    }
}
