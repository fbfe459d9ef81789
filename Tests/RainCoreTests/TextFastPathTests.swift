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

    /// Multi-line text with a character past ASCII (a status row wrapped
    /// around "…") keeps its line breaks and loses only what a scalar at a
    /// time would drop.
    func testControlCharacters_keptLineBreaks_inTextPastASCII() {
        func reference(_ text: String, keepingLineBreaks: Bool) -> String {
            String(
                String.UnicodeScalarView(
                    text.unicodeScalars.filter {
                        !String.isControl($0) || (keepingLineBreaks && ($0 == "\n" || $0 == "\t"))
                    }))
        }
        let texts = [
            "Stations:       paris-fr: none (metar: could not resolve the host of\n                https://aviationweathe…)",
            "Ж\tтаб\nстрока",
            "a…\u{1B}[2J\nb\u{2028}c\u{85}d",
            "東京\r\n大阪\u{200B}",
            "",
        ]
        for text in texts {
            for keeping in [true, false] {
                XCTAssertEqual(
                    text.strippingControlCharacters(keepingLineBreaks: keeping),
                    reference(text, keepingLineBreaks: keeping), text)
            }
        }
        XCTAssertEqual(texts[0].strippingControlCharacters(keepingLineBreaks: true), texts[0])
    }

    /// The start of a text that fits in a number of columns, cut on the
    /// bytes (ASCII), the scalars (accents, "…") or the characters (wide,
    /// combining), is what adding a character at a time up to the limit
    /// keeps (the code it replaced).
    func testPrefix_fittingColumns_asACharacterAtATime() {
        func reference(_ text: String, columns limit: Int) -> String {
            var cut = ""
            for character in text {
                guard DisplayWidth.columns(cut) + DisplayWidth.columns(of: character) <= limit else { break }
                cut.append(character)
            }
            return cut
        }
        let texts = [
            "could not resolve the host of https://aviationweather.gov/api/data/metar",
            "délai dépassé pour https://feeds.meteoalarm.org/… – “réessai” dans 5 min",
            "東京の気象台: 警報は読めませんでした（タイムアウト）",
            "e\u{301}te\u{301} a\u{301} Paris",
            "",
        ]
        for text in texts {
            for limit in 0...(DisplayWidth.columns(text) + 2) {
                XCTAssertEqual(String(DisplayWidth.prefix(text, columns: limit)), reference(text, columns: limit), text)
            }
        }
        XCTAssertEqual(DisplayWidth.prefix("abc", columns: -1), "")
        // A colour escape takes no columns: the one that ends the bold is kept with the word.
        XCTAssertEqual(DisplayWidth.prefix("\u{1B}[1mbold\u{1B}[0m and plain", columns: 4), "\u{1B}[1mbold\u{1B}[0m")
        XCTAssertEqual(DisplayWidth.prefix("\u{1B}[1mbold\u{1B}[0m and plain", columns: 6), "\u{1B}[1mbold\u{1B}[0m a")
        XCTAssertEqual(DisplayWidth.fitting("short", columns: 5), "short")
        XCTAssertEqual(DisplayWidth.fitting("shorts", columns: 5), "shor…")
        // A cut before a wide character that would pass the limit, not through it.
        XCTAssertEqual(DisplayWidth.prefix("a東京", columns: 2), "a")
        let long = String(repeating: "délai ", count: 20)
        XCTAssertEqual(ForecastPresenter.brief(long), String(long.prefix(59)) + "…")
        let wide = String(repeating: "東京", count: 20)
        XCTAssertEqual(ForecastPresenter.brief(wide), String(wide.prefix(29)) + "…")
    }

    func testSpaces_asRepeatedSpaces() {
        for count in 0...40 {
            XCTAssertEqual(String.spaces(count), String(repeating: " ", count: count))
        }
        XCTAssertEqual(String.spaces(-3), "")
        // `String.init` passed as a function is still the number's.
        XCTAssertEqual(Optional(120).map(String.init), "120")
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

    /// Every scalar `isOwnCharacter` takes is a character of its own beside
    /// any other of them, before or after, and a column wide, as the
    /// character-level path counts it.
    func testOwnCharacters_areEachACharacterOfOneColumn() {
        let taken = (UInt32(0)...0x2FFF).compactMap(Unicode.Scalar.init).filter(DisplayWidth.isOwnCharacter)
        XCTAssertGreaterThan(taken.count, 1_300)
        let neighbours: [Unicode.Scalar] = ["a", " ", "\u{1B}", "\u{7F}", "é", "…", "Ж", "ω", "\u{2030}", "™"]
        XCTAssertTrue(neighbours.allSatisfy(DisplayWidth.isOwnCharacter))
        for scalar in taken {
            for neighbour in neighbours {
                var pair = String.UnicodeScalarView()
                pair.append(scalar)
                pair.append(neighbour)
                XCTAssertEqual(String(pair).count, 2, "U+\(String(scalar.value, radix: 16)) before a neighbour")
                pair = String.UnicodeScalarView([neighbour, scalar])
                XCTAssertEqual(String(pair).count, 2, "U+\(String(scalar.value, radix: 16)) after a neighbour")
            }
            XCTAssertEqual(DisplayWidth.columns(of: Character(scalar)), 1, "U+\(String(scalar.value, radix: 16))")
        }
        XCTAssertFalse(DisplayWidth.isOwnCharacter("\r"))
        XCTAssertFalse(DisplayWidth.isOwnCharacter("\u{301}"))
        XCTAssertFalse(DisplayWidth.isOwnCharacter("\u{200D}"))
        XCTAssertFalse(DisplayWidth.isOwnCharacter("東"))
    }

    /// Decoded on the bytes, a text is found made of characters of their own
    /// exactly where its scalars each are one: every scalar of one, two,
    /// three and four bytes up to U+2FFF and a few past it, alone and
    /// between others.
    func testOwnCharacters_readOnTheBytes_asOnTheScalars() {
        let values = (UInt32(0)...0x2FFF).map { $0 } + [0xFEFF, 0xFFFD, 0x1F600, 0x10FFFF]
        let scalars = values.compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            for text in [String(Character(scalar)), "a" + String(Character(scalar)) + "é", "Ж…" + String(scalar)] {
                var copy = text
                let onBytes = copy.withUTF8 { DisplayWidth.allOwnCharacters($0) }
                XCTAssertEqual(
                    onBytes, text.unicodeScalars.allSatisfy(DisplayWidth.isOwnCharacter),
                    "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
                // A column a character, but for an escape's (ESC starts one, which takes none).
                if onBytes, scalar != "\u{1B}" {
                    XCTAssertEqual(DisplayWidth.columns(text), text.count, text.debugDescription)
                }
            }
        }
        XCTAssertTrue(DisplayWidth.allOwnCharacters(UnsafeBufferPointer(start: nil, count: 0)))
    }

    /// Text read a scalar a character (accents, Cyrillic, "…") measures and
    /// wraps as the same text read a character at a time: the second copy
    /// has each "é" written as "e" and a combining accent (one character, a
    /// column), which sends it down the character path.
    func testWrap_aScalarAtATime_asACharacterAtATime() {
        let lines = [
            "Alert services: orléans-fr: meteoalarm, last check failed (could not resolve the host of https://feeds.meteoalarm.org/…)",
            "Services d’alerte : paris-fr : météo, dernière vérification échouée (hôte introuvable https://feeds.meteoalarm.org/…)",
            "Службы:         москва-ru: нет (для этого места нет официальной службы предупреждений), é проверено 5 мин назад",
            "Summary: " + String(repeating: "\u{1B}[1mmétéo\u{1B}[0m – ", count: 12),
            "   Καιρός:  βροχή – é – “quoted” ‰ ™ € " + String(repeating: "λέξη ", count: 16),
        ]
        for line in lines {
            XCTAssertTrue(line.unicodeScalars.allSatisfy(DisplayWidth.isOwnCharacter), line)
            let combined = line.replacingOccurrences(of: "é", with: "e\u{301}")
            XCTAssertNotEqual(Array(combined.unicodeScalars), Array(line.unicodeScalars))
            XCTAssertFalse(combined.unicodeScalars.allSatisfy(DisplayWidth.isOwnCharacter))
            XCTAssertEqual(DisplayWidth.columns(line), DisplayWidth.columns(combined), line)
            for width in [30, 50, 80] {
                // Compared as Strings: "é" and "e\u{301}" are the same text, where the lines break is not.
                XCTAssertEqual(LineWrap.wrap(line, width: width), LineWrap.wrap(combined, width: width), line)
            }
        }
    }

    /// A failure's sentence is filled on its bytes as it was a character at
    /// a time (the reference below is the code it replaced).
    func testFailureSentences_filledOnTheBytes_asACharacterAtATime() {
        func referenceFilling(_ template: String, with values: [String: String]) -> String {
            var text = ""
            var rest = Substring(template)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                let name = String(rest[rest.index(after: open)..<close])
                text += rest[..<open]
                text += values[name] ?? String(rest[open...close])
                rest = rest[rest.index(after: close)...]
            }
            return text + rest
        }
        let values = [
            "url": "https://feeds.meteoalarm.org/…", "detail": " (délai {dépassé})", "seconds": "1.500", "": "empty",
        ]
        let templates = [
            "could not resolve the host of {url}{detail}; check the network connection and DNS",
            "impossible de joindre {url}{detail} : réessai dans {seconds} s",
            "{unknown} stays, {} is named, a lone { or } stays, {url",
            "{url}}{{detail}",
            "no placeholder at all – “quoted”",
            "",
            "東京 {url}。{seconds} 秒",
        ]
        for template in templates {
            XCTAssertEqual(
                FailureWording.filling(template, with: values), referenceFilling(template, with: values), template)
        }
        XCTAssertEqual(FailureWording.placeholders(of: templates[1]), ["url", "detail", "seconds"])
        XCTAssertEqual(FailureWording.placeholders(of: templates[2]), ["unknown", "", " or "])
        XCTAssertEqual(FailureWording.placeholders(of: templates[4]), [])
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
