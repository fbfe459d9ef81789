import Foundation
import XCTest

@testable import RainCore

/// docs/CONFIGURATION.md follows the parser's key table: every
/// key the parser takes is documented under its section, with its default,
/// and nothing documented is unknown to the parser.
final class ConfigurationDocsTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The key table of docs/CONFIGURATION.md: section, key, default column.
    static func documentedKeys() throws -> [(section: String, key: String, defaultText: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/CONFIGURATION.md"), encoding: .utf8)
        var section: String?
        var keys: [(String, String, String)] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("### [") { section = String(line.dropFirst(5).prefix { $0 != "]" }) }
            guard let section, line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "=") else { continue }
            let key = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            let columns = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            keys.append((section, key, columns.count > 1 ? columns[1] : ""))
        }
        return keys
    }

    func testEveryParserKey_isDocumentedUnderItsSection_andNothingElse() throws {
        let documented = Set(try Self.documentedKeys().map { "[\($0.section)] \($0.key)=" })
        let parsed = Set(Configuration.keys.map { "[\($0.section)] \($0.name)=" })
        XCTAssertEqual(documented.subtracting(parsed), [], "documented but unknown to the parser")
        XCTAssertEqual(parsed.subtracting(documented), [], "taken by the parser but not documented")
    }

    /// A numeric default written in the table is the parser's default.
    func testDocumentedNumericDefaults_areTheParsersDefaults() throws {
        for (section, key, defaultText) in try Self.documentedKeys() {
            guard defaultText.hasPrefix("`"), let number = Int(defaultText.dropFirst().dropLast()),
                let spec = Configuration.keys.first(where: { $0.section == section && $0.name == key })
            else { continue }
            // The default applies when the key is reset; apply the documented number and compare.
            var documented = Configuration()
            XCTAssertTrue(spec.apply(&documented, String(number)), "[\(section)] \(key)=\(number)")
            XCTAssertEqual(documented, Configuration(), "[\(section)] \(key)= documents default \(number)")
        }
    }
}
