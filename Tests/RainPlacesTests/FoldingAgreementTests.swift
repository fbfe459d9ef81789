import RainCore
import TestSupport
import XCTest

@testable import RainPlaces

/// The generator (Python) and the daemon (Swift) must fold names alike, or
/// a name in the data could never be found by typing it. These tests fold
/// every name of the GeoNames source with the daemon's code and look it up.
final class FoldingAgreementTests: XCTestCase {
    func testEveryNameOfTheSource_findsItsPlace() throws {
        let source = try PlaceTestSupport.sourceDirectory()
        let text: String
        do {
            text = try TestFile.text(source + "/cities15000.tsv")
        } catch {
            XCTFail("RAIND_GEONAMES_DIR: \(error)")
            return
        }
        let places = try PlaceTestSupport.openDirectory()
        var checked = 0
        var failures: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 9, let id = Int(fields[0]) else {
                failures.append("unreadable line: \(line.prefix(60))")
                continue
            }
            // Every 7th place keeps the test quick; names of all scripts still occur.
            guard id % 7 == 0 else { continue }
            let names = [String(fields[1])] + fields[8].split(separator: ";").map(String.init)
            for name in names where !PlaceKey.make(name, file: places.file).isEmpty {
                checked += 1
                let found = places.search(name, limit: 200).contains {
                    PlaceTestSupport.geonamesID($0.candidate) == id && $0.kind != .nearSpelling
                }
                if !found { failures.append("\(id) \(name)") }
            }
        }
        XCTAssertGreaterThan(checked, 20_000)
        XCTAssertTrue(
            failures.isEmpty, "\(failures.count) names not found:\n" + failures.prefix(20).joined(separator: "\n"))
    }

    func testFoldTable_agreesWithTextFolding_whereTextFoldingFoldsToASCII() throws {
        let places = try PlaceTestSupport.openDirectory()
        var disagreements: [String] = []
        for scalar in "àéîõüçñßæœþøłđÅÉÎÕÜÇÑŁŠŽĞİıș’ʻ".unicodeScalars {
            let folded = TextFolding.fold(String(scalar)).filter { $0 != "'" }
            guard folded.allSatisfy(\.isASCII) else { continue }
            let table = String(decoding: PlaceKey.make(String(scalar), file: places.file), as: UTF8.self)
            if table != folded { disagreements.append("\(scalar): table \(table), TextFolding \(folded)") }
        }
        XCTAssertTrue(disagreements.isEmpty, disagreements.joined(separator: "\n"))
    }

    func testKeys_foldCaseDiacriticsAndPunctuation() throws {
        let places = try PlaceTestSupport.openDirectory()
        func key(_ text: String) -> String { String(decoding: PlaceKey.make(text, file: places.file), as: UTF8.self) }
        XCTAssertEqual(key("ZÜRICH"), "zurich")
        XCTAssertEqual(key("Zu\u{308}rich"), "zurich")
        XCTAssertEqual(key("  Saint-Étienne "), "saint etienne")
        XCTAssertEqual(key("Xi’an"), "xian")
        XCTAssertEqual(key("St. Louis"), "st louis")
        XCTAssertEqual(key("Łódź"), "lodz")
        XCTAssertEqual(key("Ḩalab"), "halab")
    }
}
