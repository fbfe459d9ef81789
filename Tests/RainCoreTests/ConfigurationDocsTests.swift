import Foundation
import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// docs/CONFIGURATION.md follows the parser's key table: every
/// key the parser takes is documented under its section, with its default,
/// and nothing documented is unknown to the parser.
final class ConfigurationDocsTests: XCTestCase {
    /// The key table of docs/CONFIGURATION.md: section, key, default and accepted-values columns.
    static func documentedKeys() throws -> [(section: String, key: String, defaultText: String, accepted: String)] {
        let text = try TestFile.text(Repository.path("docs/CONFIGURATION.md"))
        var section: String?
        var keys: [(String, String, String, String)] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("### [") { section = String(line.dropFirst(5).prefix { $0 != "]" }) }
            guard let section, line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "=") else { continue }
            let key = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            let columns = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            keys.append((section, key, columns.count > 1 ? columns[1] : "", columns.count > 2 ? columns[2] : ""))
        }
        return keys
    }

    /// The text of each key's entry in raind.conf(5), by "[Section] Key=":
    /// the lines after its `.BI Key=` up to the next `.TP` or `.SH`.
    static func manualEntries() throws -> [String: String] {
        let text = try TestFile.text(Repository.path("packaging/man/raind.conf.5"))
        var entries: [String: String] = [:]
        var section: String?
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix(".SH") {
                section = line.hasPrefix(".SH [") ? String(line.dropFirst(5).prefix { $0 != "]" }) : nil
                current = nil
            } else if line.hasPrefix(".TP") {
                current = nil
            } else if line.hasPrefix(".BI "), let section, let end = line.firstIndex(of: "=") {
                current = "[\(section)] \(line[line.index(line.startIndex, offsetBy: 4)..<end])="
                entries[current!] = ""
            } else if let key = current {
                entries[key, default: ""] += line + "\n"
            }
        }
        return entries
    }

    func testEveryParserKey_isDocumentedUnderItsSection_andNothingElse() throws {
        let documented = Set(try Self.documentedKeys().map { "[\($0.section)] \($0.key)=" })
        let parsed = Set(Configuration.keys.map { "[\($0.section)] \($0.name)=" })
        XCTAssertEqual(documented.subtracting(parsed), [], "documented but unknown to the parser")
        XCTAssertEqual(parsed.subtracting(documented), [], "taken by the parser but not documented")
    }

    /// A numeric default written in the table is the parser's default.
    func testDocumentedNumericDefaults_areTheParsersDefaults() throws {
        for (section, key, defaultText, _) in try Self.documentedKeys() {
            guard defaultText.hasPrefix("`"), let number = Int(defaultText.dropFirst().dropLast()),
                let spec = Configuration.keys.first(where: { $0.section == section && $0.name == key })
            else { continue }
            // The default applies when the key is reset; apply the documented number and compare.
            var documented = Configuration()
            XCTAssertTrue(spec.apply(&documented, String(number)), "[\(section)] \(key)=\(number)")
            XCTAssertEqual(documented, Configuration(), "[\(section)] \(key)= documents default \(number)")
        }
    }

    /// The range of each whole-number key is written once, in the parser's key
    /// table (its error message is derived from it); the documentation and the
    /// manual give the same range.
    func testDocumentedRanges_areTheParsersRanges() throws {
        let documented = try Self.documentedKeys()
        let manual = try Self.manualEntries()
        var checked = 0
        for spec in Configuration.keys {
            guard let range = spec.range else { continue }
            let key = "[\(spec.section)] \(spec.name)="
            let accepted = documented.first { $0.section == spec.section && $0.key == spec.name }?.accepted
            XCTAssertTrue(
                accepted?.hasSuffix(", \(range.lowerBound)–\(range.upperBound)") == true,
                "\(key) is documented as '\(accepted ?? "nothing")', the parser takes \(range)")
            let entry = manual[key] ?? ""
            XCTAssertTrue(
                entry.contains("\(range.lowerBound) to \(range.upperBound)"),
                "raind.conf(5) gives \(key) as '\(entry)', the parser takes \(range)")
            XCTAssertTrue(spec.expected.hasSuffix("from \(range.lowerBound) to \(range.upperBound)"), spec.expected)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 11, "the whole-number keys of the key table")
    }
}
