import RainCore

/// MET Norway's Locationforecast 2.0 (https://api.met.no/weatherapi/locationforecast/2.0/),
/// the Norwegian Meteorological Institute's free forecast for any point on
/// Earth, asked in its `complete` form. Needs no key, but an identifying
/// User-Agent (the daemon's, with the project's address).
///
/// The answer is a GeoJSON feature (https://api.met.no/doc/ForecastJSON):
/// `properties.meta` (`updated_at`, `units`) and `properties.timeseries`,
/// one entry a step with the weather at its time
/// (`data.instant.details`) and the periods starting there
/// (`data.next_1_hours`, `next_6_hours`, `next_12_hours`: a
/// `summary.symbol_code` and `details`). Steps are an hour apart for the
/// first two or three days, then six hours apart, to about ten days.
///
/// How it becomes raind's forecast:
///
/// - **hours**: one a step, at its own time (the six-hourly steps are not
///   filled in between). Temperature and wind from the instant; summary,
///   icon, rain and chance of rain from the step's hour, else from its six
///   hours, whose `precipitation_amount` (mm over six hours) becomes its
///   mean rate, amount / 6 mm/h, and whose chance is the period's. A step
///   with neither (the last) has icon `unknown` and no rain.
/// - **days**: derived in the place's zone (`MetNorwayDays`).
/// - **current**: none. met.no's instant values are a forecast, not an
///   observation; raind shows the hour in progress instead.
/// - **unknown**: feels-like (met.no has none); the chance of rain and UV in
///   `compact` answers; anything null or absent. Values outside what the
///   weather can be are unknown too and told to `leftOut`, as are symbol
///   codes met.no does not document (`MetNorwaySymbol`).
public enum MetNorway {
    /// The provider's name in configuration and in `Forecast.provider`.
    public static let providerName = "metno"

    /// Where requests go unless `[Provider] BaseURL=` says otherwise.
    public static let defaultBaseURL = "https://api.met.no"

    /// At most this many steps are read (met.no sends about 90); the rest
    /// are left out with a note.
    public static let maximumSteps = 400

    /// Path and query of the forecast request, to append to the base URL:
    /// `/weatherapi/locationforecast/2.0/complete?lat=59.91&lon=10.75`.
    /// Coordinates are on raind's grid (`ProviderQuery.gridDigits`, 2
    /// decimals; met.no asks for at most 4). No `altitude`: raind's places
    /// have none, and met.no then takes the height of its own terrain model.
    public static func forecastPath(latitude: Double, longitude: Double) -> String {
        "/weatherapi/locationforecast/2.0/complete?lat=\(ProviderQuery.coordinate(latitude))"
            + "&lon=\(ProviderQuery.coordinate(longitude))"
    }

    /// Normalizes a Locationforecast 2.0 answer (`complete` or `compact`).
    /// `zone` holds the rules of the place's time zone, in which days are
    /// derived and which the forecast carries (met.no names none); with nil,
    /// the place's days cannot be known and UTC days are derived. Throws
    /// when the body is not JSON, has no `properties.timeseries` or an empty
    /// one, names a unit met.no does not document, has a field of the wrong
    /// type or a time that is not a UTC time, or steps out of order.
    /// `meta.updated_at` is checked as a time; raind keeps `fetchedAt`, when
    /// it received the answer.
    public static func parseForecast(
        _ body: [UInt8], zone: TimeZoneRules?, fetchedAt: Double, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError) -> Forecast {
        let steps = try self.steps(body, leftOut: leftOut)
        return Forecast(
            provider: providerName, fetchedAt: fetchedAt, timeZone: zone?.name ?? "",
            utcOffsetSeconds: zone?.offset(at: fetchedAt) ?? 0,
            hourly: steps.map(hour),
            daily: MetNorwayDays.days(steps, zone: zone ?? TimeZoneRules(name: "UTC", fixedOffsetSeconds: 0)))
    }

