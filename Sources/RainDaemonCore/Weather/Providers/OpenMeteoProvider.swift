import RainCore

/// Open-Meteo (https://open-meteo.com), raind's default provider: free, no
/// key. Builds the request path and normalizes the response into a
/// `Forecast` in SI units.
///
/// The request asks for wind in m/s and Unix times (`timeformat=unixtime`),
/// which spares raind time zone arithmetic; the parser nevertheless reads
/// what the response says rather than what was asked: every value is
/// converted from the unit named in its `*_units` block (°F, km/h, mp/h, kn,
/// inch, ft, ...), and times may be Unix seconds or ISO 8601 local times
/// (`2026-10-03T12:30`, made absolute with `utc_offset_seconds`). Nulls,
/// absent variables, absent blocks and unknown fields are tolerated; both the
/// `current` block and the older `current_weather` block are understood.
///
/// Two readings follow the API documentation rather than the row's time:
/// hourly `precipitation` and `precipitation_probability` at time T cover
/// the hour *ending* at T ("preceding hour sum"), so each row of the model
/// takes them from the next row and shows the rain of the hour it starts;
/// and a day whose `sunrise` equals its `sunset` is polar night, one whose
/// sunset is a day after its sunrise polar day (the server's convention since
/// open-meteo/open-meteo#844).
public enum OpenMeteo {
    /// The provider's name in configuration and in `Forecast.provider`.
    public static let providerName = "open-meteo"

    /// Where requests go unless `[Provider] BaseURL=` says otherwise.
    public static let defaultBaseURL = "https://api.open-meteo.com"

    /// Variables requested for `current`.
    public static let currentVariables = [
        "temperature_2m", "apparent_temperature", "relative_humidity_2m", "is_day", "precipitation",
        "precipitation_probability", "weather_code", "cloud_cover", "pressure_msl", "wind_speed_10m",
        "wind_direction_10m", "wind_gusts_10m", "visibility", "uv_index",
    ]

    /// Variables requested for `hourly` (48 hours from the current hour).
    public static let hourlyVariables = [
        "temperature_2m", "apparent_temperature", "precipitation_probability", "precipitation",
        "weather_code", "wind_speed_10m", "wind_direction_10m", "is_day",
    ]

