import RainCore

/// The US National Weather Service's API (https://api.weather.gov,
/// https://www.weather.gov/documentation/services-web-api): free, no key,
/// public domain, for the United States and its territories. It asks for a
/// `User-Agent` that names the application and a way to reach its
/// maintainers, which the daemon always sends.
///
/// A forecast takes a lookup and three questions. `/points/{lat},{lon}`
/// finds the place's forecast office and cell of its 2.5 km grid
/// (`NWSGridCell`), kept with the place for `lookupLifetime`: the API's FAQ
/// says point mappings rarely change and may be cached. Then, together:
///
/// 1. `/gridpoints/{office}/{x},{y}/forecast/hourly`: the hours, each with
///    its temperature, wind, chance of rain (since 2022), short text and
///    icon (`NWSPeriod`, `NWSIcon`);
/// 2. `/gridpoints/{office}/{x},{y}`: the raw grid, for what the hours do
///    not say: the apparent temperature, the amount of rain, and the chance
///    of rain where an hour has none (`NWSGridLayer`);
/// 3. `/gridpoints/{office}/{x},{y}/forecast`: the day and night periods
///    the daily list is made of (`NWS+Days.swift`).
///
/// Every answer is needed: one that is not the API's (garbage, a problem
/// document, a cut-off body) fails the forecast, which the daemon then
/// keeps from before or asks another provider for. An hour the grid's
/// intervals do not cover keeps those values unknown. There are no current
/// conditions (the NWS's come from observation stations, a question raind
/// does not ask), no sunrise or sunset, and no alerts.
///
/// raind asks in the API's default units (`us`): its whole °F convert to
/// °C exactly, where `units=si` would round them again to whole °C. Both are
/// read, as the periods name their units.
public enum NWS {
    /// The provider's name in configuration and in `Forecast.provider`.
    public static let providerName = "nws"

    /// Where requests go unless `[Provider] BaseURL=` says otherwise.
    public static let defaultBaseURL = "https://api.weather.gov"

    /// The API answers GeoJSON to this, as its documentation asks clients to say.
    static let headers = ["Accept": "application/geo+json"]

    /// The United States and the territories whose forecasts the NWS
    /// issues: Puerto Rico and the US Virgin Islands (San Juan), Guam and
    /// the Northern Mariana Islands (Guam), American Samoa (Pago Pago), the
    /// Minor Outlying Islands, and the freely associated states Palau,
    /// Micronesia and the Marshall Islands (Guam), all of them codes the
    /// API's own state and territory list holds. A point of these without
    /// a forecast grid answers `/points` with 404, which raind reports as
    /// not covered.
    public static let countries: Set<String> = ["US", "PR", "VI", "GU", "MP", "AS", "UM", "PW", "FM", "MH"]

    /// How long a place's grid cell is kept: the API's FAQ says point
    /// mappings "don't change very often"; a week bounds how long a moved
    /// cell (an office's new grid) goes unnoticed.
    public static let lookupLifetime = 7 * 86_400.0

    /// The API's hourly forecast holds 156 hours; raind keeps at most ten days.
    static let maximumHours = 240
    /// The API's forecast holds 14 day and night periods; raind keeps at most two weeks'.
    static let maximumPeriods = 28

    /// The reason a place outside the NWS's area is not asked for.
    static let notCovered = Localization.marked("the NWS covers only the United States and its territories")

    /// `/points/30,-85`: the lookup of a place's grid cell, with coordinates
    /// on raind's grid (`ProviderQuery.gridDigits` decimals, within the
    /// API's four), trailing zeros dropped as the API writes them.
    public static func pointsPath(latitude: Double, longitude: Double) -> String {
        "/points/\(ProviderQuery.coordinate(latitude)),\(ProviderQuery.coordinate(longitude))"
    }

    /// The forecast's three requests for a cell, in the order of `NWSProvider.answerRoles`.
    static func forecastPaths(_ cell: NWSGridCell) -> [String] {
        [cell.path + "/forecast/hourly", cell.path, cell.path + "/forecast"]
    }

    // MARK: - Lookup

