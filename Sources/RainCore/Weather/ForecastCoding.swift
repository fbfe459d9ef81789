/// The JSON form of a forecast: on the wire (GetForecast, WeatherUpdated) and
/// in the cache files. Field names follow the Forecast API where it has one.
extension Forecast {
    public var json: JSON {
        var object = JSONObject()
        object["provider"] = .string(provider)
        object["fetchedAt"] = .number(fetchedAt)
        object["expiresAt"] = expiresAt.map(JSON.number) ?? .null
        object["timeZone"] = .string(timeZone)
        object["utcOffsetSeconds"] = .int(utcOffsetSeconds)
        object["current"] = current?.json ?? .null
        object["hourly"] = .array(hourly.map(\.json))
        object["daily"] = .array(daily.map(\.json))
        object["alerts"] = .array(alerts.map(\.json))
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "forecast")
        self.init(
            provider: try reader.string("provider"),
            fetchedAt: try reader.double("fetchedAt"),
            expiresAt: try reader.optionalDouble("expiresAt"),
            timeZone: try reader.optionalString("timeZone") ?? "",
            utcOffsetSeconds: try reader.optionalInt("utcOffsetSeconds") ?? 0,
            current: try reader.optional("current").map { value throws(WireDecodingError) in
                try CurrentConditions(json: value)
            },
            hourly: try reader.array("hourly").map { value throws(WireDecodingError) in
                try HourlyForecast(json: value)
            },
            daily: try reader.array("daily").map { value throws(WireDecodingError) in
                try DailyForecast(json: value)
            },
            alerts: try reader.array("alerts").map { value throws(WireDecodingError) in
                try WeatherAlert(json: value)
            })
    }
}

extension CurrentConditions {
    public var json: JSON {
        var object = JSONObject()
        object["time"] = .number(time)
        object["summary"] = .string(summary)
        object["icon"] = .string(icon)
        object["temperature"] = JSON(temperature)
        object["apparentTemperature"] = JSON(apparentTemperature)
        object["humidity"] = JSON(humidity)
        object["windSpeed"] = JSON(windSpeed)
        object["windGust"] = JSON(windGust)
        object["windBearing"] = JSON(windBearing)
        object["precipIntensity"] = JSON(precipIntensity)
        object["precipProbability"] = .number(precipProbability)
        object["pressure"] = JSON(pressure)
        object["visibility"] = JSON(visibility)
        object["uvIndex"] = JSON(uvIndex)
        object["cloudCover"] = JSON(cloudCover)
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "current")
        self.init(
            time: try reader.double("time"),
            summary: try reader.optionalString("summary") ?? "",
            icon: try reader.optionalString("icon") ?? "",
            temperature: try reader.optionalDouble("temperature"),
            apparentTemperature: try reader.optionalDouble("apparentTemperature"),
            humidity: try reader.optionalDouble("humidity"),
            windSpeed: try reader.optionalDouble("windSpeed"),
            windGust: try reader.optionalDouble("windGust"),
            windBearing: try reader.optionalDouble("windBearing"),
            precipIntensity: try reader.optionalDouble("precipIntensity"),
            precipProbability: try reader.optionalDouble("precipProbability") ?? 0,
            pressure: try reader.optionalDouble("pressure"),
            visibility: try reader.optionalDouble("visibility"),
            uvIndex: try reader.optionalDouble("uvIndex"),
            cloudCover: try reader.optionalDouble("cloudCover"))
    }
}

extension HourlyForecast {
    public var json: JSON {
        var object = JSONObject()
        object["time"] = .number(time)
        object["summary"] = .string(summary)
        object["icon"] = .string(icon)
        object["temperature"] = JSON(temperature)
        object["apparentTemperature"] = JSON(apparentTemperature)
        object["windSpeed"] = JSON(windSpeed)
        object["windBearing"] = JSON(windBearing)
        object["precipIntensity"] = JSON(precipIntensity)
        object["precipProbability"] = .number(precipProbability)
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "hourly")
        self.init(
            time: try reader.double("time"),
            summary: try reader.optionalString("summary") ?? "",
            icon: try reader.optionalString("icon") ?? "",
            temperature: try reader.optionalDouble("temperature"),
            apparentTemperature: try reader.optionalDouble("apparentTemperature"),
            windSpeed: try reader.optionalDouble("windSpeed"),
            windBearing: try reader.optionalDouble("windBearing"),
            precipIntensity: try reader.optionalDouble("precipIntensity"),
            precipProbability: try reader.optionalDouble("precipProbability") ?? 0)
    }
}

extension DailyForecast {
    public var json: JSON {
        var object = JSONObject()
        object["time"] = .number(time)
        object["summary"] = .string(summary)
        object["icon"] = .string(icon)
        object["temperatureMin"] = JSON(temperatureMin)
        object["temperatureMax"] = JSON(temperatureMax)
        object["windSpeed"] = JSON(windSpeed)
        object["precipProbability"] = .number(precipProbability)
        object["precipAccumulation"] = JSON(precipAccumulation)
        object["sunrise"] = JSON(sunrise)
        object["sunset"] = JSON(sunset)
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "daily")
        self.init(
            time: try reader.double("time"),
            summary: try reader.optionalString("summary") ?? "",
            icon: try reader.optionalString("icon") ?? "",
            temperatureMin: try reader.optionalDouble("temperatureMin"),
            temperatureMax: try reader.optionalDouble("temperatureMax"),
            windSpeed: try reader.optionalDouble("windSpeed"),
            precipProbability: try reader.optionalDouble("precipProbability") ?? 0,
            precipAccumulation: try reader.optionalDouble("precipAccumulation"),
            sunrise: try reader.optionalDouble("sunrise"),
            sunset: try reader.optionalDouble("sunset"))
    }
}

extension WeatherAlert {
    public var json: JSON {
        var object = JSONObject()
        object["title"] = .string(title)
        object["severity"] = .string(severity)
        object["regions"] = .array(regions.map(JSON.string))
        object["start"] = JSON(start)
        object["end"] = JSON(end)
        object["description"] = .string(description)
        object["uri"] = .string(uri)
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "alert")
        self.init(
            title: try reader.string("title"),
            severity: try reader.optionalString("severity") ?? "",
            regions: try reader.array("regions").compactMap(\.stringValue),
            start: try reader.optionalDouble("start"),
            end: try reader.optionalDouble("end"),
            description: try reader.optionalString("description") ?? "",
            uri: try reader.optionalString("uri") ?? "")
    }
}

extension JSON {
    /// A number, or null when absent.
    public init(_ number: Double?) {
        self = number.map(JSON.number) ?? .null
    }
}