    /// Variables requested for `daily` (7 days from today).
    public static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
        "precipitation_probability_max", "wind_speed_10m_max", "sunrise", "sunset",
    ]

    /// Variables requested for `minutely_15`: the nowcast's data.
    public static let minutelyVariables = ["precipitation"]

    /// Quarter hours of `minutely_15` requested: ten rows make nine steps
    /// (2 h 15 min from the current quarter), because a step's rain arrives
    /// in the row after it, as for hours.
    static let requestedQuarterHours = 10

    /// Hours of hourly forecast shown.
    public static let forecastHours = 48
    /// Hours requested: one more than shown, because an hour's rain arrives
    /// in the row of the hour after it.
    static var requestedHours: Int { forecastHours + 1 }
    /// Days of daily forecast requested.
    public static let forecastDays = 7

    /// How many calls Open-Meteo counts for raind's forecast request. Its
    /// pricing FAQ (https://open-meteo.com/en/pricing): a request with more
    /// than 10 weather variables, or more than 2 weeks of data, counts as
    /// several calls, fractionally (15 variables are 1.5 calls). raind asks
    /// for 31 variables (one of them the nowcast's) over 7 days: 3.1 calls.
    public static var callsPerRequest: Double {
        countedCalls(
            variables: currentVariables.count + hourlyVariables.count + dailyVariables.count
                + minutelyVariables.count,
            days: Double(forecastDays))
    }

    /// The FAQ's rule: variables in tens times fortnights of data, never less than 1.
    public static func countedCalls(variables: Int, days: Double) -> Double {
        max(1, Double(variables) / 10) * max(1, days / 14)
    }

    /// Path and query of the forecast request, to append to the base URL
    /// (`https://api.open-meteo.com` + `/v1/forecast?latitude=52.22&...`).
    /// Coordinates are on the request grid (`ProviderQuery.gridDigits`
    /// decimals), trailing zeros dropped. `timezone=auto` makes Open-Meteo report the place's
    /// time zone and UTC offset; `wind_speed_unit=ms` (the current spelling
    /// of `windspeed_unit`) and `timeformat=unixtime` keep the response close
    /// to the model.
    public static func forecastPath(latitude: Double, longitude: Double) -> String {
        let query: [(String, String)] = [
            ("latitude", ProviderQuery.coordinate(latitude)),
            ("longitude", ProviderQuery.coordinate(longitude)),
            ("current", currentVariables.joined(separator: ",")),
            ("hourly", hourlyVariables.joined(separator: ",")),
            ("daily", dailyVariables.joined(separator: ",")),
            ("minutely_15", minutelyVariables.joined(separator: ",")),
            ("forecast_minutely_15", String(requestedQuarterHours)),
            ("forecast_hours", String(requestedHours)),
            ("forecast_days", String(forecastDays)),
            ("timezone", "auto"),
            ("wind_speed_unit", "ms"),
            ("timeformat", "unixtime"),
        ]
        return "/v1/forecast?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Normalizes a `/v1/forecast` response body. `fetchedAt` is when raind
    /// received it (Unix seconds). Throws when the body is not JSON, is an
    /// Open-Meteo error object (`{"error": true, "reason": ...}`), holds none
    /// of `current`, `current_weather`, `hourly`, `daily`, or has a field of
    /// the wrong type or in an unknown unit. `leftOut` is told of a part that
    /// was present but unusable and left out (the nowcast), and why.
    public static func parseForecast(
        _ body: [UInt8], fetchedAt: Double, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError) -> Forecast {
        let root = try ProviderJSON.parse(body, provider: providerName, keepingElements: ForecastHorizon.arrayElements)
        if root.value["error"]?.boolValue == true {
            throw root.error(.providerReported(try root.string("reason") ?? "no reason given"), at: "reason")
        }
        let offset = try ProviderOffset.seconds(root["utc_offset_seconds"], scale: 1) ?? 0
        var forecast = Forecast(
            provider: providerName, fetchedAt: fetchedAt, timeZone: try root.string("timezone") ?? "",
            utcOffsetSeconds: offset)

        let hourlyBlock = try root.object("hourly")
        let dailyBlock = try root.object("daily")
        let currentBlock = try root.object("current")
        let legacyBlock = try root.object("current_weather")
        guard hourlyBlock != nil || dailyBlock != nil || currentBlock != nil || legacyBlock != nil else {
            throw root.error(.missing, at: "current, hourly, daily")
        }

        if let hourlyBlock {
            let table = try OpenMeteoTable(block: hourlyBlock, units: try root.object("hourly_units"), offset: offset)
            forecast.hourly = try parseHourly(table)
        }
        if let dailyBlock {
            let table = try OpenMeteoTable(block: dailyBlock, units: try root.object("daily_units"), offset: offset)
            forecast.daily = try parseDaily(table)
        }
        if let currentBlock {
            let table = try OpenMeteoTable(
                single: currentBlock, units: try root.object("current_units"), offset: offset)
            forecast.current = try parseCurrent(table)
        } else if let legacyBlock {
            let table = try OpenMeteoTable(
                single: legacyBlock, units: try root.object("current_weather_units"), offset: offset)
            forecast.current = try parseLegacyCurrent(table)
        }
        forecast.nowcast = nowcast(root, offset: offset, now: fetchedAt, leftOut: leftOut)
        return forecast
    }

    /// The nowcast from `minutely_15`. Each row's `precipitation` is the sum
    /// of the quarter hour *before* it ("preceding 15 minutes sum"), so a
    /// step takes the next row's value, scaled to mm/h. Every value is
    /// checked like a client's input: null, -999, negative, absurd and
    /// missing values (a short array) are unknown, which ends the nowcast's
    /// data there. A block that cannot be read at all (wrong types, null
    /// times, an unknown unit, fewer than two rows, rows not 1 to 60 minutes
    /// apart) leaves the nowcast out, says why to `leftOut`, and keeps the
    /// rest of the forecast: the nowcast is an extra, never a reason to lose
    /// the forecast.
    static func nowcast(_ root: ProviderJSON, offset: Int, now: Double, leftOut: (String) -> Void) -> Nowcast? {
        func unusable(_ why: String) -> Nowcast? {
            leftOut(
                "\(providerName) sent a nowcast (minutely_15) raind cannot use: \(why); the forecast is kept without it"
            )
            return nil
        }
        do throws(ProviderParseError) {
            guard let block = try root.object("minutely_15") else { return nil }
            let table = try OpenMeteoTable(block: block, units: try root.object("minutely_15_units"), offset: offset)
            let sums = try table.column("precipitation", .quantity(.precipitationIntensity))
            let times = table.times
            guard times.count >= 2 else { return unusable("\(times.count) row(s), at least 2 needed") }
            let step = times[1] - times[0]
            guard step >= 60, step <= 3600 else { return unusable("rows \(step) s apart, 60 to 3600 expected") }
            let steps = times.indices.dropLast().map { index in
                let next = index + 1
                let follows = abs(times[next] - times[index] - step) < 1
                let rate = follows ? sums[next].map { $0 * 3600 / step } : nil
                return NowcastStep(time: times[index], precipIntensity: Nowcast.checkedIntensity(rate))
            }
            return Nowcast(steps: steps, resolutionSeconds: Int(step), now: now)
        } catch {
            return unusable("\(error)")
        }
    }

    // MARK: - Blocks

    private static func parseHourly(_ table: OpenMeteoTable) throws(ProviderParseError) -> [HourlyForecast] {
        let temperature = try table.column("temperature_2m", .quantity(.temperature))
        let apparent = try table.column("apparent_temperature", .quantity(.temperature))
        let probability = try table.column("precipitation_probability", .percent)
        let precipitation = try table.column("precipitation", .quantity(.precipitationIntensity))
        let code = try table.column("weather_code", .plain, alias: "weathercode")
        let wind = try table.column("wind_speed_10m", .quantity(.windSpeed), alias: "windspeed_10m")
        let bearing = try table.column("wind_direction_10m", .plain, alias: "winddirection_10m")
        let isDay = try table.column("is_day", .plain)
        return table.times.indices.map { index in
            let weather = code[index].flatMap(WeatherCode.init(number:))
            // The rain of the hour starting at this row is reported at the
            // next row's time; without that row it is unknown.
            let next = index + 1
            let hasNext = next < table.times.count && table.times[next] == table.times[index] + 3600
            return HourlyForecast(
                time: table.times[index], summary: weather?.summary ?? "",
                icon: weather?.icon(isDay: isDay[index].map { $0 != 0 }) ?? "",
                temperature: temperature[index], apparentTemperature: apparent[index],
                windSpeed: wind[index], windBearing: bearing[index],
                // An hourly sum in mm over one hour is a rate in mm/h.
                precipIntensity: hasNext ? precipitation[next] : nil,
                precipProbability: hasNext ? probability[next] : nil)
        }
    }

    private static func parseDaily(_ table: OpenMeteoTable) throws(ProviderParseError) -> [DailyForecast] {
        let code = try table.column("weather_code", .plain, alias: "weathercode")
        let maximum = try table.column("temperature_2m_max", .quantity(.temperature))
        let minimum = try table.column("temperature_2m_min", .quantity(.temperature))
        let wind = try table.column("wind_speed_10m_max", .quantity(.windSpeed), alias: "windspeed_10m_max")
        let probability = try table.column("precipitation_probability_max", .percent)
        let total = try table.column("precipitation_sum", .quantity(.precipitationAccumulation))
        let sunrise = try table.column("sunrise", .time)
        let sunset = try table.column("sunset", .time)
        return table.times.indices.map { index in
            let weather = code[index].flatMap(WeatherCode.init(number:))
            let sun = self.sun(sunrise: sunrise[index], sunset: sunset[index], day: table.times[index])
            return DailyForecast(
                time: table.times[index], summary: weather?.summary ?? "", icon: weather?.icon() ?? "",
                temperatureMin: minimum[index], temperatureMax: maximum[index], windSpeed: wind[index],
                precipProbability: probability[index], precipAccumulation: total[index],
                sunrise: sun.sunrise, sunset: sun.sunset, polar: sun.polar)
        }
    }

    /// Sunrise and sunset as the server writes them for polar days: sunrise
    /// at local midnight and sunset equal to it (polar night) or a day later
    /// (polar day, 23 to 25 hours across a clock change). Older servers wrote
    /// both as 1970-01-01 for either: unknown.
    static func sun(
        sunrise: Double?, sunset: Double?, day: Double
    )
        -> (sunrise: Double?, sunset: Double?, polar: Polar?)
    {
        guard let sunrise, let sunset else { return (sunrise, sunset, nil) }
        if abs(sunrise - day) > 2 * 86_400 && sunrise == sunset { return (nil, nil, nil) }
        if sunrise == sunset { return (nil, nil, .night) }
        if sunset - sunrise >= 23 * 3600 { return (nil, nil, .day) }
        return (sunrise, sunset, nil)
    }

    /// `current`: what it holds and nothing else. A variable it lacks stays
    /// unknown; the hour's forecast is not put in its place (views show the
    /// hour in progress, marked as a forecast, when there is no current block).
    private static func parseCurrent(_ table: OpenMeteoTable) throws(ProviderParseError) -> CurrentConditions? {
        guard let time = table.times.first else { return nil }
        func value(
            _ name: String, _ kind: OpenMeteoTable.Kind, alias: String? = nil
        ) throws(ProviderParseError)
            -> Double?
        {
            try table.column(name, kind, alias: alias).first ?? nil
        }
        let weather = try value("weather_code", .plain, alias: "weathercode").flatMap(WeatherCode.init(number:))
        let isDay = try value("is_day", .plain).map { $0 != 0 }
        // Current sums cover the step before `time` (`interval` seconds,
        // 15 minutes today); scale to a rate per hour.
        let interval = try table.block.number("interval").flatMap { $0 > 0 ? $0 : nil } ?? 3600
        let precipitation = try value("precipitation", .quantity(.precipitationIntensity)).map {
            $0 * 3600 / interval
        }
        return CurrentConditions(
            time: time, summary: weather?.summary ?? "", icon: weather?.icon(isDay: isDay) ?? "",
            temperature: try value("temperature_2m", .quantity(.temperature), alias: "temperature"),
            apparentTemperature: try value("apparent_temperature", .quantity(.temperature)),
            humidity: try value("relative_humidity_2m", .percent),
            windSpeed: try value("wind_speed_10m", .quantity(.windSpeed), alias: "windspeed_10m"),
            windGust: try value("wind_gusts_10m", .quantity(.windSpeed), alias: "windgusts_10m"),
            windBearing: try value("wind_direction_10m", .plain, alias: "winddirection_10m"),
            precipIntensity: precipitation,
            precipProbability: try value("precipitation_probability", .percent),
            pressure: try value("pressure_msl", .quantity(.pressure)),
            visibility: try value("visibility", .quantity(.visibility)),
            uvIndex: try value("uv_index", .plain),
            cloudCover: try value("cloud_cover", .percent, alias: "cloudcover"))
    }

    /// `current_weather` (Open-Meteo's older form): temperature, wind, code,
    /// day flag. It has no feels-like nor rain: those stay unknown.
    private static func parseLegacyCurrent(_ table: OpenMeteoTable) throws(ProviderParseError) -> CurrentConditions? {
        guard let time = table.times.first else { return nil }
        func value(_ name: String, _ kind: OpenMeteoTable.Kind) throws(ProviderParseError) -> Double? {
            try table.column(name, kind).first ?? nil
        }
        let weather = try value("weathercode", .plain).flatMap(WeatherCode.init(number:))
        let isDay = try value("is_day", .plain).map { $0 != 0 }
        return CurrentConditions(
            time: time, summary: weather?.summary ?? "", icon: weather?.icon(isDay: isDay) ?? "",
            temperature: try value("temperature", .quantity(.temperature)),
            windSpeed: try value("windspeed", .quantity(.windSpeed)),
            windBearing: try value("winddirection", .plain))
    }
}

