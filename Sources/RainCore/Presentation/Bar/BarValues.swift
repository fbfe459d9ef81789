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
    /// Where the place is, for `{moon}`, `{moon_phase}` and `{daylength}`; nil when unknown.
    public var coordinates: PlaceCoordinates?

    public init(
        placeName: String, forecast: Forecast?, units: UnitSystem, now: Double, iconStyle: IconStyle,
        zone: TimeZoneRules? = nil, coordinates: PlaceCoordinates? = nil
    ) {
        self.coordinates = coordinates
        self.placeName = placeName
        self.forecast = forecast
        self.units = units
        self.now = now
        self.iconStyle = iconStyle
        self.zone = zone
    }

    /// The conditions now and whether they were observed, by the rule every
    /// view shares (`Forecast.conditions(at:)`).
    public var reading: (conditions: CurrentConditions, observed: Bool)? { forecast?.conditions(at: now) }

    /// The conditions now: the current block while recent, else the forecast for the hour in progress.
    public var conditions: CurrentConditions? { reading?.conditions }

    /// Today at the place (its local date at `now`); nil when the forecast has no such day.
    public var today: DailyForecast? { forecast?.today(at: now, zone: zone) }

    /// The condition's name (`rain`, `clear-night`, `unknown`), for CSS
    /// classes and `alt`; nil only without a forecast.
    public var condition: String? {
        guard forecast != nil else { return nil }
        return WeatherIcon.condition(conditions?.icon ?? "")
    }

    /// The most severe alert in effect (`WeatherAlert.isInEffect(at:)`): one
    /// that begins later does not light the bar until it does.
    public var alert: WeatherAlert? { forecast?.mostSevereAlert(at: now) }

    /// How many alerts are in effect.
    public var alertCount: Int { forecast?.alertsInEffect(at: now).count ?? 0 }

    /// The CSS class of the highest severity in effect (`alert-severe`);
    /// nil with none in effect.
    public var alertClass: String? { alert.map { "alert-" + AlertWording.word($0.severity) } }

    public func text(_ field: BarTemplate.Field, bare: Bool) -> String {
        let formatter = UnitFormatter(system: units)
        func quantity(_ value: Double?, _ kind: Quantity) -> String {
            bare ? formatter.number(value, kind) : formatter.spaced(value, kind)
        }
        func percent(_ fraction: Double?) -> String {
            bare ? UnitFormatter.percentNumber(fraction) ?? UnitFormatter.missing : UnitFormatter.percent(fraction)
        }
        let now = conditions
        func mark(_ kind: CorrectedTemperature.Kind) -> String {
            guard !bare, let today, forecast?.isCorrected(kind, at: today.time) == true else { return "" }
            return ForecastPresenter.correctedMark
        }
        switch field {
        case .place: return placeName
        case .temp:
            // A corrected value is marked, unless bare (a number for scripts).
            let corrected = !bare && forecast?.isCorrected(conditionsAt: self.now) == true
            return quantity(now?.temperature, .temperature) + (corrected ? ForecastPresenter.correctedMark : "")
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
        case .uv:
            return (now?.uvIndex ?? air?.uvIndex).flatMap { DecimalText.format($0, fractionDigits: 0) }
                ?? UnitFormatter.missing
        case .sunrise: return clock(today?.sunrise)
        case .sunset: return clock(today?.sunset)
        case .high: return quantity(today?.temperatureMax, .temperature) + mark(.high)
        case .low: return quantity(today?.temperatureMin, .temperature) + mark(.low)
        case .updated:
            guard let forecast else { return UnitFormatter.missing }
            if forecast.outdated(now: self.now) {
                // Received a moment ago maybe, but its data is not: say how old that is.
                guard let end = forecast.coverageEnd else { return "forecast ended" }
                return "forecast ended " + AgeText.describe(ageSeconds: self.now - end)
            }
            return AgeText.describe(ageSeconds: max(0, self.now - forecast.fetchedAt))
        case .alert: return alert.map { $0.title.isEmpty ? ($0.event ?? "") : $0.title } ?? ""
        case .alertCount: return String(alertCount)
        case .alertSeverity: return alert.map { AlertWording.word($0.severity) } ?? ""
        case .alertUntil:
            guard let end = alert?.end, let forecast else { return "" }
            return AlertWording.shortMoment(
                forecast.local(end, zone: zone), now: forecast.local(self.now, zone: zone))
        case .nowcast: return forecast?.nowcast?.at(self.now)?.summary ?? ""
        case .aqi, .aqiCategory, .pm25, .pm10, .o3, .uvCategory, .pollen: return airText(field, bare: bare)
        case .moon, .moonPhase, .daylength: return skyText(field, bare: bare)
        }
    }

    /// `06:42` at the place, by its time zone's rules.
    private func clock(_ unixSeconds: Double?) -> String {
        guard let unixSeconds, let forecast else { return UnitFormatter.missing }
        return forecast.local(unixSeconds, zone: zone).hourMinute
    }

    /// The sky at the place today (`LocalSky`), in its own days: by the
    /// zone's rules, else the forecast's offset; nil without coordinates.
    public var sky: LocalSky? {
        guard let coordinates else { return nil }
        let offset = forecast?.utcOffsetSeconds ?? 0
        let today = (zone?.local(now) ?? CivilDateTime(unixSeconds: now, utcOffsetSeconds: offset)).daysSinceEpoch
        return LocalSky(coordinates: coordinates, now: now, today: today) { [zone] day in
            zone?.startOfDay(day) ?? Double(day * 86_400 - offset)
        }
    }

    /// `{moon}` (the phase's glyph), `{moon_phase}` (its name) and
    /// `{daylength}` (`9 h 12 min`; with `:value`, whole minutes), the same
    /// length as `now` shows (`LocalSky.shownDaylight`).
    private func skyText(_ field: BarTemplate.Field, bare: Bool) -> String {
        guard let sky else { return field == .moon ? "" : UnitFormatter.missing }
        switch field {
        case .moon: return MoonIcon.glyph(sky.moon, style: iconStyle)
        case .moonPhase: return SkyWording.phaseName(sky.moon.phase)
        default:
            let seconds = sky.shownDaylight(given: today).seconds
            return bare ? String(Int((seconds / 60).rounded())) : SkyWording.duration(seconds)
        }
    }
}
