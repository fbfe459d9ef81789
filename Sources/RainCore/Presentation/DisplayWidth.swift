/// The columns a terminal gives text, as wcwidth counts them: two for a
/// character Unicode's East Asian Width calls Wide or Fullwidth (kanji,
/// kana, hanzi, hangul, full-width punctuation `、。（）：`), none for a
/// combining mark or a zero-width character, one for the rest; colour
/// escapes (`ESC [ ... m`) take none. Every view that aligns columns or
/// wraps lines (`TextTable`, `LineWrap`, raindctl's tables and help)
/// measures with it, so Japanese and Chinese line up and fit 80 columns.
public enum DisplayWidth {
    /// The columns `text` takes on a terminal: a String's bytes read in
    /// place for the ASCII case, without the generic path's iterator.
    public static func columns(_ text: String) -> Int {
        let counted = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            if bytes.allSatisfy(isPlainASCII) { return bytes.count }
            guard allOwnCharacters(bytes) else { return nil }
            // A column a scalar, and a scalar starts at each byte that continues none.
            var count = 0
            var escapes = Escapes()
            for byte in bytes where byte & 0xC0 != 0x80 {
                count += escapes.columns(escape: byte == 0x1B, ending: byte == UInt8(ascii: "m"), 1)
            }
            return count
        }
        return (counted ?? nil) ?? characterColumns(text)
    }

    /// Whether every scalar of the UTF-8 `bytes` (valid, as a String's are)
    /// is a character of its own (`isOwnCharacter`), decoded in place: what
    /// `unicodeScalars.allSatisfy(isOwnCharacter)` says, without its
    /// iterator. None of four bytes is.
    static func allOwnCharacters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let value: UInt32
            if lead < 0x80 {
                value = UInt32(lead)
                index += 1
            } else if lead & 0xE0 == 0xC0, index + 1 < bytes.count {
                value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                index += 2
            } else if lead & 0xF0 == 0xE0, index + 2 < bytes.count {
                value =
                    UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                    | UInt32(bytes[index + 2] & 0x3F)
                index += 3
            } else {
                return false
            }
            guard let scalar = Unicode.Scalar(value), isOwnCharacter(scalar) else { return false }
        }
        return true
    }

    /// The columns `text` takes on a terminal.
    public static func columns(_ text: some StringProtocol) -> Int {
        // Most text: ASCII without escapes, a column a byte.
        if text.utf8.allSatisfy(isPlainASCII) { return text.utf8.count }
        return characterColumns(text)
    }

    /// A byte that is a character of a column: ASCII, not an escape.
    private static func isPlainASCII(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x1B }

    /// The columns character by character, colour escapes taking none.
    private static func characterColumns(_ text: some StringProtocol) -> Int {
        // A scalar at a time while each is a character of its own (one pass, most text).
        var count = 0
        var escapes = Escapes()
        for scalar in text.unicodeScalars {
            guard isOwnCharacter(scalar) else { return graphemeColumns(text) }
            count += escapes.columns(escape: scalar == "\u{1B}", ending: scalar == "m", 1)
        }
        return count
    }

    /// The columns a character (a grapheme) at a time, colour escapes taking none.
    private static func graphemeColumns(_ text: some StringProtocol) -> Int {
        var count = 0
        var escapes = Escapes()
        for character in text {
            count += escapes.columns(escape: character == "\u{1B}", ending: character == "m", columns(of: character))
        }
        return count
    }

    /// `text` when it takes at most `limit` columns, else its start cut to
    /// leave room for an `…` after it: a problem shown briefly, a table's
    /// last column.
    public static func fitting(_ text: String, columns limit: Int) -> String {
        guard columns(text) > limit else { return text }
        return String(prefix(text, columns: limit - 1)) + "…"
    }

    /// The longest start of `text` that takes at most `limit` columns (a
    /// colour escape in it taking none). Plain ASCII is cut at its byte,
    /// text of characters that are one scalar (`isOwnCharacter`) at its
    /// scalar, the rest a character at a time.
    static func prefix(_ text: String, columns limit: Int) -> Substring {
        let limit = Swift.max(limit, 0)
        let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPlainASCII) } ?? false
        if plain { return text[..<text.utf8.index(text.utf8.startIndex, offsetBy: Swift.min(limit, text.utf8.count))] }
        var used = 0
        var escapes = Escapes()
        if text.unicodeScalars.allSatisfy(isOwnCharacter) {
            var end = text.unicodeScalars.startIndex
            while end < text.unicodeScalars.endIndex {
                let scalar = text.unicodeScalars[end]
                let own = escapes.columns(escape: scalar == "\u{1B}", ending: scalar == "m", 1)
                guard used + own <= limit else { break }
                used += own
                text.unicodeScalars.formIndex(after: &end)
            }
            return text[..<end]
        }
        var end = text.startIndex
        while end < text.endIndex {
            let character = text[end]
            let own = escapes.columns(escape: character == "\u{1B}", ending: character == "m", columns(of: character))
            guard used + own <= limit else { break }
            used += own
            text.formIndex(after: &end)
        }
        return text[..<end]
    }

    /// Whether `scalar` is a character of its own and a column wide in a
    /// text made only of such scalars: none joins another into one
    /// character (no mark, joiner or selector among them), none is wide or
    /// zero-width. Latin, Greek and Cyrillic letters and the punctuation the
    /// views use (`… – “ ”`); not a carriage return, one character with a
    /// line feed after it. Such a text is measured and cut a scalar at a
    /// time, which is much cheaper than a character (a grapheme) at a time
    /// (`TextFastPathTests` checks every scalar listed here).
    static func isOwnCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0D: false
        case 0...0x2FF, 0x370...0x482, 0x48A...0x52F, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0,
            0x2100...0x214F:
            true
        default: false
        }
    }

    /// Where a colour escape (`ESC [ ... m`) is, read a character at a
    /// time: its characters take no columns, the others their own.
    struct Escapes {
        private var inside = false

        /// The columns of the next character: `own` unless it starts
        /// (`escape`), continues or ends (`ending`, an `m`) an escape.
        mutating func columns(escape: Bool, ending: Bool, _ own: @autoclosure () -> Int) -> Int {
            if inside {
                if ending { inside = false }
                return 0
            }
            if escape {
                inside = true
                return 0
            }
            return own()
        }
    }

    /// The columns of one character (a grapheme: a base and its combining
    /// marks take the base's columns).
    public static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x300 { return 1 }
        if contains(zero, value) { return 0 }
        return contains(wide, value) ? 2 : 1
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        // The ranges are sorted: a binary search.
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < ranges[middle].lowerBound {
                high = middle - 1
            } else if value > ranges[middle].upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Combining marks and zero-width characters (Unicode 15, the blocks a
    /// view can meet; a lone one, as a grapheme's base, takes none).
    static let zero: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F,
        0x0E31...0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF,
        0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x20D0...0x20FF, 0x302A...0x302D,
        0x3099...0x309A, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF...0xFEFF, 0xE0100...0xE01EF,
    ]

    /// East Asian Width W and F (Unicode 15's EastAsianWidth.txt, merged
    /// into blocks; the emoji a view draws are among them).
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x3029, 0x302E...0x303E, 0x3041...0x3098, 0x309B...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4,
        0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
        0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension String {
    /// `count` spaces, none when `count` is not positive: the padding of a
    /// column or a continued line, written in place (`String(repeating:count:)`
    /// repeats a string through its generic path, a few thousand instructions
    /// for a few spaces). A function, not an initializer: `String.init`
    /// passed as a function (`aqi.map(String.init)`) must stay the number's.
    public static func spaces(_ count: Int) -> String {
        let count = Swift.max(count, 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer.initialize(repeating: UInt8(ascii: " "))
            return count
        }
    }
}
