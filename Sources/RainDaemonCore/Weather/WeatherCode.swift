import RainCore

/// A WMO weather interpretation code (WMO 4677, as Open-Meteo reports it in
/// `weather_code`), with the summary text and Forecast API icon raind shows.
public struct WeatherCode: Equatable, Hashable, Sendable {
    public var rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// The code a provider sent as a JSON number; nil unless it is a whole
    /// number in 0...255 (a malformed code is no weather, not a crash).
    public init?(number: Double) {
        guard number.isFinite, number == number.rounded(), (0...255).contains(number) else { return nil }
        self.init(Int(number))
    }

    /// Whether Open-Meteo documents this code. Unknown codes still get a summary, and the `unknown` icon.
    public var isKnown: Bool { Self.descriptions[rawValue] != nil }

    /// English summary in sentence case (`Light rain`, `Thunderstorm with hail`).
    public var summary: String {
        // l10n: a forecast's summary travels in English and is translated where
        // shown (Localization.translate); a code no one documents has no translation.
        Self.descriptions[rawValue]?.summary ?? "Unknown weather (code \(rawValue))"
    }

    /// The icon name in the Forecast API's vocabulary: `clear-day`,
    /// `clear-night`, `rain`, `snow`, `sleet`, `wind`, `fog`, `cloudy`,
    /// `partly-cloudy-day`, `partly-cloudy-night`, `thunderstorm`. `isDay`
    /// picks the day or night variant where there is one; unknown (nil)
    /// counts as day, as daily forecasts do. A code Open-Meteo does not
    /// document gives `unknown` (`WeatherIcon.unknown`): no weather is guessed.
    public func icon(isDay: Bool? = nil) -> String {
        let day = isDay ?? true
        guard let condition = Self.descriptions[rawValue]?.icon else { return WeatherIcon.unknown }
        return condition.icon(isDay: day)
    }

    private static let descriptions: [Int: (summary: String, icon: WeatherCondition)] = [
        0: (Localization.marked("Clear sky"), .clear),
        1: (Localization.marked("Mainly clear"), .clear),
        2: (Localization.marked("Partly cloudy"), .partlyCloudy),
        3: (Localization.marked("Overcast"), .cloudy),
        45: (Localization.marked("Fog"), .fog),
        48: (Localization.marked("Depositing rime fog"), .fog),
        51: (Localization.marked("Light drizzle"), .rain),
        53: (Localization.marked("Drizzle"), .rain),
        55: (Localization.marked("Dense drizzle"), .rain),
        56: (Localization.marked("Light freezing drizzle"), .sleet),
        57: (Localization.marked("Dense freezing drizzle"), .sleet),
        61: (Localization.marked("Light rain"), .rain),
        63: (Localization.marked("Rain"), .rain),
        65: (Localization.marked("Heavy rain"), .rain),
        66: (Localization.marked("Light freezing rain"), .sleet),
        67: (Localization.marked("Heavy freezing rain"), .sleet),
        71: (Localization.marked("Light snow"), .snow),
        73: (Localization.marked("Snow"), .snow),
        75: (Localization.marked("Heavy snow"), .snow),
        77: (Localization.marked("Snow grains"), .snow),
        80: (Localization.marked("Light rain showers"), .rain),
        81: (Localization.marked("Rain showers"), .rain),
        82: (Localization.marked("Violent rain showers"), .rain),
        85: (Localization.marked("Light snow showers"), .snow),
        86: (Localization.marked("Heavy snow showers"), .snow),
        95: (Localization.marked("Thunderstorm"), .thunderstorm),
        96: (Localization.marked("Thunderstorm with light hail"), .thunderstorm),
        99: (Localization.marked("Thunderstorm with heavy hail"), .thunderstorm),
    ]
}
