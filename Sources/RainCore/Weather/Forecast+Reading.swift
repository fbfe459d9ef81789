/// The forecast read field by field from a `JSONTape` (`WireReadable`),
/// with `Decodable`'s rules: raind reads its cached forecasts this way as
/// it starts, where `Decodable`'s generic containers, built by the runtime
/// at their first use, cost more than the reading itself. `WireReadingTests`
/// holds each reader to what `Decodable` reads.

extension Forecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        provider = try wire.string("provider")
        attribution = try wire.value("attribution")
        fetchedAt = try wire.double("fetchedAt")
        expiresAt = try wire.optionalDouble("expiresAt")
        timeZone = try wire.string("timeZone")
        utcOffsetSeconds = try wire.int("utcOffsetSeconds")
        current = try wire.optionalValue("current")
        hourly = try wire.values("hourly")
        daily = try wire.values("daily")
        alerts = try wire.values("alerts")
        nowcast = try wire.optionalValue("nowcast")
        failover = try wire.optionalValue("failover")
        alertService = try wire.optionalValue("alertService")
        air = try wire.optionalValue("air")
        choice = try wire.optionalValue("choice")
        correction = try wire.optionalValue("correction")
    }
}

extension CurrentConditions: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        time = try wire.double("time")
        summary = try wire.string("summary")
        icon = try wire.string("icon")
        temperature = try wire.optionalDouble("temperature")
        apparentTemperature = try wire.optionalDouble("apparentTemperature")
        humidity = try wire.optionalDouble("humidity")
        windSpeed = try wire.optionalDouble("windSpeed")
        windGust = try wire.optionalDouble("windGust")
        windBearing = try wire.optionalDouble("windBearing")
        precipIntensity = try wire.optionalDouble("precipIntensity")
        precipProbability = try wire.optionalDouble("precipProbability")
        pressure = try wire.optionalDouble("pressure")
        visibility = try wire.optionalDouble("visibility")
        uvIndex = try wire.optionalDouble("uvIndex")
        cloudCover = try wire.optionalDouble("cloudCover")
        sources = try wire.optionalValues("sources")
    }
}

extension ValueSource: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        values = try wire.strings("values")
        station = try wire.string("station")
        distanceMetres = try wire.optionalDouble("distanceMetres")
        heightDifferenceMetres = try wire.optionalDouble("heightDifferenceMetres")
    }
}

extension HourlyForecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        time = try wire.double("time")
        summary = try wire.string("summary")
        icon = try wire.string("icon")
        temperature = try wire.optionalDouble("temperature")
        apparentTemperature = try wire.optionalDouble("apparentTemperature")
        windSpeed = try wire.optionalDouble("windSpeed")
        windBearing = try wire.optionalDouble("windBearing")
        precipIntensity = try wire.optionalDouble("precipIntensity")
        precipProbability = try wire.optionalDouble("precipProbability")
    }
}

extension DailyForecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        time = try wire.double("time")
        summary = try wire.string("summary")
        icon = try wire.string("icon")
        temperatureMin = try wire.optionalDouble("temperatureMin")
        temperatureMax = try wire.optionalDouble("temperatureMax")
        windSpeed = try wire.optionalDouble("windSpeed")
        precipProbability = try wire.optionalDouble("precipProbability")
        precipAccumulation = try wire.optionalDouble("precipAccumulation")
        sunrise = try wire.optionalDouble("sunrise")
        sunset = try wire.optionalDouble("sunset")
        polar = try wire.optionalWireEnum("polar")
    }
}

extension WeatherAlert: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        title = try wire.string("title")
        severity = try wire.wireEnum("severity")
        regions = try wire.strings("regions")
        start = try wire.optionalDouble("start")
        end = try wire.optionalDouble("end")
        description = try wire.string("description")
        uri = try wire.string("uri")
        id = try wire.optionalString("id")
        event = try wire.optionalString("event")
        onset = try wire.optionalDouble("onset")
        urgency = try wire.optionalWireEnum("urgency")
        certainty = try wire.optionalWireEnum("certainty")
        messageType = try wire.optionalWireEnum("messageType")
        references = try wire.optionalStrings("references")
        instruction = try wire.optionalString("instruction")
        source = try wire.optionalString("source")
        approximate = try wire.optionalBool("approximate")
    }
}

extension Nowcast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        time = try wire.double("time")
        resolutionSeconds = try wire.int("resolutionSeconds")
        coveredUntil = try wire.double("coveredUntil")
        rainingNow = try wire.bool("rainingNow")
        startsAt = try wire.optionalDouble("startsAt")
        stopsAt = try wire.optionalDouble("stopsAt")
        peakIntensity = try wire.optionalDouble("peakIntensity")
        intensity = try wire.optionalWireEnum("intensity")
        intermittent = try wire.bool("intermittent")
        summary = try wire.string("summary")
        steps = try wire.values("steps")
    }
}

extension NowcastStep: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        time = try wire.double("time")
        precipIntensity = try wire.optionalDouble("precipIntensity")
        precipProbability = try wire.optionalDouble("precipProbability")
    }
}

extension ProviderFailover: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        provider = try wire.string("provider")
        reason = try wire.string("reason")
        wording = try wire.optionalValue("wording")
    }
}

extension AirQuality: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        provider = try wire.string("provider")
        attribution = try wire.value("attribution")
        fetchedAt = try wire.double("fetchedAt")
        index = try wire.wireEnum("index")
        time = try wire.optionalDouble("time")
        aqi = try wire.optionalInt("aqi")
        category = try wire.optionalWireEnum("category")
        level = try wire.optionalInt("level")
        dominant = try wire.optionalWireEnum("dominant")
        pm25 = try wire.optionalDouble("pm25")
        pm10 = try wire.optionalDouble("pm10")
        o3 = try wire.optionalDouble("o3")
        no2 = try wire.optionalDouble("no2")
        uvIndex = try wire.optionalDouble("uvIndex")
        uvCategory = try wire.optionalWireEnum("uvCategory")
        pollen = try wire.values("pollen")
        hourly = try wire.values("hourly")
        problem = try wire.optionalString("problem")
        wording = try wire.optionalValue("wording")
    }
}

extension Pollen: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        kind = try wire.wireEnum("kind")
        grains = try wire.double("grains")
    }
}

extension AirHour: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        time = try wire.double("time")
        aqi = try wire.optionalInt("aqi")
        uvIndex = try wire.optionalDouble("uvIndex")
    }
}

extension TemperatureCorrection: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        station = try wire.string("station")
        values = try wire.values("values")
    }
}

extension CorrectedTemperature: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        value = try wire.wireEnum("value")
        time = try wire.double("time")
        provider = try wire.double("provider")
        bias = try wire.double("bias")
        pairs = try wire.int("pairs")
    }
}
