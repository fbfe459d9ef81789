import RainCore

/// The forecast read field by field from a `JSONTape` (`WireReadable`),
/// with `Decodable`'s rules: raind reads its cached forecasts this way as
/// it starts, where `Decodable`'s generic containers, built by the runtime
/// at their first use, cost more than the reading itself. `WireReadingTests`
/// holds each reader to what `Decodable` reads.
///
/// Only the daemon reads a forecast from a file, so these readers live in
/// its core, not in RainCore: a conformance is linked with every program
/// that links its module, and raindctl, which reads replies, never a cache,
/// would carry them. Each reads its fields in their declared order into
/// values, then builds the type with its own initializer and sets what that
/// initializer leaves out or derives: the value as stored is the value read.

extension Forecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let provider = try wire.string("provider")
        let attribution: Attribution = try wire.value("attribution")
        let fetchedAt = try wire.double("fetchedAt")
        let expiresAt = try wire.optionalDouble("expiresAt")
        let timeZone = try wire.string("timeZone")
        let utcOffsetSeconds = try wire.int("utcOffsetSeconds")
        let current: CurrentConditions? = try wire.optionalValue("current")
        let hourly: [HourlyForecast] = try wire.values("hourly")
        let daily: [DailyForecast] = try wire.values("daily")
        let alerts: [WeatherAlert] = try wire.values("alerts")
        let nowcast: Nowcast? = try wire.optionalValue("nowcast")
        let failover: ProviderFailover? = try wire.optionalValue("failover")
        let alertService: AlertService? = try wire.optionalValue("alertService")
        let air: AirQuality? = try wire.optionalValue("air")
        let choice: ProviderChoice? = try wire.optionalValue("choice")
        let correction: TemperatureCorrection? = try wire.optionalValue("correction")
        self.init(
            provider: provider, attribution: attribution, fetchedAt: fetchedAt, expiresAt: expiresAt,
            timeZone: timeZone, utcOffsetSeconds: utcOffsetSeconds, current: current, hourly: hourly, daily: daily,
            alerts: alerts, nowcast: nowcast, failover: failover)
        self.alertService = alertService
        self.air = air
        self.choice = choice
        self.correction = correction
    }
}

extension CurrentConditions: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let time = try wire.double("time")
        let summary = try wire.string("summary")
        let icon = try wire.string("icon")
        let temperature = try wire.optionalDouble("temperature")
        let apparentTemperature = try wire.optionalDouble("apparentTemperature")
        let humidity = try wire.optionalDouble("humidity")
        let windSpeed = try wire.optionalDouble("windSpeed")
        let windGust = try wire.optionalDouble("windGust")
        let windBearing = try wire.optionalDouble("windBearing")
        let precipIntensity = try wire.optionalDouble("precipIntensity")
        let precipProbability = try wire.optionalDouble("precipProbability")
        let pressure = try wire.optionalDouble("pressure")
        let visibility = try wire.optionalDouble("visibility")
        let uvIndex = try wire.optionalDouble("uvIndex")
        let cloudCover = try wire.optionalDouble("cloudCover")
        let sources: [ValueSource]? = try wire.optionalValues("sources")
        self.init(
            time: time, summary: summary, icon: icon, temperature: temperature,
            apparentTemperature: apparentTemperature, humidity: humidity, windSpeed: windSpeed, windGust: windGust,
            windBearing: windBearing, precipIntensity: precipIntensity, precipProbability: precipProbability,
            pressure: pressure, visibility: visibility, uvIndex: uvIndex, cloudCover: cloudCover, sources: sources)
    }
}

extension ValueSource: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let values = try wire.strings("values")
        let station = try wire.string("station")
        let distanceMetres = try wire.optionalDouble("distanceMetres")
        let heightDifferenceMetres = try wire.optionalDouble("heightDifferenceMetres")
        self.init(
            values: values, station: station, distanceMetres: distanceMetres,
            heightDifferenceMetres: heightDifferenceMetres)
    }
}

extension HourlyForecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let time = try wire.double("time")
        let summary = try wire.string("summary")
        let icon = try wire.string("icon")
        let temperature = try wire.optionalDouble("temperature")
        let apparentTemperature = try wire.optionalDouble("apparentTemperature")
        let windSpeed = try wire.optionalDouble("windSpeed")
        let windBearing = try wire.optionalDouble("windBearing")
        let precipIntensity = try wire.optionalDouble("precipIntensity")
        let precipProbability = try wire.optionalDouble("precipProbability")
        self.init(
            time: time, summary: summary, icon: icon, temperature: temperature,
            apparentTemperature: apparentTemperature, windSpeed: windSpeed, windBearing: windBearing,
            precipIntensity: precipIntensity, precipProbability: precipProbability)
    }
}

extension DailyForecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let time = try wire.double("time")
        let summary = try wire.string("summary")
        let icon = try wire.string("icon")
        let temperatureMin = try wire.optionalDouble("temperatureMin")
        let temperatureMax = try wire.optionalDouble("temperatureMax")
        let windSpeed = try wire.optionalDouble("windSpeed")
        let precipProbability = try wire.optionalDouble("precipProbability")
        let precipAccumulation = try wire.optionalDouble("precipAccumulation")
        let sunrise = try wire.optionalDouble("sunrise")
        let sunset = try wire.optionalDouble("sunset")
        let polar: Polar? = try wire.optionalWireEnum("polar")
        self.init(
            time: time, summary: summary, icon: icon, temperatureMin: temperatureMin,
            temperatureMax: temperatureMax, windSpeed: windSpeed, precipProbability: precipProbability,
            precipAccumulation: precipAccumulation, sunrise: sunrise, sunset: sunset, polar: polar)
    }
}

