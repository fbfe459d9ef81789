/// How `{icon}` draws a condition: emoji, a Nerd Font weather glyph, or a
/// plain word for fonts that have neither.
public enum IconStyle: String, CaseIterable, Sendable {
    case emoji, nerd, text
}

/// The condition names raind's forecasts use (the Forecast API's icon
/// names, and `unknown`), and their glyph in each style. Day and night
/// differ where the provider said which it is.
public enum WeatherIcon {
    /// The word for a condition nobody knows: a provider's empty icon, a
    /// word outside the vocabulary, a weather code it does not document.
    public static let unknown = "unknown"

    /// Every word of the vocabulary, `unknown` included.
    public static var vocabulary: Set<String> { Set(table.keys) }

    /// `icon` if it is a word of the vocabulary, else `unknown`: what is
    /// drawn, put in a CSS class and in waybar's `alt`, so a provider's
    /// unexpected text never shows as weather, nor lands in a stylesheet.
    public static func condition(_ icon: String) -> String {
        table[icon] == nil ? unknown : icon
    }

    /// The glyph for `condition` (an icon name such as `partly-cloudy-night`);
    /// the `unknown` glyph for anything else.
    public static func glyph(_ condition: String, style: IconStyle) -> String {
        let glyphs = table[self.condition(condition)]!  // condition(_:) gives a key of the table
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
        // nf-weather-na ("not available").
        unknown: ("❔", "\u{E374}", "unknown"),
    ]
}
