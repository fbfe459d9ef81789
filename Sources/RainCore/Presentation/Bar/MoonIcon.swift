/// The moon's phase drawn in the style `{icon}` uses (`IconStyle`): an
/// emoji for each of the eight phases, one of Weather Icons' 28 moon glyphs
/// (nf-weather-moon_*) for the nerd style, or the phase's name in words.
public enum MoonIcon {
    public static func glyph(_ moon: MoonReport, style: IconStyle) -> String {
        switch style {
        case .emoji: return emoji[moon.phase]!  // every name has one
        case .nerd: return String(Character(Unicode.Scalar(0xE38D + nerdIndex(moon))!))  // E38D...E3A8
        case .text: return SkyWording.phaseName(moon.phase).readerLowercased
        }
    }

    static let emoji: [MoonPhaseName: String] = [
        .new: "🌑", .waxingCrescent: "🌒", .firstQuarter: "🌓", .waxingGibbous: "🌔",
        .full: "🌕", .waningGibbous: "🌖", .lastQuarter: "🌗", .waningCrescent: "🌘",
    ]

    /// 0 (nf-weather-moon_new) to 27 (moon_waning_crescent_6): the principal
    /// phases at 0, 7, 14 and 21, and six steps between each, by how far the
    /// moon is from one to the next, so the glyph never contradicts the name.
    static func nerdIndex(_ moon: MoonReport) -> UInt32 {
        let base: UInt32
        switch moon.phase {
        case .new: return 0
        case .firstQuarter: return 7
        case .full: return 14
        case .lastQuarter: return 21
        case .waxingCrescent: base = 0
        case .waxingGibbous: base = 7
        case .waningGibbous: base = 14
        case .waningCrescent: base = 21
        }
        return base + 1 + UInt32(min(5, max(0, Int(moon.progress * 6))))
    }
}
