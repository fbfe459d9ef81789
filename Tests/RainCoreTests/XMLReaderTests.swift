import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct XMLReaderTests {
    func parse(_ text: String, limits: XMLReader.Limits = XMLReader.Limits()) throws -> XMLElement {
        try XMLReader.parse(Array(text.utf8), limits: limits)
    }

    /// The error `text` is refused with; fails the test when it is read.
    func refusal(
        _ text: String, limits: XMLReader.Limits = XMLReader.Limits(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> XMLParseError? {
        refusal(Array(text.utf8), limits: limits, sourceLocation: sourceLocation)
    }

    func refusal(
        _ bytes: [UInt8], limits: XMLReader.Limits = XMLReader.Limits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> XMLParseError? {
        do {
            let root = try XMLReader.parse(bytes, limits: limits)
            Issue.record("read as <\(root.name)>", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: What it reads

    @Test func elementsWithPrefixesAreFoundByLocalName() throws {
        let root = try parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
              <entry><cap:event>Gale</cap:event><title>Yellow</title></entry>
              <entry/>
            </feed>
            """)
        #expect(root.name == "feed" && root.localName == "feed")
        #expect(root.children("entry").count == 2)
        let event = try #require(root.child("entry")?.child("event"))
        #expect(event.name == "cap:event")
        #expect(event.localName == "event")
        #expect(event.text == "Gale")
        #expect(root.child("entry")?.childText("title") == "Yellow")
        #expect(root.children("entry")[1].children.isEmpty)
        #expect(root.attribute("cap") == "urn:oasis:names:tc:emergency:cap:1.2")
    }

    @Test func attributesInBothQuotesWithReferencesAndNormalizedWhitespace() throws {
        let root = try parse(
            "<link href='https://a.example/?x=1&amp;y=2' title=\"It's &quot;here&quot;\" rel = \"a\tb\nc\"/>")
        #expect(root.attribute("href") == "https://a.example/?x=1&y=2")
        #expect(root.attribute("title") == "It's \"here\"")
        #expect(root.attribute("rel") == "a b c")
        #expect(root.attributes.map(\.name) == ["href", "title", "rel"])
        #expect(root.attribute("type") == nil)
    }

    @Test func theFiveEntitiesAndCharacterReferences() throws {
        let root = try parse("<t>&lt;b&gt; &amp; &apos;&quot; &#65;&#x42;&#x00e9;&#8211;&#x1F327;</t>")
        #expect(root.text == "<b> & '\" ABé–🌧")
    }

    @Test func cdataIsTextAsWritten() throws {
        let root = try parse("<d>before <![CDATA[<b>bold</b> & more]]> after</d>")
        #expect(root.text == "before <b>bold</b> & more after")
        #expect(root.children.isEmpty)
    }

    @Test func commentsProcessingInstructionsAndTheDeclarationAreSkipped() throws {
        let root = try parse(
            """
            \u{FEFF}<?xml version='1.0' encoding='utf-8' standalone='yes'?>
            <!-- before --><?xml-stylesheet href="a.xsl"?>
            <a>x<!-- inside -->y<?pi data?>z<b/></a>
            <!-- after -->
            """)
        #expect(root.text == "xyz")
        #expect(root.children.map(\.name) == ["b"])
    }

    @Test func lineEndsReadAsLineFeedsAndWhitespaceIsKept() throws {
        let root = try parse("<d>\r\n  one\rtwo\n</d>")
        #expect(root.text == "\n  one\ntwo\n")
        #expect(root.trimmedText == "one\ntwo")
    }

    @Test func everyRecordingIsRead() throws {
        for name in [
            "dwd-cap-starkregen-update-0d1a4fb5.xml", "dwd-cap-windboeen-alert-fe90b61b.xml",
            "metalerts-cap-maloy-svinoy.xml", "meteoalarm-atom-france.xml", "meteoalarm-cap-france-avalanches.xml",
            "meteoalarm-cap-serbia-sumadija.xml",
        ] {
            let root = try XMLReader.parse(try Fixtures.bytes("alerts/" + name))
            #expect(["alert", "feed"].contains(root.localName), "\(name)")
        }
        let wind = try XMLReader.parse(try Fixtures.bytes("alerts/dwd-cap-windboeen-alert-fe90b61b.xml"))
        #expect(wind.children("info").reduce(0) { $0 + $1.children("area").count } == 1352)
        #expect(wind.child("info")?.childText("event") == "WINDBÖEN")
    }

    // MARK: What it refuses, and where

    @Test func anUnclosedTagIsACutDocument() throws {
        let error = try #require(refusal("<alert>\n  <info>\n    <event>Gale</event>\n"))
        #expect(error.problem.contains("ends inside <info> (opened at line 2, column 3)"))
        #expect(error.problem.contains("cut off"))
        #expect(error.line == 4 && error.column == 1)
    }

    @Test func aMismatchedEndTagNamesBoth() throws {
        let error = try #require(refusal("<alert>\n<info><area></info></area></alert>"))
        #expect(error.problem == "the end tag </info> does not match <area> (opened at line 2, column 7)")
        #expect(error.line == 2 && error.column == 13)
        #expect(error.description == "\(error.problem) at line 2, column 13")
    }

    @Test func badReferencesAreRefused() throws {
        let unknown = try #require(refusal("<t>Gale &nbsp; warning</t>"))
        #expect(unknown.problem.hasPrefix("unknown entity &nbsp;"))
        #expect(unknown.line == 1 && unknown.column == 9)
        #expect(try #require(refusal("<t>Wind & rain</t>")).problem.hasPrefix("& that starts no reference"))
        #expect(try #require(refusal("<t>&#0;</t>")).problem == "&#0; names U+0000, which XML does not allow")
        #expect(try #require(refusal("<t>&#xD800;</t>")).problem.contains("U+D800"))
        #expect(try #require(refusal("<t>&#x110000;</t>")).problem.contains("which XML does not allow"))
        #expect(try #require(refusal("<t>&#x1B;</t>")).problem.contains("U+001B"))
        #expect(try #require(refusal("<t>&#xZZ;</t>")).problem == "&#xZZ; is not a character reference")
        #expect(try #require(refusal("<t a='&foo;'/>")).problem.hasPrefix("unknown entity &foo;"))
    }

    /// No DOCTYPE is read, so no entity can be declared, let alone expanded
    /// a billion times.
    @Test func aDoctypeIsRefusedSoNothingExpands() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <lolz>&lol3;</lolz>
            """
        let error = try #require(refusal(laughs))
        #expect(error.problem.hasPrefix("a DOCTYPE, which raind does not accept"))
        #expect(error.line == 2 && error.column == 1)
        #expect(try #require(refusal("<a><!DOCTYPE x></a>")).problem.hasPrefix("a DOCTYPE"))
    }

    @Test func truncatedDocumentsAreRefusedWhereverTheyAreCut() throws {
        let whole = Array(try Fixtures.bytes("alerts/metalerts-cap-maloy-svinoy.xml"))
        var refused = 0
        for length in stride(from: 0, to: whole.count - 1, by: 7) {
            // Cut inside a character or not, every prefix short of the end tag is refused.
            guard let error = refusal(Array(whole[0..<length])) else { continue }
            #expect(!error.problem.isEmpty && error.line >= 1 && error.column >= 1)
            refused += 1
        }
        #expect(refused == (whole.count - 1 + 6) / 7)
    }

    @Test func malformedMarkupIsRefused() throws {
        let cases: [(String, String)] = [
            ("", "the document has no root element"),
            ("   ", "the document has no root element"),
            ("hello<a/>", "text before the root element"),
            ("<a/><b/>", "content after the end of the root element <a>"),
            ("<a></a>text", "content after the end of the root element <a>"),
            ("<a", "the start tag <a> is not closed with >"),
            ("<a b='1'c='2'/>", "expected a space, > or /> in the start tag <a>"),
            ("<a b/>", "the attribute b of <a> has no = and value"),
            ("<a b=1/>", "the value of the attribute b of <a> is not in quotes"),
            ("<a b='1' b='2'/>", "the attribute b appears twice in <a>"),
            ("<a b='<'/>", "< in an attribute value (write &lt;)"),
            ("<a b='x", "an attribute value is not closed"),
            ("<1a/>", "expected an element name after <"),
            ("<a></ a>", "expected an element name after </"),
            ("<a></a", "the end tag </a> is not closed with >"),
            ("<a/ >", "/ in the start tag <a> not followed by >"),
            ("<a><!-- open</a>", "a comment <!-- is not closed with -->"),
            ("<a><![CDATA[ open</a>", "a CDATA section is not closed with ]]>"),
            ("<a><?pi open</a>", "a processing instruction <? is not closed with ?>"),
            ("<a><!ELEMENT x></a>", "markup <! that is neither a comment nor CDATA"),
            ("<?xml version='1.0'", "the XML declaration is not closed with ?>"),
        ]
        for (text, problem) in cases {
            #expect(refusal(text)?.problem == problem, "\(text)")
        }
    }

    @Test func bytesThatAreNotUTF8OrNotXMLCharactersAreRefused() throws {
        let latin1: [UInt8] = Array("<t>Fr".utf8) + [0xFC] + Array("h</t>".utf8)
        let error = try #require(refusal(latin1))
        #expect(error.problem == "bytes that are not UTF-8 (raind reads UTF-8 only)")
        #expect(error.line == 1 && error.column == 6)
        #expect(refusal([0x3C, 0x74, 0x3E, 0xC3]) != nil)  // cut inside "é"
        #expect(refusal([0x3C, 0x74, 0x3E, 0xC0, 0xAF, 0x3C, 0x2F, 0x74, 0x3E])?.problem.hasPrefix("bytes") == true)
        #expect(refusal([0x3C, 0x74, 0x3E, 0xED, 0xA0, 0x80, 0x3C, 0x2F, 0x74, 0x3E]) != nil)  // a surrogate
        #expect(refusal("<t>\u{1B}[31m</t>")?.problem == "control character U+001B, which XML does not allow")
        #expect(refusal("<t>\u{FFFE}</t>")?.problem == "character U+FFFE, which XML does not allow")
        #expect(refusal([0xFF, 0xFE, 0x3C, 0x00]) != nil)  // UTF-16
        let declared = try #require(refusal("<?xml version='1.0' encoding='ISO-8859-1'?><t/>"))
        #expect(declared.problem == "the document is declared as ISO-8859-1; raind reads UTF-8 only")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try #require(refusal("<t>Måløy</x>"))
        #expect(error.line == 1 && error.column == 9)
    }

    @Test func sizeDepthElementAndAttributeBounds() throws {
        let small = XMLReader.Limits(maximumBytes: 64, maximumDepth: 3, maximumElements: 4, maximumAttributes: 2)
        #expect(
            refusal(String(repeating: " ", count: 60) + "<a/>     ", limits: small)?.problem
                == "the document is 69 bytes, more than the 64 raind reads")
        #expect(try parse("<a><b><c/></b></a>", limits: small).children.count == 1)
        #expect(refusal("<a><b><c><d/></c></b></a>", limits: small)?.problem == "elements nested deeper than 3")
        #expect(refusal("<a><b/><b/><b/><b/></a>", limits: small)?.problem == "more than 4 elements")
        #expect(refusal("<a x='1' y='2' z='3'/>", limits: small)?.problem == "<a> has more than 2 attributes")
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(refusal(deep)?.problem == "elements nested deeper than 64")
        #expect(refusal("<" + String(repeating: "n", count: 300) + "/>")?.problem == "a name longer than 256 bytes")
    }
}
