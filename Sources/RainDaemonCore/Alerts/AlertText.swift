import RainCore

/// The one place where a warning service's text becomes plain text for
/// people. Services write what their own pages show: some send HTML
/// (`Flood <b>Warning</b> &amp; ...`), some entities, some stray control
/// codes and runs of indentation. What raind shows, notifies and sends to
/// clients is text: tags removed (line breaks kept where the markup made
/// them), entities decoded, control codes gone, spaces collapsed, bounded.
public enum AlertText {
    /// `text` as plain text:
    ///
    /// - HTML tags are removed; `<br>` becomes a line break, `<p>` a blank
    ///   line, and other block elements (`div`, `li`, `tr`, headings, ...)
    ///   a line break; what `<script>` and `<style>` hold is dropped, and so
    ///   are comments. A `<` that opens no tag (`< 5 cm`) is kept.
    /// - Entities are decoded: numeric ones (`&#8211;`, `&#x2013;`) and the
    ///   common named ones (`&amp;`, `&nbsp;`, `&eacute;`, ...); an unknown
    ///   name stays as written.
    /// - Control codes are removed, tabs and no-break spaces read as spaces,
    ///   CR LF, CR and the Unicode line separators as line breaks.
    /// - Runs of spaces become one space, spaces at the ends of lines go, at
    ///   most two line breaks follow each other, and the text is trimmed.
    /// - With `singleLine` (titles, names), line breaks become spaces too.
    /// - The result is at most `maximumBytes` of UTF-8, cut at a character
    ///   boundary and ended with "…" when it was longer.
    ///
    /// The text is cut before it is read, to `readScalars(maximumBytes)`
    /// characters: markup and spaces may make a text some times longer
    /// than what it says, never this much, and what lies past the cut
    /// would be cut from the result anyway. Reading is linear in what is
    /// read, whatever the markup (a `<` costs a look-up, not a scan).
    public static func plain(
        _ text: String, maximumBytes: Int = AlertLimits.descriptionBytes, singleLine: Bool = false
    ) -> String {
        let scalars = text.unicodeScalars
        let readEnd = scalars.index(
            scalars.startIndex, offsetBy: readScalars(maximumBytes), limitedBy: scalars.endIndex)
        let cut = readEnd.map { $0 < scalars.endIndex } ?? false
        let read = String(String.UnicodeScalarView(scalars[..<(readEnd ?? scalars.endIndex)]))
        return bounded(normalized(unmarked(read), singleLine: singleLine), maximumBytes: maximumBytes, cut: cut)
    }

    /// How many characters of a text `plain` reads for a result of at most
    /// `maximumBytes`: four times as many, and room for one more tag.
    static func readScalars(_ maximumBytes: Int) -> Int { 4 * maximumBytes + maximumTagLength }

