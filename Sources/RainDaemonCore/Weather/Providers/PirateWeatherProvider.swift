import RainCore

/// Pirate Weather (https://pirateweather.net), which speaks the Forecast API
/// (Dark Sky) format. Needs an API key, which goes into the request path:
/// callers must never log the path unredacted.
///
/// The request asks for SI units, but the parser converts whatever
/// `flags.units` says (`us`, `si`, `ca`, `uk2`, `uk`) so recorded responses,
/// proxies and older servers all work:
///
/// | units | temperature | wind | precipitation | accumulation | visibility |
/// | --- | --- | --- | --- | --- | --- |
/// | us | °F | mph | in/h | in | mi |
/// | si | °C | m/s | mm/h | cm | km |
/// | ca | °C | km/h | mm/h | cm | km |
/// | uk2 | °C | mph | mm/h | cm | mi |
///
/// Pressure is hPa (millibars) in every system. Accumulation follows the
/// Forecast API's documented units (centimetres outside `us`) and is stored
/// in millimetres. A missing `flags.units` means `us`, the API's default.
///
/// The API writes `-999` for every number it does not have (its
/// documentation says missing data is -999); raind reads it as absent wherever a number can
/// be: data points, `uvIndex`, `precipProbability`, sunrise/sunset and alert
/// times (an alert whose `expires` is -999 has no known end).
public enum PirateWeather {
    /// The provider's name in configuration and in `Forecast.provider`.
    public static let providerName = "pirateweather"

    /// The number the API writes for a missing value.
    static let missingMarker = -999.0

    /// Where requests go unless `[Provider] BaseURL=` says otherwise.
    public static let defaultBaseURL = "https://api.pirateweather.net"

    /// Path and query of the forecast request, to append to the base URL:
    /// `/forecast/KEY/LAT,LON?units=si`, every block included (`minutely`
    /// feeds the nowcast). The key is percent-encoded; coordinates are on
    /// the request grid (`ProviderQuery.gridDigits`). With no key
    /// (`[Provider] Proxy=yes`: a site proxy adds its own) the path is
    /// `/forecast/LAT,LON?...`.
    public static func forecastPath(apiKey: String?, latitude: Double, longitude: Double) -> String {
        "/forecast/" + (apiKey.map { ProviderQuery.percentEncoded($0) + "/" } ?? "")
            + "\(ProviderQuery.coordinate(latitude)),\(ProviderQuery.coordinate(longitude))"
            + "?units=si"
    }

