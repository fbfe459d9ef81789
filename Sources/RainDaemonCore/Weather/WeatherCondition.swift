import RainCore

/// The kinds of weather raind's icons name, and their words in the Forecast
/// API's vocabulary (`WeatherIcon` draws them): every provider maps its own
/// codes to one of these, and the words are written only here.
public enum WeatherCondition: Sendable {
    case clear, partlyCloudy, cloudy, fog, wind, rain, sleet, snow, thunderstorm

    /// The icon word; `isDay` picks the day or night variant where there is one.
    public func icon(isDay: Bool) -> String {
        switch self {
        case .clear: return isDay ? "clear-day" : "clear-night"
        case .partlyCloudy: return isDay ? "partly-cloudy-day" : "partly-cloudy-night"
        case .cloudy: return "cloudy"
        case .fog: return "fog"
        case .wind: return "wind"
        case .rain: return "rain"
        case .sleet: return "sleet"
        case .snow: return "snow"
        case .thunderstorm: return "thunderstorm"
        }
    }
}
