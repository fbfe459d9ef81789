/// The values a bar template can show, for one place's forecast at one
/// moment, in one unit system. A value the forecast lacks reads `–`.
public struct BarValues: Sendable {
    public var placeName: String
    public var forecast: Forecast?
    public var units: UnitSystem
    public var now: Double
    public var iconStyle: IconStyle
    /// The rules of the place's time zone, for sunrise and sunset; nil when
    /// unknown (the forecast's `utcOffsetSeconds` is used).
    public var zone: TimeZoneRules?

    public init(
        placeName: String, forecast: Forecast?, units: UnitSystem, now: Double, iconStyle: IconStyle,
        zone: TimeZoneRules? = nil
    ) {
        self.placeName = placeName
        self.forecast = forecast
        self.units = units
        self.now = now
        self.iconStyle = iconStyle
        self.zone = zone
    }

    /// The conditions now: the current block, else the hour in progress.
    public var conditions: CurrentConditions? {
        guard let forecast else { return nil }
        if let current = forecast.current { return current }
        guard let hour = forecast.hourly.last(where: { $0.time <= now && now < $0.time + 3600 }) else { return nil }
        return CurrentConditions(
            time: hour.time, summary: hour.summary, icon: hour.icon, temperature: hour.temperature,
            apparentTemperature: hour.apparentTemperature, windSpeed: hour.windSpeed,
            windBearing: hour.windBearing, precipIntensity: hour.precipIntensity,
            precipProbability: hour.precipProbability)
    }

    /// Today at the place: the day whose span holds `now`, else the first.
    public var today: DailyForecast? {
        forecast?.daily.first { $0.time <= now && now < $0.time + 86_400 } ?? forecast?.daily.first
    }

    /// The condition's name (`rain`, `clear-night`), for CSS classes and `alt`.
    public var condition: String? {
        guard let icon = conditions?.icon, !icon.isEmpty else { return nil }
        return icon
    }

    /// The first alert not yet over.
    public var alert: WeatherAlert? {
        forecast?.alerts.first { alert in alert.end.map { $0 > now } ?? true }
    }

    public func text(_ field: BarTemplate.Field, bare: Bool) -> String {
        let formatter = UnitFormatter(system: units)
        func quantity(_ value: Double?, _ kind: Quantity) -> String {
            bare ? formatter.number(value, kind) : formatter.spaced(value, kind)
        }
        func percent(_ fraction: Double?) -> String {
            let text = UnitFormatter.percent(fraction)
            return bare && text.hasSuffix("%") ? String(text.dropLast()) : text
        }
        let now = conditions
        switch field {
        case .place: return placeName
        case .temp: return quantity(now?.temperature, .temperature)
        case .feels: return quantity(now?.apparentTemperature, .temperature)
        case .summary: return now?.summary ?? UnitFormatter.missing
        case .icon: return condition.map { WeatherIcon.glyph($0, style: iconStyle) } ?? ""
        case .wind: return quantity(now?.windSpeed, .windSpeed)
        case .windDirection:
            guard let bearing = now?.windBearing, now?.windSpeed != nil else { return UnitFormatter.missing }
            return ForecastPresenter.compassPoint(degrees: bearing)
        case .rain: return percent(now?.precipProbability)
        case .precip: return quantity(now?.precipIntensity, .precipitationIntensity)
        case .humidity: return percent(now?.humidity)
        case .pressure: return quantity(now?.pressure, .pressure)
        case .uv: return now?.uvIndex.flatMap { DecimalText.format($0, fractionDigits: 0) } ?? UnitFormatter.missing
        case .sunrise: return clock(today?.sunrise)
        case .sunset: return clock(today?.sunset)
        case .high: return quantity(today?.temperatureMax, .temperature)
        case .low: return quantity(today?.temperatureMin, .temperature)
        case .updated:
            guard let fetchedAt = forecast?.fetchedAt else { return UnitFormatter.missing }
            return AgeText.describe(ageSeconds: max(0, self.now - fetchedAt))
        case .alert: return alert?.title ?? ""
        case .nowcast: return forecast?.nowcast?.at(self.now)?.summary ?? ""
        }
    }

    /// `06:42` at the place, by its time zone's rules.
    private func clock(_ unixSeconds: Double?) -> String {
        guard let unixSeconds, let forecast else { return UnitFormatter.missing }
        let presenter = ForecastPresenter(
            forecast: forecast, placeName: placeName, units: units, now: now, zone: zone)
        return presenter.local(unixSeconds).hourMinute
    }
}