    /// `text` in at most `maximumBytes` of UTF-8: cut at a Unicode scalar
    /// boundary and ended with "…" (when there is room for it) if it was
    /// longer, or if it was `cut` already, so a reader sees that something
    /// was left out.
    public static func bounded(_ text: String, maximumBytes: Int, cut: Bool = false) -> String {
        let ellipsis = "…"
        if cut, !text.isEmpty, text.utf8.count + ellipsis.utf8.count <= maximumBytes { return text + ellipsis }
        guard text.utf8.count > maximumBytes || (cut && !text.isEmpty) else { return text }
        let room = maximumBytes >= 3 * ellipsis.utf8.count ? maximumBytes - ellipsis.utf8.count : maximumBytes
        var out = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let size = UTF8.width(scalar)
            guard used + size <= room else { break }
            out.append(scalar)
            used += size
        }
        while let last = out.last, last == " " || last == "\n" { out.removeLast() }
        return String(out) + (room < maximumBytes ? ellipsis : "")
    }

    /// The alert with every text people read made plain (`plain`), each to
    /// its bound (`AlertLimits`): the title and the event and region names on
    /// one line, the description and instruction with their line breaks. An
    /// alert whose title is empty once plain takes its event as title.
    public static func plain(_ alert: WeatherAlert) -> WeatherAlert {
        var alert = alert
        alert.event = alert.event.map { plain($0, maximumBytes: AlertLimits.nameBytes, singleLine: true) }
        alert.title = plain(alert.title, maximumBytes: AlertLimits.titleBytes, singleLine: true)
        if alert.title.isEmpty, let event = alert.event { alert.title = event }
        alert.description = plain(alert.description, maximumBytes: AlertLimits.descriptionBytes)
        alert.instruction = alert.instruction.map { plain($0, maximumBytes: AlertLimits.instructionBytes) }
        alert.regions = alert.regions.prefix(AlertLimits.regions)
            .map { plain($0, maximumBytes: AlertLimits.nameBytes, singleLine: true) }.filter { !$0.isEmpty }
        return alert
    }

    // MARK: Markup

    /// Markup out, entities decoded; whitespace and control codes are left
    /// for `normalized`.
    static func unmarked(_ text: String) -> [Unicode.Scalar] {
        // The two break marks are this function's own; one in the text is not.
        let input = text.unicodeScalars.map { $0 == lineBreak || $0 == paragraphBreak ? "\u{FFFD}" : $0 }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(input.count)
        // Past the last `-->` no comment can end, so none is looked for:
        // each `<!--` costs at most the way to the `-->` that ends it.
        let lastCommentEnd = (0..<max(0, input.count - 2)).reversed().first { matches(input, at: $0, "-->") }
        let tagEnds = tagEnds(input)
        var index = 0
        while index < input.count {
            let scalar = input[index]
            if scalar == "<", let tag = tag(in: input, at: index, lastCommentEnd: lastCommentEnd, tagEnds: tagEnds) {
                out += tag.replacement
                index = tag.end
            } else if scalar == "&", let entity = entity(in: input, at: index) {
                out += entity.scalars
                index = entity.end
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return out
    }

    /// A tag, comment or declaration starting at the `<` at `start`: what it
    /// stands for and where the text after it begins; nil when the `<`
    /// opens none (no letter, `/`, `!` or `?` after it, or no `>` to end it).
    static func tag(
        in input: [Unicode.Scalar], at start: Int, lastCommentEnd: Int?, tagEnds: [Int]
    ) -> (replacement: [Unicode.Scalar], end: Int)? {
        guard start + 1 < input.count else { return nil }
        let next = input[start + 1]
        if next == "!", matches(input, at: start, "<!--") {
            guard let last = lastCommentEnd, last >= start + 4, let close = find(input, "-->", from: start + 4)
            else { return nil }
            return ([], close + 3)
        }
        let closing = next == "/"
        let nameStart = closing ? start + 2 : start + 1
        guard nameStart < input.count else { return nil }
        let first = input[nameStart]
        guard isASCIILetter(first) || (!closing && (first == "!" || first == "?")) else { return nil }
        // The tag ends at the first `>` outside a quoted attribute value,
        // within `maximumTagLength`: a longer run is text with a `<` in it.
        let index = tagEnds[nameStart]
        guard index >= 0, index < start + maximumTagLength else { return nil }
        var nameEnd = nameStart
        while nameEnd < index, isASCIILetter(input[nameEnd]) || ("0"..."9").contains(input[nameEnd]) { nameEnd += 1 }
        let name = String(String.UnicodeScalarView(input[nameStart..<nameEnd])).lowercased()
        if !closing, name == "script" || name == "style" {
            // What they hold is code, not text: skip to their end tag, or to the end.
            let end = find(input, "</\(name)", from: index + 1, ignoringCase: true)
            guard let end else { return ([], input.count) }
            let close = input[end...].firstIndex(of: ">") ?? input.count - 1
            return ([], close + 1)
        }
        return (replacement(forTag: name, closing: closing), index + 1)
    }

    /// The longest tag read as one (an `<a href>` with a long address fits).
    static let maximumTagLength = 2048

    /// For each position, where a tag whose name starts there would end:
    /// the first `>` from there on that is outside a quoted attribute value
    /// (-1: none). Found in one pass from the end, so that a text of many
    /// `<a` with no end costs no rescan at each: from a quote, the end is
    /// the one after the quote that closes it.
    static func tagEnds(_ input: [Unicode.Scalar]) -> [Int] {
        var ends = [Int](repeating: -1, count: input.count + 1)
        var nextDouble = -1
        var nextSingle = -1
        for index in stride(from: input.count - 1, through: 0, by: -1) {
            switch input[index] {
            case ">":
                ends[index] = index
            case "\"":
                ends[index] = nextDouble >= 0 ? ends[nextDouble + 1] : -1
                nextDouble = index
            case "'":
                ends[index] = nextSingle >= 0 ? ends[nextSingle + 1] : -1
                nextSingle = index
            default:
                ends[index] = ends[index + 1]
            }
        }
        return ends
    }

    /// Where a block of text starts or ends there is a line break, around a
    /// paragraph a blank line, however many tags meet there (`</li><li>` is
    /// one break): these marks, which `normalized` reads, stand for "at
    /// least one" and "at least two" line breaks. A `<br>` is one more.
    static let lineBreak: Unicode.Scalar = "\u{E000}"
    static let paragraphBreak: Unicode.Scalar = "\u{E001}"

    static func replacement(forTag name: String, closing: Bool) -> [Unicode.Scalar] {
        switch name {
        case "br": return ["\n"]
        case "p": return [paragraphBreak]
        case "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
            "blockquote", "pre", "section", "article", "header", "footer":
            return [lineBreak]
        case "td", "th": return [" "]
        default: return []
        }
    }

    /// `text` with its entities decoded (as `plain` decodes them) and
    /// nothing else changed: `&lt;b&gt;` becomes `<b>`, to be escaped again
    /// by whoever puts the text into markup, so that it reads as written.
    public static func decodingEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let input = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < input.count {
            if input[index] == "&", let entity = entity(in: input, at: index) {
                out.append(contentsOf: entity.scalars)
                index = entity.end
            } else {
                out.append(input[index])
                index += 1
            }
        }
        return String(out)
    }

    /// `&name;`, `&#nnn;` or `&#xhhh;` at `start`: its characters and where
    /// the text after it begins; nil for anything else (kept as written).
    static func entity(in input: [Unicode.Scalar], at start: Int) -> (scalars: [Unicode.Scalar], end: Int)? {
        var index = start + 1
        while index < input.count, index - start <= 12, input[index] != ";" {
            guard input[index].isASCII,
                isASCIILetter(input[index]) || ("0"..."9").contains(input[index])
                    || input[index] == "#"
            else { return nil }
            index += 1
        }
        guard index < input.count, input[index] == ";", index > start + 1 else { return nil }
        let body = String(String.UnicodeScalarView(input[(start + 1)..<index]))
        if body.hasPrefix("#") {
            let hex = body.hasPrefix("#x") || body.hasPrefix("#X")
            guard let value = UInt32(body.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10) else { return nil }
            // A reference to what is no character reads as the replacement character.
            return ([Unicode.Scalar(value) ?? "\u{FFFD}"], index + 1)
        }
        guard let scalars = namedEntities[body] else { return nil }
        return (scalars, index + 1)
    }

    /// The named entities services use: XML's five, the spaces and dashes,
    /// quotation marks, common symbols, and the letters of the European
    /// languages whose services write them as entities.
    static let namedEntities: [String: [Unicode.Scalar]] = {
        var table: [String: [Unicode.Scalar]] = [
            "amp": ["&"], "lt": ["<"], "gt": [">"], "quot": ["\""], "apos": ["'"], "nbsp": ["\u{A0}"],
            "ensp": [" "], "emsp": [" "], "thinsp": [" "], "shy": [], "zwsp": [],
            "ndash": ["–"], "mdash": ["—"], "hellip": ["…"], "bull": ["•"], "middot": ["·"],
            "lsquo": ["‘"], "rsquo": ["’"], "sbquo": ["‚"], "ldquo": ["“"], "rdquo": ["”"], "bdquo": ["„"],
            "laquo": ["«"], "raquo": ["»"], "lsaquo": ["‹"], "rsaquo": ["›"],
            "deg": ["°"], "euro": ["€"], "pound": ["£"], "cent": ["¢"], "yen": ["¥"], "copy": ["©"], "reg": ["®"],
            "trade": ["™"], "sect": ["§"], "para": ["¶"], "times": ["×"], "divide": ["÷"], "plusmn": ["±"],
            "minus": ["−"], "micro": ["µ"], "sup1": ["¹"], "sup2": ["²"], "sup3": ["³"], "frac12": ["½"],
            "frac14": ["¼"], "frac34": ["¾"], "permil": ["‰"], "larr": ["←"], "rarr": ["→"], "uarr": ["↑"],
            "darr": ["↓"], "le": ["≤"], "ge": ["≥"], "ne": ["≠"], "asymp": ["≈"], "iexcl": ["¡"], "iquest": ["¿"],
            "szlig": ["ß"], "aelig": ["æ"], "AElig": ["Æ"], "oelig": ["œ"], "OElig": ["Œ"], "oslash": ["ø"],
            "Oslash": ["Ø"], "aring": ["å"], "Aring": ["Å"], "eth": ["ð"], "ETH": ["Ð"], "thorn": ["þ"],
            "THORN": ["Þ"],
        ]
        // The accented Latin-1 letters: &auml; &Eacute; &ccedil; ...
        let marks: [(String, String, String)] = [
            ("uml", "aeiouy", "äëïöüÿ"), ("acute", "aeiouy", "áéíóúý"), ("grave", "aeiou", "àèìòù"),
            ("circ", "aeiou", "âêîôû"), ("tilde", "ano", "ãñõ"), ("cedil", "c", "ç"),
        ]
        for (mark, letters, accented) in marks {
            for (letter, scalar) in zip(letters.unicodeScalars, accented.unicodeScalars) {
                table[String(letter) + mark] = [scalar]
                let upper = Character(scalar).uppercased()
                if let capital = upper.unicodeScalars.first, upper.unicodeScalars.count == 1 {
                    table[String(letter).uppercased() + mark] = [capital]
                }
            }
        }
        return table
    }()

    // MARK: Whitespace and control codes

    /// Spaces collapsed, line breaks at most two in a row, control codes
    /// removed, trimmed.
    static func normalized(_ input: [Unicode.Scalar], singleLine: Bool) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var pendingBreaks = 0
        var index = 0
        while index < input.count {
            let scalar = input[index]
            index += 1
            if scalar == "\r" || scalar == "\n" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                if scalar == "\r", index < input.count, input[index] == "\n" { index += 1 }
                if singleLine { pendingSpace = true } else { pendingBreaks += 1 }
            } else if scalar == lineBreak || scalar == paragraphBreak {
                if singleLine {
                    pendingSpace = true
                } else {
                    pendingBreaks = max(pendingBreaks, scalar == lineBreak ? 1 : 2)
                }
            } else if isSpace(scalar) {
                pendingSpace = true
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{FEFF}" {
                continue
            } else {
                if !out.isEmpty {
                    if pendingBreaks > 0 {
                        out.append(contentsOf: Array(repeating: "\n", count: min(pendingBreaks, 2)))
                    } else if pendingSpace {
                        out.append(" ")
                    }
                }
                pendingSpace = false
                pendingBreaks = 0
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Tab, space, no-break space and the other Unicode spaces.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    // MARK: Scanning

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func matches(
        _ input: [Unicode.Scalar], at start: Int, _ text: String, ignoringCase: Bool = false
    ) -> Bool {
        var index = start
        for wanted in text.unicodeScalars {
            guard index < input.count else { return false }
            let found = input[index]
            if ignoringCase {
                guard found.properties.lowercaseMapping == wanted.properties.lowercaseMapping else { return false }
            } else {
                guard found == wanted else { return false }
            }
            index += 1
        }
        return true
    }

    static func find(_ input: [Unicode.Scalar], _ text: String, from start: Int, ignoringCase: Bool = false) -> Int? {
        guard start <= input.count else { return nil }
        return (start..<input.count).first { matches(input, at: $0, text, ignoringCase: ignoringCase) }
    }
}
