import RainCore
import TestSupport
import XCTest

@testable import RainDaemon

/// raind's options are declared once (`DaemonCommandLine.options`): the
/// parser and `--help` are made from it, and raind(8) must say the same.
final class DaemonCommandLineTests: XCTestCase {
    /// The options raind(8)'s OPTIONS section documents, each as its
    /// spellings and value: `.B \-\-user`, `.BI \-\-socket " PATH"`,
    /// `.BR \-h ", " \-\-help`.
    static func manualOptions() throws -> [String] {
        let page = try TestFile.text(Repository.path("packaging/man/raind.8"))
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex(of: ".SH OPTIONS"), "raind(8) has no OPTIONS section")
        var documented: [String] = []
        var index = start + 1
        while index < lines.count, !lines[index].hasPrefix(".SH") {
            if lines[index] == ".TP", index + 1 < lines.count {
                let term = lines[index + 1]
                documented.append(Self.roffText(term))
            }
            index += 1
        }
        return documented
    }

    /// What a roff font line shows: `.B` joins its words with spaces, the
    /// alternating macros (`.BI`, `.BR`, `.IR`) join them without.
    static func roffText(_ line: String) -> String {
        let macroEnd = line.firstIndex(of: " ") ?? line.endIndex
        let macro = String(line[..<macroEnd])
        var arguments: [String] = []
        var current = ""
        var quoted = false
        for character in line[macroEnd...].dropFirst() {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { arguments.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { arguments.append(current) }
        let text = arguments.joined(separator: macro == ".B" ? " " : "")
        return text.replacingOccurrences(of: "\\-", with: "-")
    }

    func testTheManualPage_documentsExactlyTheDeclaredOptions() throws {
        let declared = DaemonCommandLine.options.map { option in
            option.names.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
        }
        XCTAssertEqual(try Self.manualOptions(), declared, "raind(8)'s OPTIONS and DaemonCommandLine.options differ")
    }

    func testTheUsage_listsEveryDeclaredOptionWithItsHelp() {
        let usage = DaemonCommandLine.usage
        XCTAssertTrue(usage.hasPrefix("Usage: raind [OPTIONS]\n"))
        for option in DaemonCommandLine.options {
            XCTAssertTrue(usage.contains(option.name), option.name)
            XCTAssertTrue(usage.contains(option.help), option.help)
        }
    }

    func testParse_readsEachOption_andRefusesWhatItDoesNotKnow() throws {
        guard
            case .run(let options) = try DaemonCommandLine.parse(
                ["--system", "--socket", "/run/x.sock", "--log-level", "debug"], environment: ["A": "b"])
        else { return XCTFail("not a run") }
        XCTAssertEqual(options.mode, .system)
        XCTAssertEqual(options.socketPath, "/run/x.sock")
        XCTAssertEqual(options.logLevel, .debug)
        XCTAssertEqual(options.environment, ["A": "b"])
        guard
            case .checkConfiguration(let checked) = try DaemonCommandLine.parse(
                ["--check-config", "--system"], environment: [:])
        else { return XCTFail("not a check") }
        XCTAssertEqual(checked.mode, .system, "an option after --check-config still counts")
        guard case .printVersion = try DaemonCommandLine.parse(["--version", "--bogus"], environment: [:]) else {
            return XCTFail("--version is answered as soon as it is read")
        }
        for (arguments, message) in [
            (["--bogus"], "unknown option '--bogus'"), (["--socket"], "--socket needs an absolute path"),
            (["--socket", "relative"], "--socket needs an absolute path"),
            (["--log-level", "loud"], "--log-level needs one of: error, warning, notice, info, debug"),
        ] {
            XCTAssertThrowsError(try DaemonCommandLine.parse(arguments, environment: [:]), "\(arguments)") { error in
                XCTAssertEqual((error as? DaemonCommandLine.UsageError)?.description, message)
            }
        }
    }
}