extension WeatherAlert: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let title = try wire.string("title")
        let severity: AlertSeverity = try wire.wireEnum("severity")
        let regions = try wire.strings("regions")
        let start = try wire.optionalDouble("start")
        let end = try wire.optionalDouble("end")
        let description = try wire.string("description")
        let uri = try wire.string("uri")
        let id = try wire.optionalString("id")
        let event = try wire.optionalString("event")
        let onset = try wire.optionalDouble("onset")
        let urgency: AlertUrgency? = try wire.optionalWireEnum("urgency")
        let certainty: AlertCertainty? = try wire.optionalWireEnum("certainty")
        let messageType: AlertMessageType? = try wire.optionalWireEnum("messageType")
        let references = try wire.optionalStrings("references")
        let instruction = try wire.optionalString("instruction")
        let source = try wire.optionalString("source")
        let approximate = try wire.optionalBool("approximate")
        self.init(
            title: title, severity: severity, regions: regions, start: start, end: end, description: description,
            uri: uri, id: id, event: event, onset: onset, urgency: urgency, certainty: certainty,
            messageType: messageType, references: references, instruction: instruction, source: source,
            approximate: approximate)
    }
}

extension Nowcast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let time = try wire.double("time")
        let resolutionSeconds = try wire.int("resolutionSeconds")
        let coveredUntil = try wire.double("coveredUntil")
        let rainingNow = try wire.bool("rainingNow")
        let startsAt = try wire.optionalDouble("startsAt")
        let stopsAt = try wire.optionalDouble("stopsAt")
        let peakIntensity = try wire.optionalDouble("peakIntensity")
        let intensity: RainIntensity? = try wire.optionalWireEnum("intensity")
        let intermittent = try wire.bool("intermittent")
        let summary = try wire.string("summary")
        let steps: [NowcastStep] = try wire.values("steps")
        self.init(
            time: time, resolutionSeconds: resolutionSeconds, coveredUntil: coveredUntil, rainingNow: rainingNow,
            startsAt: startsAt, stopsAt: stopsAt, peakIntensity: peakIntensity, intensity: intensity,
            intermittent: intermittent, summary: summary, steps: steps)
    }
}

extension NowcastStep: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let time = try wire.double("time")
        let precipIntensity = try wire.optionalDouble("precipIntensity")
        let precipProbability = try wire.optionalDouble("precipProbability")
        self.init(time: time, precipIntensity: precipIntensity, precipProbability: precipProbability)
    }
}

extension ProviderFailover: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let provider = try wire.string("provider")
        let reason = try wire.string("reason")
        let wording: FailureWording? = try wire.optionalValue("wording")
        self.init(provider: provider, reason: reason, wording: wording)
    }
}

extension AirQuality: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let provider = try wire.string("provider")
        let attribution: Attribution = try wire.value("attribution")
        let fetchedAt = try wire.double("fetchedAt")
        let index: AirQualityIndex = try wire.wireEnum("index")
        let time = try wire.optionalDouble("time")
        let aqi = try wire.optionalInt("aqi")
        let category: AirQualityCategory? = try wire.optionalWireEnum("category")
        let level = try wire.optionalInt("level")
        let dominant: Pollutant? = try wire.optionalWireEnum("dominant")
        let pm25 = try wire.optionalDouble("pm25")
        let pm10 = try wire.optionalDouble("pm10")
        let o3 = try wire.optionalDouble("o3")
        let no2 = try wire.optionalDouble("no2")
        let uvIndex = try wire.optionalDouble("uvIndex")
        let uvCategory: UVCategory? = try wire.optionalWireEnum("uvCategory")
        let pollen: [Pollen] = try wire.values("pollen")
        let hourly: [AirHour] = try wire.values("hourly")
        let problem = try wire.optionalString("problem")
        let wording: FailureWording? = try wire.optionalValue("wording")
        self.init(
            provider: provider, attribution: attribution, fetchedAt: fetchedAt, index: index, time: time, aqi: aqi,
            dominant: dominant, pm25: pm25, pm10: pm10, o3: o3, no2: no2, uvIndex: uvIndex, pollen: pollen,
            hourly: hourly, problem: problem, wording: wording)
        // As stored, not derived again: what `Decodable` reads.
        self.category = category
        self.level = level
        self.uvCategory = uvCategory
    }
}

extension Pollen: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let kind: PollenKind = try wire.wireEnum("kind")
        let grains = try wire.double("grains")
        self.init(kind: kind, grains: grains)
    }
}

extension AirHour: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let time = try wire.double("time")
        let aqi = try wire.optionalInt("aqi")
        let uvIndex = try wire.optionalDouble("uvIndex")
        self.init(time: time, aqi: aqi, uvIndex: uvIndex)
    }
}

extension TemperatureCorrection: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let station = try wire.string("station")
        let values: [CorrectedTemperature] = try wire.values("values")
        self.init(station: station, values: values)
    }
}

extension CorrectedTemperature: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let value: Kind = try wire.wireEnum("value")
        let time = try wire.double("time")
        let provider = try wire.double("provider")
        let bias = try wire.double("bias")
        let pairs = try wire.int("pairs")
        self.init(value: value, time: time, provider: provider, bias: bias, pairs: pairs)
    }
}