    /// The grid cell in a `/points` answer, kept until `now + lookupLifetime`.
    /// A problem document saying the point is not the NWS's
    /// (`https://api.weather.gov/problems/InvalidPoint`, which the API
    /// sends with a 404), and a point whose grid is null (parts of Alaska
    /// once answered so), are `.notCovered`; a cell whose office or numbers
    /// are not well formed is refused, since they go into request paths.
    public static func parseLookup(_ body: [UInt8], now: Double) throws(ProviderParseError) -> ProviderLookup {
        let properties = try document(body, role: "points")
        for key in ["gridId", "gridX", "gridY"] where properties.value[key]?.isNull == true {
            throw properties.error(
                .notCovered("the NWS has no forecast grid for this point"), at: properties.childPath(key))
        }
        let office = try properties.required("gridId")
        guard let id = office.value.stringValue else {
            throw office.error(.wrongType(expected: "a string", got: office.value.kindName))
        }
        let x = try gridNumber(properties, "gridX")
        let y = try gridNumber(properties, "gridY")
        let zone = try properties.string("timeZone")
        guard NWSGridCell.isOffice(id) else {
            throw office.error(.invalidValue("\"\(NWSPeriod.oneLine(id))\" is not a forecast office (three letters)"))
        }
        if let zone, !NWSGridCell.isZoneName(zone) {
            throw properties.error(
                .invalidValue("\"\(NWSPeriod.oneLine(zone))\" is not a time zone name"),
                at: properties.childPath("timeZone"))
        }
        guard let cell = NWSGridCell(office: id, x: x, y: y, timeZone: zone) else {
            throw properties.error(.invalidValue("not a grid cell"))
        }
        var lookup = cell.lookup(expiresAt: now + lookupLifetime)
        // The zones the place's alerts are asked by (`NWSAlertZones`); one not well formed is left out.
        for key in NWSAlertZones.keys {
            if let text = properties[key]?.value.stringValue, let code = NWSAlertZones.code(text) {
                lookup.values[key] = code
            }
        }
        return lookup
    }

    private static func gridNumber(_ properties: ProviderJSON, _ key: String) throws(ProviderParseError) -> Int {
        let field = try properties.required(key)
        guard let number = try field.asNumber(), number == number.rounded(),
            Double(NWSGridCell.coordinates.lowerBound)...Double(NWSGridCell.coordinates.upperBound) ~= number
        else {
            throw field.error(
                .invalidValue(
                    "not a whole number from \(NWSGridCell.coordinates.lowerBound) to \(NWSGridCell.coordinates.upperBound)"
                ))
        }
        return Int(number)
    }

    // MARK: - Forecast

    /// One forecast from the answers to `forecastPaths`, in their order
    /// (hourly, grid, periods). `zone` gives the place's days (`NWS+Days.swift`);
    /// without it, each period's own offset does. `leftOut` is told of texts
    /// raind could not read (a wind it cannot parse), which stay unknown.
    public static func parseForecast(
        _ answers: [[UInt8]], zone: TimeZoneRules?, fetchedAt: Double, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError) -> Forecast {
        guard answers.count == 3 else {
            throw ProviderParseError(
                provider: providerName, field: "",
                problem: .invalidValue("expected 3 answers (hourly, grid, periods), got \(answers.count)"))
        }
        var unreadable = NWSPeriod.Unreadable()
        let hours = try periods(try document(answers[0], role: "hourly"), limit: maximumHours, unreadable: &unreadable)
        guard let first = hours.first else {
            throw ProviderParseError(
                provider: providerName, field: "hourly.properties.periods", problem: .invalidValue("no periods"))
        }
        for (index, hour) in hours.enumerated() where hour.end - hour.start != 3600 {
            throw ProviderParseError(
                provider: providerName, field: "hourly.properties.periods[\(index)]",
                problem: .invalidValue(
                    "lasts \(Int(hour.end - hour.start)) s; an hourly forecast's periods last an hour"))
        }
        let grid = try document(answers[1], role: "grid")
        let apparent = try NWSGridLayer(grid, "apparentTemperature", .temperature)
        let chance = try NWSGridLayer(grid, "probabilityOfPrecipitation", .percent)
        let amount = try NWSGridLayer(grid, "quantitativePrecipitation", .amountOverInterval)
        let dayPeriods = try periods(
            try document(answers[2], role: "periods"), limit: maximumPeriods, unreadable: &unreadable)
        for (index, period) in dayPeriods.enumerated() where period.isDaytime == nil {
            throw ProviderParseError(
                provider: providerName, field: "periods.properties.periods[\(index)].isDaytime", problem: .missing)
        }
        for (what, example) in unreadable.sorted(by: { $0.key < $1.key }) {
            leftOut("\(providerName) sent a \(what) raind cannot read (\(example)); such values are left unknown")
        }
        return Forecast(
            provider: providerName, fetchedAt: fetchedAt, timeZone: zone?.name ?? "",
            utcOffsetSeconds: zone?.offset(at: fetchedAt) ?? first.offset,
            hourly: hours.map { hour in
                HourlyForecast(
                    time: hour.start, summary: hour.summary, icon: hour.icon, temperature: hour.temperature,
                    apparentTemperature: apparent?.value(coveringHourAt: hour.start), windSpeed: hour.windSpeed,
                    windBearing: hour.windBearing, precipIntensity: amount?.value(coveringHourAt: hour.start),
                    precipProbability: hour.precipProbability ?? chance?.value(coveringHourAt: hour.start))
            },
            daily: days(dayPeriods, zone: zone))
    }

