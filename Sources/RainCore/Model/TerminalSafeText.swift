/// Text that reaches a terminal must not carry control codes: an ESC starts
/// an escape sequence (colours, cursor moves, window titles), BEL rings, CR
/// overwrites the line. Names from clients, the online geocoder, the place
/// data and providers are checked or cleaned with these.
extension String {
    /// Whether the text holds a control character: C0 (U+0000–U+001F, which
    /// includes ESC, BEL, CR, LF and TAB), DEL, C1 (U+0080–U+009F), a line
    /// or paragraph separator (U+2028, U+2029), or an invisible character
    /// that changes how the text around it reads: the bidirectional
    /// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069,
    /// which can make "Paris" print as "siraP" or hide what follows), the
    /// zero-width space, joiners and marks (U+200B–U+200F), the word joiner
    /// and invisible operators (U+2060–U+2064), and U+FEFF (a byte-order
    /// mark inside text).
    public var containsControlCharacters: Bool {
        if isPrintableASCII(keepingLineBreaks: false) { return false }
        return unicodeScalars.contains(where: Self.isControl)
    }

    /// The text with each control character (see `containsControlCharacters`)
    /// replaced by U+FFFD, so a person still sees that something was there.
    public func replacingControlCharacters() -> String {
        guard containsControlCharacters else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            out.append(Self.isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    /// The text without control characters, for printing what a daemon sent.
    /// Newlines and tabs are kept when `keepingLineBreaks` (multi-line text such
    /// as a table raindctl built itself is never passed here).
    public func strippingControlCharacters(keepingLineBreaks: Bool = false) -> String {
        // Printable ASCII and the line breaks kept (a wrapped line): nothing to strip.
        if isPrintableASCII(keepingLineBreaks: keepingLineBreaks) { return self }
        let stripped = { (scalar: Unicode.Scalar) in
            Self.isControl(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t"))
        }
        // Multi-line text with a character past ASCII ("…"): looked at, not rebuilt.
        guard unicodeScalars.contains(where: stripped) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars where !stripped(scalar) {
            out.append(scalar)
        }
        return String(out)
    }

    /// Whether every byte is printable ASCII (or a newline or tab, when
    /// `keepingLineBreaks`), read in place: most text, with nothing to look
    /// for beyond the bytes. False when the bytes are not held in one block.
    private func isPrintableASCII(keepingLineBreaks: Bool) -> Bool {
        let printable = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || (keepingLineBreaks && ($0 == 0x0A || $0 == 0x09)) }
        }
        return printable == true
    }

    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x200B...0x200F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2060...0x2064).contains(value) || (0x2066...0x2069).contains(value) || value == 0xFEFF
    }
}
