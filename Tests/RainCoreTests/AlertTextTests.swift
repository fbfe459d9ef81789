import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct AlertTextTests {
    /// Issue 21's example: shown as it came until now.
    @Test func tagsAndEntitiesBecomeText() {
        #expect(AlertText.plain("Flood <b>Warning</b> &amp;…") == "Flood Warning &…")
        #expect(AlertText.plain("<B>Loud</B> <span class=\"x\">quiet</span>") == "Loud quiet")
        #expect(AlertText.plain("<a href='https://x.example/?a>b'>link</a>") == "link")
    }

    @Test func lineBreaksWhereTheMarkupMadeThem() {
        #expect(AlertText.plain("one<br>two<br/>three<BR />four") == "one\ntwo\nthree\nfour")
        #expect(AlertText.plain("<p>First.</p><p>Second.</p>") == "First.\n\nSecond.")
        #expect(AlertText.plain("<ul><li>wind</li><li>rain</li></ul>") == "wind\nrain")
        #expect(AlertText.plain("<table><tr><td>a</td><td>b</td></tr></table>") == "a b")
    }

    @Test func scriptStyleAndCommentsAreDropped() {
        #expect(
            AlertText.plain("a<script type='x'>alert('<b>')</script>b<style>p { color: red }</STYLE>c")
                == "abc")
        #expect(AlertText.plain("before<!-- <b>hidden</b> -->after") == "beforeafter")
        #expect(AlertText.plain("cut <script>everything after") == "cut")
    }

    @Test func aLessThanSignThatOpensNoTagStays() {
        #expect(AlertText.plain("snow < 5 cm, gusts <80 km/h") == "snow < 5 cm, gusts <80 km/h")
        #expect(AlertText.plain("a<b and no end") == "a<b and no end")
        #expect(AlertText.plain("<!-- never closed") == "<!-- never closed")
        #expect(AlertText.plain("x <") == "x <")
    }

    @Test func namedAndNumericEntities() {
        #expect(AlertText.plain("&lt;&gt;&quot;&apos;&amp;") == "<>\"'&")
        #expect(
            AlertText.plain("a&nbsp;b &ndash; &eacute;t&eacute; 5&deg;C &Uuml;ber &szlig;") == "a b – été 5°C Über ß")
        #expect(AlertText.plain("&#8211;&#x2013;&#X2014;&#233;") == "––—é")
        #expect(AlertText.plain("&unknown; & &amp") == "&unknown; & &amp")
        // A reference to no character reads as the replacement character, and control codes go.
        #expect(AlertText.plain("a&#xD800;b&#27;[31mc&#0;") == "a\u{FFFD}b[31mc")
        // Entities escaped twice in XML arrive escaped once, and are decoded here.
        #expect(AlertText.plain("Flood &lt;b&gt;Warning&lt;/b&gt;") == "Flood <b>Warning</b>")
    }

    @Test func controlCodesGoTabsAreSpaces() {
        #expect(AlertText.plain("a\u{1B}[1mb\u{07}c\u{7F}d\u{9B}e") == "a[1mbcde")
        #expect(AlertText.plain("col1\tcol2") == "col1 col2")
        #expect(AlertText.plain("one\r\ntwo\rthree\u{2028}four") == "one\ntwo\nthree\nfour")
    }

    @Test func spacesCollapseLineBreaksAtMostTwoTrimmed() {
        let french = "sont prevus , \t         (ex. mistral)"
        #expect(AlertText.plain(french) == "sont prevus , (ex. mistral)")
        #expect(AlertText.plain("  a  \n\n\n\n  b  \n") == "a\n\nb")
        #expect(AlertText.plain("line   \n   next") == "line\nnext")
        #expect(AlertText.plain(" \n\t ") == "")
        #expect(AlertText.plain("a\n\nb", singleLine: true) == "a b")
    }

    @Test func boundedAtACharacterBoundaryWithAnEllipsis() {
        let text = String(repeating: "é", count: 10)  // 20 bytes
        let cut = AlertText.plain(text, maximumBytes: 12)
        #expect(cut.utf8.count <= 12)
        #expect(cut == "éééé…")  // 8 + 3 bytes; a fifth é would need 13
        #expect(AlertText.plain(text, maximumBytes: 20) == text)
        #expect(AlertText.bounded("abcdef", maximumBytes: 4) == "abcd")  // no room for "…"
        #expect(AlertText.bounded("🌧🌧🌧🌧", maximumBytes: 13) == "🌧🌧…")
        #expect(AlertText.bounded("word word word", maximumBytes: 12) == "word word…")
        #expect(AlertText.plain(String(repeating: "x", count: 100_000)).utf8.count == AlertLimits.descriptionBytes)
    }

    @Test func anAlertsTextsArePlainAndBounded() {
        let alert = WeatherAlert(
            title: "Flood <b>Warning</b>\nfor the &quot;coast&quot;", regions: ["North&nbsp;<i>Coast</i>", "<b></b>"],
            description: "<p>Rising water.</p><p>Move up.</p>", id: "x", event: "Flood\u{1B}",
            instruction: "Go&#32;inland.")
        let plain = AlertText.plain(alert)
        #expect(plain.title == "Flood Warning for the \"coast\"")
        #expect(plain.regions == ["North Coast"])
        #expect(plain.description == "Rising water.\n\nMove up.")
        #expect(plain.event == "Flood")
        #expect(plain.instruction == "Go inland.")
        #expect(plain.id == "x")
        let untitled = AlertText.plain(WeatherAlert(title: "<br>", event: "Gale"))
        #expect(untitled.title == "Gale")
    }

    @Test func hostileInputEndsInLinearTime() {
        // Each would cost quadratic time if every `<` or `<!--` searched to the end.
        let opens = String(repeating: "<a ", count: 5_000)
        #expect(AlertText.plain(opens, maximumBytes: 100_000).hasPrefix("<a <a"))
        let comments = String(repeating: "<!--", count: 20_000)
        #expect(AlertText.plain(comments, maximumBytes: 100_000).utf8.count == 80_000)
        let quotes = String(repeating: "<a '", count: 5_000)
        #expect(!AlertText.plain(quotes).isEmpty)
    }

    @Test func readsNoFurtherThanCanReachTheResult_andMarksTheCut() {
        // Past four times the bound and one tag, a text is not read: a reader sees that it goes on.
        let padding = String(repeating: " ", count: AlertText.readScalars(AlertLimits.descriptionBytes))
        #expect(AlertText.plain("Rising water." + padding + "Move up.") == "Rising water.…")
        #expect(AlertText.plain("Rising water." + padding.dropLast(30) + "Move up.") == "Rising water. Move up.")
        #expect(AlertText.plain(padding + "Move up.") == "")
        let title = AlertText.plain("Flood" + padding, maximumBytes: AlertLimits.titleBytes, singleLine: true)
        #expect(title == "Flood…")
    }

    @Test func aTagEndsWhereAScanOutsideQuotesWould() {
        // The look-up table against the scan it replaced, over texts of the characters that matter.
        func scanned(_ input: [Unicode.Scalar], from start: Int) -> Int {
            var quote: Unicode.Scalar?
            for index in start..<input.count {
                let scalar = input[index]
                if let open = quote {
                    if scalar == open { quote = nil }
                } else if scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if scalar == ">" {
                    return index
                }
            }
            return -1
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["<", "a", ">", "'", "\"", " "]
        for _ in 0..<500 {
            let input = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!  // the alphabet is not empty
            }
            let ends = AlertText.tagEnds(input)
            for start in 0..<input.count {
                #expect(ends[start] == scanned(input, from: start), "\(String(String.UnicodeScalarView(input)))")
            }
        }
    }
}