    /// The periods of a forecast's `properties`, at most `limit`, in order of time.
    private static func periods(
        _ properties: ProviderJSON, limit: Int, unreadable: inout NWSPeriod.Unreadable
    ) throws(ProviderParseError) -> [NWSPeriod] {
        guard let entries = try properties.array("periods") else {
            throw properties.error(.missing, at: properties.childPath("periods"))
        }
        var periods: [NWSPeriod] = []
        for entry in entries.prefix(limit) {
            let period = try NWSPeriod(entry, unreadable: &unreadable)
            if let last = periods.last, period.start < last.end {
                throw entry.error(.invalidValue("starts before the period before it ends"))
            }
            periods.append(period)
        }
        return periods
    }

    // MARK: - Documents and values

    /// The `properties` of a GeoJSON answer; `role` names the answer in
    /// errors. A problem document (RFC 7807, which the API answers errors
    /// with) is the provider's own error, or `.notCovered` for a point
    /// that is not the NWS's.
    static func document(_ body: [UInt8], role: String) throws(ProviderParseError) -> ProviderJSON {
        let parsed: ProviderJSON
        do {
            parsed = try ProviderJSON.parse(
                body, provider: providerName, keepingElements: ForecastHorizon.arrayElements)
        } catch {
            throw ProviderParseError(provider: providerName, field: role, problem: error.problem)
        }
        let root = ProviderJSON(provider: providerName, path: role, value: parsed.value)
        if let properties = try root.object("properties") { return properties }
        if let problem = NWSProblem(root.value) {
            if problem.isInvalidPoint { throw root.error(.notCovered(notCovered)) }
            throw root.error(.providerReported(problem.reason))
        }
        throw root.error(.missing, at: root.childPath("properties"))
    }

    /// The unit of a WMO unit code as the API writes it (`wmoUnit:degC`,
    /// or `unit:degC` before 2022); nil for a unit raind does not convert.
    static func unit(_ code: String) -> MeasurementUnit? {
        let name: Substring
        if code.hasPrefix("wmoUnit:") {
            name = code.dropFirst("wmoUnit:".count)
        } else if code.hasPrefix("unit:") {
            name = code.dropFirst("unit:".count)
        } else {
            return nil
        }
        switch name {
        case "degC": return .celsius
        case "degF": return .fahrenheit
        case "km_h-1": return .kilometresPerHour
        case "m_s-1": return .metresPerSecond
        case "kt": return .knots
        case "mm": return .millimetres
        case "cm": return .centimetres
        default: return nil
        }
    }

    static func isPercent(_ code: String) -> Bool { code == "wmoUnit:percent" || code == "unit:percent" }

