/// Text for a terminal whose locale is not UTF-8 (`LANG=C`, a Latin-1
/// locale), in plain ASCII as `ls` and `systemctl` degrade theirs: `7 C`
/// for `7 °C`, `-` for `–` and `·`, `...` for `…`, letters without their
/// accents (`Defaut`), `?` for what has no ASCII form. Block graphics are
/// not drawn at all there (`TerminalGraphics`).
public enum AsciiText {
    public static func degrade(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            // Combining marks after a letter vanish; anything else unknown is `?`.
            out += ascii(scalar) ?? ((0x300...0x36F).contains(scalar.value) ? "" : "?")
        }
        return out
    }

    /// Whether `text` reads in ASCII: its letters and its punctuation have
    /// an ASCII form (Latin, German or Polish text; a symbol such as `©`
    /// may become `?`). Japanese, Chinese or Cyrillic letters and the
    /// full-width punctuation around them have none, and a sentence in
    /// them stays in English where the terminal cannot show it
    /// (`Localization.shown`).
    public static func representable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            ascii(scalar) != nil || (0x300...0x36F).contains(scalar.value)
                || !(scalar.properties.isAlphabetic || (0x3000...0x303F).contains(scalar.value)
                    || (0xFF00...0xFFEF).contains(scalar.value))
        }
    }

    /// One character in ASCII, nil when it has no ASCII form.
    private static func ascii(_ scalar: Unicode.Scalar) -> String? {
        if scalar.isASCII { return String(scalar) }
        switch scalar.value {
        case 0xB0:
            // `7 °C` reads `7 C`; a bare `7°` reads `7`.
            return ""
        case 0x2013, 0x2014, 0x2212, 0xB7, 0x2022: return "-"
        case 0x2026: return "..."
        case 0xA0, 0x202F, 0x2009: return " "
        case 0x2018, 0x2019: return "'"
        case 0x201C, 0x201D, 0x201E, 0xAB, 0xBB: return "\""
        case 0x2501, 0x2500: return "="
        case 0x2581...0x2588: return "#"
        default:
            let folded = TextFolding.fold(String(scalar))
            guard !folded.isEmpty, folded.utf8.allSatisfy({ $0 < 0x80 && $0 >= 0x20 }) else { return nil }
            return scalar.properties.isUppercase ? folded.uppercasedFirst() : folded
        }
    }
}

extension String {
    fileprivate func uppercasedFirst() -> String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
