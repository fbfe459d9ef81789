import Foundation
import XCTest

@testable import RainCore

/// The byte-level paths that keep `raindctl status` short (docs/PERFORMANCE.md)
/// give what the character-level ones give, and the placeholder filling reads
/// the template once.
final class TextFastPathTests: XCTestCase {
    func testFill_readsTheTemplateOnce_soAValueIsNeverReadAsAPlaceholder() {
        // Filled one placeholder after another, the name brought "{text}" in and it was filled too.
        XCTAssertEqual(tr("{name}: {text}", ["name": "{text}", "text": "ok"]), "{text}: ok")
        XCTAssertEqual(trn("{count} day", "{count} days", 2), "2 days")
        let filled = Localization.fill("{a}{b} {unknown} {a {b}}") { name in
            Localization.value(of: name, in: ["a": "1", "b": "{a}"])
        }
        XCTAssertEqual(filled, "1{a} {unknown} {a {a}}")
        XCTAssertEqual(Localization.fill("no braces") { _ in "x" }, "no braces")
        XCTAssertEqual(Localization.fill("{only unknown}") { _ in nil }, "{only unknown}")
        XCTAssertEqual(Localization.fill("Zürich {x} – {x}") { _ in "ö" }, "Zürich ö – ö")
    }

    func testControlCharacters_foundOnTheBytes_asOnTheScalars() {
        XCTAssertFalse("Portland, Oregon (portland-us)".containsControlCharacters)
        XCTAssertTrue("tab\there".containsControlCharacters)
        XCTAssertTrue("del\u{7F}".containsControlCharacters)
        XCTAssertTrue("zero\u{200B}width".containsControlCharacters)
        XCTAssertFalse("Zürich – 5 °C".containsControlCharacters)
        let wrapped = "Providers:      open-meteo: ok\n                seattle-us"
        XCTAssertEqual(wrapped.strippingControlCharacters(keepingLineBreaks: true), wrapped)
        XCTAssertEqual(wrapped.strippingControlCharacters(), "Providers:      open-meteo: ok                seattle-us")
        XCTAssertEqual("a\rb\u{1B}[2Jc".strippingControlCharacters(keepingLineBreaks: true), "ab[2Jc")
    }

    func testBrief_isTheFirstClause_inASCIIAsInOtherScripts() {
        XCTAssertEqual(ForecastPresenter.brief("metar: HTTP 404; the station list"), "metar: HTTP 404")
        XCTAssertEqual(ForecastPresenter.brief("  first line \r\nsecond"), "first line")
        XCTAssertEqual(ForecastPresenter.brief("line\u{0B}tab"), "line")
        XCTAssertEqual(ForecastPresenter.brief("délai dépassé；encore"), "délai dépassé")
        XCTAssertEqual(ForecastPresenter.brief("a\u{2028}b"), "a")
        let long = String(repeating: "word ", count: 20)
        XCTAssertEqual(ForecastPresenter.brief(long), String(long.prefix(59)) + "…")
    }

    func testColumns_ofAString_asOfItsCharacters() {
        XCTAssertEqual(DisplayWidth.columns("status"), 6)
        XCTAssertEqual(DisplayWidth.columns("\u{1B}[1mbold\u{1B}[0m"), 4)
        XCTAssertEqual(DisplayWidth.columns("東京 5 °C"), 9)
        XCTAssertEqual(DisplayWidth.columns("東京 5 °C"[...]), 9)
    }

    /// A line wraps at the same places read a byte a character (ASCII) as
    /// read a character at a time: one letter made "é" (a column either
    /// way) moves nothing; escapes take no room in both.
    func testWrap_ofASCII_asOfOtherText() {
        let row = "Alert pace:     boston-us, chicago-us, denver-us, houston-us, las-vegas-us, miami-us: every 5 min"
        let ascii = LineWrap.wrap(row)
        XCTAssertEqual(
            ascii,
            "Alert pace:     boston-us, chicago-us, denver-us, houston-us, las-vegas-us,\n"
                + "                miami-us: every 5 min")
        XCTAssertEqual(
            LineWrap.wrap(row.replacingOccurrences(of: "houston", with: "houstén")),
            ascii.replacingOccurrences(of: "houston", with: "houstén"))
        let coloured = "Summary: " + String(repeating: "\u{1B}[1mword\u{1B}[0m ", count: 16)
        let wrapped = LineWrap.wrap(coloured, width: 40)
        XCTAssertEqual(
            LineWrap.wrap(coloured.replacingOccurrences(of: "Summary", with: "Sümmary"), width: 40),
            wrapped.replacingOccurrences(of: "Summary", with: "Sümmary"))
        XCTAssertEqual(wrapped.split(separator: "\n").map { DisplayWidth.columns($0) }, [38, 38, 29])
    }

    func testCatalogueDirectory_besideTheExecutable_orInTheCheckout() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("raind-beside-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let installed = root + "/usr/share/locale/de/LC_MESSAGES"
        try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(atPath: installed + "/\(Localization.domain).mo", contents: Data()))
        XCTAssertEqual(Localization.directoryBeside(root + "/usr/bin/raindctl"), root + "/usr/share/locale")

        let checkout = root + "/checkout"
        let built = checkout + "/.build/locale/de/LC_MESSAGES"
        try FileManager.default.createDirectory(atPath: built, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: checkout + "/.build/x86_64-unknown-linux-gnu/release", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: checkout + "/Package.swift", contents: Data()))
        XCTAssertTrue(FileManager.default.createFile(atPath: built + "/\(Localization.domain).mo", contents: Data()))
        XCTAssertEqual(
            Localization.directoryBeside(checkout + "/.build/x86_64-unknown-linux-gnu/release/raindctl"),
            checkout + "/.build/locale")

        XCTAssertNil(Localization.directoryBeside("raindctl"))
        XCTAssertNil(Localization.directoryBeside("/raindctl"))
        XCTAssertNil(Localization.directoryBeside(root + "/elsewhere/bin/raindctl"))
    }
}
