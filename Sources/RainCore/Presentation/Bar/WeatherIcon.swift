/// How `{icon}` draws a condition: emoji, a Nerd Font weather glyph, or a
/// plain word for fonts that have neither.
public enum IconStyle: String, CaseIterable, Sendable {
    case emoji, nerd, text
}

/// The condition names raind's forecasts use (the Forecast API's icon
/// names), and their glyph in each style. Day and night differ where the
/// provider said which it is.
public enum WeatherIcon {
    /// The glyph for `condition` (an icon name such as `partly-cloudy-night`).
    public static func glyph(_ condition: String, style: IconStyle) -> String {
        let glyphs = table[condition] ?? table["cloudy"]!  // "cloudy" is in the table below
        switch style {
        case .emoji: return glyphs.emoji
        case .nerd: return glyphs.nerd
        case .text: return glyphs.text
        }
    }

    /// Emoji; Nerd Font (Weather Icons, nf-weather-*); a word.
    static let table: [String: (emoji: String, nerd: String, text: String)] = [
        "clear-day": ("☀️", "\u{E30D}", "sun"),
        "clear-night": ("🌙", "\u{E32B}", "clear"),
        "partly-cloudy-day": ("⛅", "\u{E302}", "partly cloudy"),
        "partly-cloudy-night": ("☁️", "\u{E37E}", "partly cloudy"),
        "cloudy": ("☁️", "\u{E312}", "cloudy"),
        "fog": ("🌫️", "\u{E313}", "fog"),
        "rain": ("🌧️", "\u{E318}", "rain"),
        "sleet": ("🌨️", "\u{E3AD}", "sleet"),
        "snow": ("❄️", "\u{E31A}", "snow"),
        "hail": ("🌨️", "\u{E314}", "hail"),
        "thunderstorm": ("⛈️", "\u{E31D}", "storm"),
        "wind": ("💨", "\u{E34B}", "wind"),
    ]
}
