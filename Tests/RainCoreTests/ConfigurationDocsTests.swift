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

    /// Keys whose default is no one value but depends on the provider or
    /// the instance; the manual and the shipped file describe it.
    static let describedDefaults: Set<String> = [
        "[Provider] BaseURL=", "[Socket] Path=", "[Refresh] DailyBudget=", "[Refresh] MonthlyBudget=",
        "[Nowcast] IntervalMinutes=", "[Air] BaseURL=", "[Alerts] BaseURL=", "[Observations] BaseURL=",
        "[Accuracy] BaseURL=",
    ]
    /// Keys that have no default: nothing is sent, or the region decides.
    static let withoutDefault: Set<String> = ["[Provider] Providers=", "[Provider] Contact=", "[Provider] ApiKeyFile="]

    /// The default a manual entry names: `default 30`, `default \fByes\fR`,
    /// `Default: \fBno\fR`, `\fBauto\fR (default)`; nil when it names none.
    static func manualDefault(_ entry: String) -> String? {
        let text = entry.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\n", with: " ")
        let patterns = [
            #"\\fB([^\\\s]+)\\fR\s*\(default"#, #"[Dd]efault:?\s+\\f[BI]([^\\\s]+)\\fR"#,
            #"[Dd]efault:?\s+(\d+)\b(?!\s*for)"#,
        ]
        for pattern in patterns {
            let expression = try? NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            if let match = expression?.firstMatch(in: text, range: range),
                let value = Range(match.range(at: 1), in: text)
            {
                return String(text[value])
            }
        }
        return nil
    }

    /// Issue 32, point 5: raind.conf(5) lists every key the parser takes,
    /// under its section, and nothing else (it had no [Alerts] section).
    func testTheManual_listsEveryParserKeyUnderItsSection_andNothingElse() throws {
        let listed = Set(try Self.manualEntries().keys)
        let parsed = Set(Configuration.keys.map { "[\($0.section)] \($0.name)=" })
        XCTAssertEqual(listed.subtracting(parsed), [], "in raind.conf(5) but unknown to the parser")
        XCTAssertEqual(parsed.subtracting(listed), [], "taken by the parser but not in raind.conf(5)")
    }

    /// Each default raind.conf(5) names is the parser's: applied, it changes nothing.
    func testTheManualsDefaults_areTheParsersDefaults() throws {
        let manual = try Self.manualEntries()
        var checked = 0
        for spec in Configuration.keys {
            let key = "[\(spec.section)] \(spec.name)="
            guard let entry = manual[key], !Self.withoutDefault.contains(key) else { continue }
            if Self.describedDefaults.contains(key) {
                XCTAssertTrue(entry.lowercased().contains("default"), "raind.conf(5) gives no default for \(key)")
                continue
            }
            guard let value = Self.manualDefault(entry) else {
                XCTFail("raind.conf(5) names no default for \(key): \(entry)")
                continue
            }
            var documented = Configuration()
            XCTAssertTrue(spec.apply(&documented, value), "\(key)\(value) is not valid")
            XCTAssertEqual(documented, Configuration(), "raind.conf(5) gives \(key)\(value) as the default")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 22, "every key with one default")
    }

    /// The shipped /etc/raind/raind.conf lists every key under its section,
    /// commented out with its default (empty where the default depends on
    /// the provider or the instance, or there is none), and nothing else.
    func testTheShippedFile_listsEveryKeyWithTheParsersDefault() throws {
        let text = try TestFile.text(Repository.path("packaging/conf/raind.conf"))
        var section: String?
        var shipped: [String: String] = [:]
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("["), line.hasSuffix("]") { section = String(line.dropFirst().dropLast()) }
            guard let section, line.hasPrefix("#"), let equals = line.firstIndex(of: "="),
                line.dropFirst().prefix(while: { $0.isLetter }).count
                    == line.distance(from: line.index(after: line.startIndex), to: equals),
                line.dropFirst().first?.isUppercase == true
            else { continue }
            shipped["[\(section)] \(line[line.index(after: line.startIndex)..<equals])="] = String(
                line[line.index(after: equals)...])
        }
        let parsed = Set(Configuration.keys.map { "[\($0.section)] \($0.name)=" })
        XCTAssertEqual(Set(shipped.keys).subtracting(parsed), [], "in raind.conf but unknown to the parser")
        XCTAssertEqual(parsed.subtracting(shipped.keys), [], "taken by the parser but not in the shipped raind.conf")
        for spec in Configuration.keys {
            let key = "[\(spec.section)] \(spec.name)="
            guard let value = shipped[key], !value.isEmpty, !Self.describedDefaults.contains(key) else { continue }
            XCTAssertFalse(Self.withoutDefault.contains(key), "\(key) has no default, yet raind.conf shows \(value)")
            var documented = Configuration()
            XCTAssertTrue(spec.apply(&documented, value), "\(key)\(value) is not valid")
            XCTAssertEqual(documented, Configuration(), "raind.conf shows \(key)\(value) as the default")
        }
    }
}