    /// Normalizes a forecast response body into SI units. `fetchedAt` is when
    /// raind received it (Unix seconds). Throws when the body is not JSON,
    /// is an error object (`{"error": ...}` / `{"message": ...}`), holds none
    /// of `currently`, `hourly`, `daily`, names unknown units, or has a
    /// field of the wrong type. A missing `precipProbability` is 0 (the API
    /// omits it when it is 0); -999 makes it unknown (nil). Alerts are ordered
    /// most severe first. `leftOut` is told of a part that was present but
    /// unusable and left out (the nowcast), and why.
    public static func parseForecast(
        _ body: [UInt8], fetchedAt: Double, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError) -> Forecast {
        let root = try ProviderJSON.parse(body, provider: providerName, keepingElements: ForecastHorizon.arrayElements)
        let currently = try root.object("currently")
        let hourly = try root.object("hourly")
        let daily = try root.object("daily")
        guard currently != nil || hourly != nil || daily != nil else {
            for key in ["error", "message", "detail"] {
                if let message = root.value[key]?.stringValue {
                    throw root.error(.providerReported(message), at: key)
                }
            }
            throw root.error(.missing, at: "currently, hourly, daily")
        }

        let unitsName = try root.object("flags")?.string("units") ?? "us"
        guard let units = PirateWeatherUnits(flag: unitsName) else {
            throw root.error(
                .invalidValue("unknown unit system \"\(unitsName)\" (expected us, si, ca, uk2)"), at: "flags.units")
        }
        var forecast = Forecast(
            provider: providerName, fetchedAt: fetchedAt, timeZone: try root.string("timezone") ?? "",
            utcOffsetSeconds: try ProviderOffset.seconds(root["offset"], scale: 3600) ?? 0)
        let latitude = try root.number("latitude").flatMap { $0 == missingMarker ? nil : $0 }
        let reader = PointReader(units: units, latitude: latitude)
        if let currently {
            forecast.current = try reader.current(currently)
        }
        if let hourly {
            forecast.hourly = try (hourly.array("data") ?? []).map { point throws(ProviderParseError) in
                try reader.hour(point)
            }
        }
        if let daily {
            forecast.daily = try (daily.array("data") ?? []).map { point throws(ProviderParseError) in
                try reader.day(point)
            }
        }
        let alerts = try (root.array("alerts") ?? []).map { alert throws(ProviderParseError) in
            try reader.alert(alert)
        }
        forecast.nowcast = nowcast(root, reader: reader, now: fetchedAt, leftOut: leftOut)
        // Most severe first; equal severities keep the provider's order.
        forecast.alerts = alerts.enumerated().sorted {
            ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset)
        }
        .map(\.element)
        return forecast
    }

    /// The nowcast from `minutely.data`: one point a minute for the next
    /// hour, each `precipIntensity` (the rate in that minute) and
    /// `precipProbability`. Checked like a client's input: -999, null,
    /// negative and absurd values are unknown, which ends the nowcast's data
    /// there; a left-out probability is 0 as everywhere in the API. A block
    /// that cannot be read (wrong types, a point without a time, fewer than
    /// two points, points not 1 to 60 minutes apart) leaves the nowcast out,
    /// says why to `leftOut`, and keeps the rest of the forecast.
    private static func nowcast(
        _ root: ProviderJSON, reader: PointReader, now: Double, leftOut: (String) -> Void
    ) -> Nowcast? {
        func unusable(_ why: String) -> Nowcast? {
            leftOut(
                "\(providerName) sent a nowcast (minutely) raind cannot use: \(why); the forecast is kept without it")
            return nil
        }
        do throws(ProviderParseError) {
            guard let points = try root.object("minutely")?.array("data") else { return nil }
            guard points.count >= 2 else { return unusable("\(points.count) point(s), at least 2 needed") }
            let steps = try points.map { point throws(ProviderParseError) in
                NowcastStep(
                    time: try reader.time(point),
                    precipIntensity: Nowcast.checkedIntensity(
                        try reader.measure(point, "precipIntensity", .precipitationIntensity)),
                    precipProbability: Nowcast.checkedProbability(try reader.probability(point)))
            }
            let resolution = steps[1].time - steps[0].time
            guard resolution >= 60, resolution <= 3600 else {
                return unusable("points \(resolution) s apart, 60 to 3600 expected")
            }
            return Nowcast(steps: steps, resolutionSeconds: Int(resolution), now: now)
        } catch {
            return unusable("\(error)")
        }
    }

    /// Reads data points in one unit system into SI values.
    private struct PointReader {
        let units: PirateWeatherUnits
        /// The place's latitude, which tells polar day from polar night when the API has no sunrise or sunset.
        let latitude: Double?

        /// The number `key`: nil when absent, null or the -999 marker.
        func number(_ point: ProviderJSON, _ key: String) throws(ProviderParseError) -> Double? {
            try point.number(key).flatMap { $0 == PirateWeather.missingMarker ? nil : $0 }
        }

        /// A probability: 0 when left out (the API omits zeros), nil when -999.
        func probability(_ point: ProviderJSON) throws(ProviderParseError) -> Double? {
            guard let value = try point.number("precipProbability") else { return 0 }
            return value == PirateWeather.missingMarker ? nil : value
        }

        func measure(
            _ point: ProviderJSON, _ key: String, _ quantity: Quantity
        ) throws(ProviderParseError)
            -> Double?
        {
            try number(point, key).map(units.unit(for: quantity).toBase)
        }

        func time(_ point: ProviderJSON) throws(ProviderParseError) -> Double {
            guard let time = try number(point, "time") else { throw point.error(.missing, at: point.childPath("time")) }
            return time
        }

        /// Polar day or night for a day without sunrise and sunset, from the
        /// hemisphere and the season; nil away from the polar circles, where a
        /// missing sunrise is only missing data.
        func polar(time: Double, sunrise: Double?, sunset: Double?) -> Polar? {
            guard sunrise == nil, sunset == nil, let latitude, abs(latitude) >= 65.5 else { return nil }
            let month = CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0).month
            let northernSummer = (4...9).contains(month)
            return (latitude > 0) == northernSummer ? .day : .night
        }

        func current(_ point: ProviderJSON) throws(ProviderParseError) -> CurrentConditions {
            CurrentConditions(
                time: try time(point), summary: try point.string("summary") ?? "",
                icon: try point.string("icon") ?? "",
                temperature: try measure(point, "temperature", .temperature),
                apparentTemperature: try measure(point, "apparentTemperature", .temperature),
                humidity: try number(point, "humidity"),
                windSpeed: try measure(point, "windSpeed", .windSpeed),
                windGust: try measure(point, "windGust", .windSpeed),
                windBearing: try number(point, "windBearing"),
                precipIntensity: try measure(point, "precipIntensity", .precipitationIntensity),
                precipProbability: try probability(point),
                pressure: try measure(point, "pressure", .pressure),
                visibility: try measure(point, "visibility", .visibility),
                uvIndex: try number(point, "uvIndex"),
                cloudCover: try number(point, "cloudCover"))
        }

        func hour(_ point: ProviderJSON) throws(ProviderParseError) -> HourlyForecast {
            HourlyForecast(
                time: try time(point), summary: try point.string("summary") ?? "",
                icon: try point.string("icon") ?? "",
                temperature: try measure(point, "temperature", .temperature),
                apparentTemperature: try measure(point, "apparentTemperature", .temperature),
                windSpeed: try measure(point, "windSpeed", .windSpeed),
                windBearing: try number(point, "windBearing"),
                precipIntensity: try measure(point, "precipIntensity", .precipitationIntensity),
                precipProbability: try probability(point))
        }

        func day(_ point: ProviderJSON) throws(ProviderParseError) -> DailyForecast {
            // temperatureMin/Max cover the calendar day. Low/High are the
            // overnight low and the daytime high, other quantities: a day
            // without Min/Max has them unknown, not replaced.
            let day = try time(point)
            let sunrise = try number(point, "sunriseTime")
            let sunset = try number(point, "sunsetTime")
            return DailyForecast(
                time: day, summary: try point.string("summary") ?? "",
                icon: try point.string("icon") ?? "",
                temperatureMin: try measure(point, "temperatureMin", .temperature),
                temperatureMax: try measure(point, "temperatureMax", .temperature),
                windSpeed: try measure(point, "windSpeed", .windSpeed),
                precipProbability: try probability(point),
                precipAccumulation: try measure(point, "precipAccumulation", .precipitationAccumulation),
                sunrise: sunrise, sunset: sunset, polar: polar(time: day, sunrise: sunrise, sunset: sunset))
        }

        func alert(_ alert: ProviderJSON) throws(ProviderParseError) -> WeatherAlert {
            let regions = try (alert.array("regions") ?? []).map { region throws(ProviderParseError) -> String in
                guard let text = region.value.stringValue else {
                    throw region.error(.wrongType(expected: "a string", got: region.value.kindName))
                }
                return text
            }
            return WeatherAlert(
                title: try alert.string("title") ?? "",
                severity: AlertSeverity(providerText: try alert.string("severity") ?? ""),
                regions: regions, start: try number(alert, "time"), end: try number(alert, "expires"),
                description: try alert.string("description") ?? "", uri: try alert.string("uri") ?? "")
        }
    }
}