    /// A quantitative value (`{"unitCode": "wmoUnit:degC", "value": 21.1}`)
    /// in SI, nil when its value is null; `value` is one of its other
    /// numbers (`maxValue`) in the same unit. Throws when the unit is not one of `quantity`'s.
    static func quantity(
        _ field: ProviderJSON, _ quantity: Quantity, value: Double? = nil
    ) throws(ProviderParseError) -> Double? {
        let code = try field.string("unitCode") ?? ""
        guard let unit = unit(code), unit.quantity == quantity else {
            throw field.error(
                .invalidValue("unknown unit \"\(NWSPeriod.oneLine(code))\""), at: field.childPath("unitCode"))
        }
        if let value { return unit.toBase(value) }
        return try field.number("value").map(unit.toBase)
    }

    /// A quantitative value in percent as a fraction, nil when null or outside 0 to 100 %.
    static func percent(_ field: ProviderJSON) throws(ProviderParseError) -> Double? {
        let code = try field.string("unitCode") ?? ""
        guard isPercent(code) else {
            throw field.error(
                .invalidValue("unit \"\(NWSPeriod.oneLine(code))\" is not percent"), at: field.childPath("unitCode"))
        }
        guard let number = try field.number("value") else { return nil }
        return (0...100).contains(number) ? number / 100 : nil
    }
}

/// The National Weather Service as a `WeatherProvider`: keyless, asking
/// for identification, a lookup then three requests a forecast.
public struct NWSProvider: WeatherProvider {
    public init() {}

    public var name: ProviderName { .nws }
    public var defaultBaseURL: String { NWS.defaultBaseURL }
    // US Government work, in the public domain: no credit is required; this
    // one says whose data it is.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Data from the U.S. National Weather Service (public domain)"),
            url: "https://www.weather.gov/")
    }

    /// Free with "reasonable rate limits" that are not published: fair use,
    /// which raind's default daily budget keeps within. The gridpoint
    /// answers carry `Last-Modified` and take `If-Modified-Since`, but a
    /// forecast is three answers parsed together, so the daemon sends no
    /// validators for them (nor for the lookup). The NWS has no nowcast;
    /// its grids are renewed about hourly, which the nowcast interval says
    /// to a daemon that asks.
    public var terms: ProviderTerms {
        ProviderTerms(
            needsKey: false, requiresIdentification: true, conditionalRequests: true,
            coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 4),
            coverage: .countries(NWS.countries), nowcastIntervalMinutes: 60)
    }

    public var answerRoles: [String] { ["hourly", "grid", "periods"] }

    /// Not covered when the place's country is known and not the NWS's; a
    /// place of unknown country is looked up, and `/points` says. The kept
    /// lookup is used only when its values are well formed; otherwise the
    /// place is looked up again.
    public func plan(
        for place: Location, units: UnitSystem, key: String?, lookup: ProviderLookup?, now: Double
    ) -> ProviderPlan {
        if !place.countryCode.isEmpty, !terms.coverage.covers(countryCode: place.countryCode) {
            return .notCovered(NWS.notCovered)
        }
        guard let lookup, let cell = NWSGridCell(lookup: lookup) else {
            return .lookup(
                ProviderRequest(
                    path: NWS.pointsPath(latitude: place.latitude, longitude: place.longitude), headers: NWS.headers))
        }
        return .forecast(NWS.forecastPaths(cell).map { ProviderRequest(path: $0, headers: NWS.headers) })
    }

    public func parseLookup(
        _ body: [UInt8], for place: Location, now: Double
    ) throws(ProviderParseError) -> ProviderLookup {
        try NWS.parseLookup(body, now: now)
    }

    public func parseForecast(
        _ answers: [[UInt8]], for place: Location, zone: TimeZoneRules?, fetchedAt: Double,
        leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast {
        try NWS.parseForecast(answers, zone: zone, fetchedAt: fetchedAt, leftOut: leftOut)
    }

    /// The problem document's `detail` (or `title`): `Rate limit exceeded`, say.
    public func refusal(in body: [UInt8], now: Double) -> ProviderRefusal? {
        guard body.count <= 1 << 16, let value = try? JSON(parsing: body), let problem = NWSProblem(value) else {
            return nil
        }
        return ProviderRefusal(reason: problem.reason)
    }
}

extension ProviderName {
    public static let nws = ProviderName(declaring: NWS.providerName)
}