    /// The answer's steps, read and checked (see `parseForecast`), at most `maximumSteps`.
    static func steps(_ body: [UInt8], leftOut: (String) -> Void) throws(ProviderParseError) -> [MetNorwayStep] {
        let root = try ProviderJSON.parse(body, provider: providerName, keepingElements: ForecastHorizon.arrayElements)
        guard let properties = try root.object("properties") else { throw root.error(.missing, at: "properties") }
        let meta = try properties.object("meta")
        if let updated = meta?["updated_at"] { _ = try MetNorwayStep.Reader.time(updated) }
        var reader = try MetNorwayStep.Reader(provider: providerName, units: try meta?.object("units"))
        guard let entries = try properties.array("timeseries") else {
            throw properties.error(.missing, at: properties.childPath("timeseries"))
        }
        guard !entries.isEmpty else {
            throw properties.error(.invalidValue("no time steps"), at: properties.childPath("timeseries"))
        }
        var steps: [MetNorwayStep] = []
        for entry in entries.prefix(maximumSteps) {
            let step = try reader.step(entry)
            if let previous = steps.last, step.time <= previous.time {
                throw entry.error(.invalidValue("a step at or before the one above it"), at: entry.childPath("time"))
            }
            steps.append(step)
        }
        if entries.count > maximumSteps {
            leftOut(
                "\(providerName) sent \(entries.count) time steps; the first \(maximumSteps) are kept, the rest left out"
            )
        }
        reader.notes.forEach(leftOut)
        return steps
    }

    /// The step as an hour of raind's forecast.
    static func hour(_ step: MetNorwayStep) -> HourlyForecast {
        let period = step.nextHour ?? step.nextSixHours
        return HourlyForecast(
            time: step.time, summary: period?.symbol?.summary ?? "", icon: period?.symbol?.icon ?? "unknown",
            temperature: step.instant.temperature, apparentTemperature: nil, windSpeed: step.instant.windSpeed,
            windBearing: step.instant.windBearing, precipIntensity: period?.intensity,
            precipProbability: period?.probability)
    }
}

/// MET Norway as a `WeatherProvider`: free and keyless, one request a
/// forecast, under its terms of service (https://api.met.no/doc/TermsOfService).
public struct MetNorwayProvider: SingleRequestProvider {
    public init() {}

    public var name: ProviderName { .metNorway }
    public var defaultBaseURL: String { MetNorway.defaultBaseURL }
    /// Its data is CC BY 4.0, crediting MET Norway as the source with a link
    /// to the download service used (https://api.met.no/doc/License).
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Data from MET Norway (CC BY 4.0)"), url: "https://api.met.no/doc/License")
    }

    /// - Identification: requests without an identifying User-Agent are
    ///   refused (403); the daemon's names raind and its address.
    /// - Conditional requests: met.no asks for `If-Modified-Since` with the
    ///   last `Last-Modified` exactly, which the daemon sends back as it came.
    /// - Jitter 0.25: met.no asks that scheduled requests not fall on the
    ///   hour but a random number of minutes after; a quarter of the interval
    ///   (up to 7.5 minutes at the default 30) spreads machines woken by the
    ///   same timer, and stays well inside the hour in which the forecast
    ///   is renewed.
    /// - Quota: fair use, no number; raind's default daily budget counts one
    ///   call a request.
    /// - Nowcast interval 60, the longest allowed: Locationforecast has no
    ///   short-range data (its nowcast is a separate, Nordic-only API), so
    ///   nothing is gained by asking more often.
    public var terms: ProviderTerms {
        ProviderTerms(
            needsKey: false, requiresIdentification: true, conditionalRequests: true, jitterFraction: 0.25,
            coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 2),
            coverage: .world,
            nowcastIntervalMinutes: 60)
    }

    /// The same question whatever `units` are: met.no answers in SI only.
    public func request(for place: Location, units: UnitSystem, key: String?) -> ProviderRequest {
        ProviderRequest(
            path: MetNorway.forecastPath(latitude: place.latitude, longitude: place.longitude),
            headers: ["Accept": "application/json"])
    }

    /// The answer with days in the place's zone (UTC days without one).
    public func parseForecast(
        _ body: [UInt8], zone: TimeZoneRules?, fetchedAt: Double, leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast {
        try MetNorway.parseForecast(body, zone: zone, fetchedAt: fetchedAt, leftOut: leftOut)
    }

    /// Its error bodies are HTML pages; the status says enough.
    public func refusal(in body: [UInt8], now: Double) -> ProviderRefusal? { nil }
}

extension ProviderName {
    public static let metNorway = ProviderName(declaring: MetNorway.providerName)
}
