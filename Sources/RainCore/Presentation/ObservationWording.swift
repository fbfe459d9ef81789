/// An observation in words for `raindctl now`: "Observed at
/// Berlin-Tempelhof 12 min ago: 3 °C, light snow" beside the forecast, or
/// why the place has no station (docs/OBSERVATIONS.md).
public enum ObservationWording {
    /// The line for `observed` at `now` in `units`; nil while the station
    /// is looked for or has not answered yet.
    public static func line(_ observed: PlaceObservation, units: UnitSystem, now: Double) -> String? {
        guard let observation = observed.observation else {
            guard observed.station == nil, let problem = observed.problem else { return nil }
            return tr("No station observes this place ({problem})", ["problem": problem])
        }
        var parts: [String] = []
        if let temperature = observation.temperature {
            parts.append(UnitFormatter(system: units).spaced(temperature, .temperature))
        }
        parts += observation.weather.map(describe)
        let values = parts.isEmpty ? tr("no values reported") : Localization.list(parts)
        return tr(
            "Observed at {station} {age}: {values}",
            [
                "station": observation.station.name.strippingControlCharacters(),
                "age": AgeText.describe(ageSeconds: now - observation.time), "values": values,
            ])
    }

    /// The source's credit, in the reader's language, with its address:
    /// shown under the observation; nil without one.
    public static func credit(_ observed: PlaceObservation) -> String? {
        guard observed.observation != nil, let credit = observed.attribution else { return nil }
        let text = Localization.translate(credit.text)
        return credit.url.isEmpty ? text : "\(text) \(credit.url)"
    }

    /// "light snow", "heavy rain showers", "fog".
    public static func describe(_ weather: ObservedWeather) -> String {
        let kind: String
        switch weather.kind {
        case .thunderstorm: kind = tr("thunderstorm")
        case .freezingRain: kind = tr("freezing rain")
        case .hail: kind = tr("hail")
        case .sleet: kind = tr("sleet")
        case .snow: kind = weather.showers ? tr("snow showers") : tr("snow")
        case .rain: kind = weather.showers ? tr("rain showers") : tr("rain")
        case .drizzle: kind = tr("drizzle")
        case .precipitation: kind = tr("precipitation")
        case .fog: kind = tr("fog")
        case .mist: kind = tr("mist")
        case .haze: kind = tr("haze")
        case .dust: kind = tr("dust")
        case .squall: kind = tr("squalls")
        case .funnelCloud: kind = tr("funnel cloud")
        }
        switch weather.intensity {
        case .light: return tr("light {weather}", ["weather": kind])
        case .heavy: return tr("heavy {weather}", ["weather": kind])
        case nil: return kind
        }
    }
}
