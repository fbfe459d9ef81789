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
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0xB0:
                // `7 °C` reads `7 C`; a bare `7°` reads `7`.
                continue
            case 0x2013, 0x2014, 0x2212, 0xB7, 0x2022: out += "-"
            case 0x2026: out += "..."
            case 0xA0, 0x202F, 0x2009: out += " "
            case 0x2018, 0x2019: out += "'"
            case 0x201C, 0x201D, 0x201E, 0xAB, 0xBB: out += "\""
            case 0x2501, 0x2500: out += "="
            case 0x2581...0x2588: out += "#"
            default:
                let folded = TextFolding.fold(String(scalar))
                guard !folded.isEmpty, folded.utf8.allSatisfy({ $0 < 0x80 && $0 >= 0x20 }) else {
                    // Combining marks after a letter vanish; anything else is unknown.
                    if (0x300...0x36F).contains(scalar.value) { continue }
                    out += "?"
                    continue
                }
                out += scalar.properties.isUppercase ? folded.uppercasedFirst() : folded
            }
        }
        return out
    }
}

extension String {
    fileprivate func uppercasedFirst() -> String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