/// The Forecast API's unit systems as they appear in `flags.units`.
enum PirateWeatherUnits: String {
    case us, si, ca, uk2

    init?(flag: String) {
        switch flag {
        case "us": self = .us
        case "si": self = .si
        case "ca": self = .ca
        case "uk2", "uk": self = .uk2
        default: return nil
        }
    }

    /// The unit values of `quantity` arrive in.
    func unit(for quantity: Quantity) -> MeasurementUnit {
        switch (quantity, self) {
        case (.temperature, .us): return .fahrenheit
        case (.temperature, _): return .celsius
        case (.windSpeed, .us), (.windSpeed, .uk2): return .milesPerHour
        case (.windSpeed, .si): return .metresPerSecond
        case (.windSpeed, .ca): return .kilometresPerHour
        case (.precipitationIntensity, .us): return .inchesPerHour
        case (.precipitationIntensity, _): return .millimetresPerHour
        case (.precipitationAccumulation, .us): return .inches
        case (.precipitationAccumulation, _): return .centimetres
        case (.pressure, _): return .hectopascals
        case (.visibility, .us), (.visibility, .uk2): return .miles
        case (.visibility, _): return .kilometres
        }
    }
}

/// Pirate Weather as a `WeatherProvider`: needs a key, counted per month
/// (the free plan's 10,000 calls), one call a request.
public struct PirateWeatherProvider: SingleRequestProvider {
    public init() {}

    public var name: ProviderName { .pirateWeather }
    public var defaultBaseURL: String { PirateWeather.defaultBaseURL }
    public var attribution: Attribution {
        Attribution(text: Localization.marked("Powered by Pirate Weather"), url: "https://pirateweather.net/")
    }

    /// `minutely` is renewed every few minutes; 10 minutes keeps a day of it
    /// within the free plan's daily share (docs/SCHEDULING.md).
    public var terms: ProviderTerms {
        ProviderTerms(
            needsKey: true, coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(callsPerRequest: 1, period: .month, freeCalls: 10_000),
            nowcastIntervalMinutes: 10)
    }

    /// Always `units=si`, whatever `units` are; the key goes into the path.
    public func request(for place: Location, units: UnitSystem, key: String?) -> ProviderRequest {
        ProviderRequest(
            path: PirateWeather.forecastPath(apiKey: key, latitude: place.latitude, longitude: place.longitude))
    }

    /// Its answers name their own zone; days need no zone to be derived.
    public func parseForecast(
        _ body: [UInt8], zone: TimeZoneRules?, fetchedAt: Double, leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast {
        try PirateWeather.parseForecast(body, fetchedAt: fetchedAt, leftOut: leftOut)
    }

    /// Its error bodies (`{"message": ...}`) are not shown: the status says enough.
    public func refusal(in body: [UInt8], now: Double) -> ProviderRefusal? { nil }
}

extension ProviderName {
    public static let pirateWeather = ProviderName(declaring: PirateWeather.providerName)
}