/// Open-Meteo as a `WeatherProvider`: free and keyless, counted per day in
/// weighted calls (`OpenMeteo.callsPerRequest`).
public struct OpenMeteoProvider: SingleRequestProvider {
    public init() {}

    public var name: ProviderName { .openMeteo }
    public var defaultBaseURL: String { OpenMeteo.defaultBaseURL }
    // CC BY 4.0, as https://open-meteo.com/en/licence asks.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Weather data by Open-Meteo.com (CC BY 4.0)"), url: "https://open-meteo.com/")
    }

    /// The free API allows 10,000 calls a day per address; raind's default
    /// daily budget (1,500) keeps well inside it. Its terms also allow 600
    /// calls a minute (and 5,000 an hour, which the daily budget keeps
    /// inside): more than 193 places refreshed at once pass that, so a
    /// large refresh is paced. `minutely_15` comes in quarter hours.
    public var terms: ProviderTerms {
        ProviderTerms(
            needsKey: false, coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: OpenMeteo.callsPerRequest, period: .day, freeCalls: nil, callsPerMinute: 600),
            nowcastIntervalMinutes: 15)
    }

    /// Always in SI (wind in m/s) with Unix times, whatever `units` are.
    public func request(for place: Location, units: UnitSystem, key: String?) -> ProviderRequest {
        ProviderRequest(path: OpenMeteo.forecastPath(latitude: place.latitude, longitude: place.longitude))
    }

    /// Its answers name their own zone; days need no zone to be derived.
    public func parseForecast(
        _ body: [UInt8], zone: TimeZoneRules?, fetchedAt: Double, leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast {
        try OpenMeteo.parseForecast(body, fetchedAt: fetchedAt, leftOut: leftOut)
    }

    /// `{"error": true, "reason": "..."}`; a 429's reason names the limit hit.
    public func refusal(in body: [UInt8], now: Double) -> ProviderRefusal? {
        OpenMeteoErrorReply(body: body).map { ProviderRefusal(reason: $0.reason, retryAfter: $0.retryAfter(now: now)) }
    }
}

extension ProviderName {
    public static let openMeteo = ProviderName(declaring: OpenMeteo.providerName)
}
