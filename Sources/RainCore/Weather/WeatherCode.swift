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
        0: ("Clear sky", .clear),
        1: ("Mainly clear", .clear),
        2: ("Partly cloudy", .partlyCloudy),
        3: ("Overcast", .cloudy),
        45: ("Fog", .fog),
        48: ("Depositing rime fog", .fog),
        51: ("Light drizzle", .rain),
        53: ("Drizzle", .rain),
        55: ("Dense drizzle", .rain),
        56: ("Light freezing drizzle", .sleet),
        57: ("Dense freezing drizzle", .sleet),
        61: ("Light rain", .rain),
        63: ("Rain", .rain),
        65: ("Heavy rain", .rain),
        66: ("Light freezing rain", .sleet),
        67: ("Heavy freezing rain", .sleet),
        71: ("Light snow", .snow),
        73: ("Snow", .snow),
        75: ("Heavy snow", .snow),
        77: ("Snow grains", .snow),
        80: ("Light rain showers", .rain),
        81: ("Rain showers", .rain),
        82: ("Violent rain showers", .rain),
        85: ("Light snow showers", .snow),
        86: ("Heavy snow showers", .snow),
        95: ("Thunderstorm", .thunderstorm),
        96: ("Thunderstorm with light hail", .thunderstorm),
        99: ("Thunderstorm with heavy hail", .thunderstorm),
    ]
}
