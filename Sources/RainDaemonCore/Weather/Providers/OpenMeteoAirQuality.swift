import RainCore

/// Open-Meteo's air-quality API (https://open-meteo.com/en/docs/air-quality-api):
/// `/v1/air-quality` on its own host, keyless like the forecast, made from
/// the CAMS European (11 km) and global (40 km) models. raind asks for the
/// chosen index with its sub-indices, PM2.5, PM10, ozone, nitrogen dioxide
/// and the UV index now, pollen now where the European model has it, and the
/// index and UV for 48 hours.
///
/// The parser reads what the answer says: the index's points (`EAQI`,
/// `USAQI`), concentrations only in µg/m³ (a column in another unit is
/// refused, never read as µg/m³), pollen in grains/m³, times as Unix
/// seconds or ISO 8601 local times with `utc_offset_seconds`. Nulls and
/// absent variables are unknown; an absent `current` block leaves the
/// values now unknown, an absent `hourly` block the hours empty.
public struct OpenMeteoAirQuality: AirQualityService {
    public init() {}

    public var provider: ProviderName { .openMeteo }
    public var defaultBaseURL: String { "https://air-quality-api.open-meteo.com" }
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Air quality by Open-Meteo.com (CC BY 4.0), CAMS data © ECMWF"),
            url: "https://open-meteo.com/")
    }
    /// The model's values are renewed hourly (the API documentation's "updates").
    public var updateInterval: Double { 3600 }
    public var jitterFraction: Double { 0.1 }

    /// The global model covers the world; only pollen is European.
    public func covers(countryCode: String) -> Bool { true }

    /// Hours of index and UV asked for.
    public static let forecastHours = 48

    /// Where the European model has pollen (its domain, 30° W–45° E,
    /// 30°–72° N): the countries in it, so elsewhere the six pollen
    /// variables, always null there, are not asked for and not paid for.
    public static let pollenCountries: Set<String> = [
        "AD", "AL", "AT", "BA", "BE", "BG", "BY", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FO", "FR", "GB",
        "GG", "GI", "GR", "HR", "HU", "IE", "IM", "IS", "IT", "JE", "LI", "LT", "LU", "LV", "MC", "MD", "ME", "MK",
        "MT", "NL", "NO", "PL", "PT", "RO", "RS", "SE", "SI", "SK", "SM", "UA", "VA", "XK",
    ]

    /// The sub-indices asked for, by the pollutant they are of.
    static let subIndices: [(Pollutant, String)] = [
        (.pm25, "pm2_5"), (.pm10, "pm10"), (.no2, "nitrogen_dioxide"), (.o3, "ozone"), (.so2, "sulphur_dioxide"),
    ]

    static let concentrations = ["pm2_5", "pm10", "ozone", "nitrogen_dioxide"]

    static func pollenVariable(_ kind: PollenKind) -> String { "\(kind.rawValue)_pollen" }

    /// The variables of `current`: the index, its sub-indices, four
    /// concentrations, UV, and pollen when `pollen`.
    static func currentVariables(index: AirQualityIndex, pollen: Bool) -> [String] {
        let stem = "\(index.rawValue)_aqi"
        return [stem] + subIndices.map { "\(stem)_\($0.1)" } + concentrations + ["uv_index"]
            + (pollen ? PollenKind.allCases.map(pollenVariable) : [])
    }

    static func hourlyVariables(index: AirQualityIndex) -> [String] { ["\(index.rawValue)_aqi", "uv_index"] }

    /// What Open-Meteo counts for the request, by its pricing FAQ's rule
    /// (`OpenMeteo.countedCalls`): 13 variables over 2 days are 1.3 calls,
    /// 19 with pollen 1.9.
    public static func calls(index: AirQualityIndex, pollen: Bool) -> Double {
        OpenMeteo.countedCalls(
            variables: currentVariables(index: index, pollen: pollen).count + hourlyVariables(index: index).count,
            days: Double(forecastHours) / 24)
    }

    public func request(for place: Location, index: AirQualityIndex) -> (request: ProviderRequest, calls: Double) {
        let pollen = Self.pollenCountries.contains(place.countryCode.uppercased())
        let query: [(String, String)] = [
            ("latitude", ProviderQuery.coordinate(place.latitude)),
            ("longitude", ProviderQuery.coordinate(place.longitude)),
            ("current", Self.currentVariables(index: index, pollen: pollen).joined(separator: ",")),
            ("hourly", Self.hourlyVariables(index: index).joined(separator: ",")),
            ("forecast_hours", String(Self.forecastHours)),
            ("timezone", "auto"),
            ("timeformat", "unixtime"),
        ]
        let path = "/v1/air-quality?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return (ProviderRequest(path: path), Self.calls(index: index, pollen: pollen))
    }

    public func parse(
        _ body: [UInt8], index: AirQualityIndex, fetchedAt: Double
    ) throws(ProviderParseError) -> AirQuality {
        let name = provider.rawValue
        let root = try ProviderJSON.parse(body, provider: name)
        if root.value["error"]?.boolValue == true {
            // l10n: the provider's problem, in raind's own words (its log and replies)
            throw root.error(.providerReported(try root.string("reason") ?? "no reason given"), at: "reason")
        }
        let offset = try ProviderOffset.seconds(root["utc_offset_seconds"], scale: 1) ?? 0
        let currentBlock = try root.object("current")
        let hourlyBlock = try root.object("hourly")
        // l10n: the provider's problem, in raind's own words (its log and replies)
        guard currentBlock != nil || hourlyBlock != nil else { throw root.error(.missing, at: "current, hourly") }
        var air = AirQuality(provider: name, attribution: attribution, fetchedAt: fetchedAt, index: index)
        let stem = "\(index.rawValue)_aqi"
        if let currentBlock {
            let table = try OpenMeteoTable(
                single: currentBlock, units: try root.object("current_units"), offset: offset)
            func value(_ variable: String, _ unit: Unit) throws(ProviderParseError) -> Double? {
                try Self.check(table, variable, unit)
                return try table.column(variable, .plain).first ?? nil
            }
            let aqi = try value(stem, .index(index)).map(Self.points)
            var dominant: (Pollutant, Double)?
            for (pollutant, suffix) in Self.subIndices {
                guard let sub = try value("\(stem)_\(suffix)", .index(index)) else { continue }
                if sub > dominant?.1 ?? -1 { dominant = (pollutant, sub) }
            }
            var pollen: [Pollen] = []
            for kind in PollenKind.allCases {
                if let grains = try value(Self.pollenVariable(kind), .grains) {
                    pollen.append(Pollen(kind: kind, grains: grains))
                }
            }
            air = AirQuality(
                provider: name, attribution: attribution, fetchedAt: fetchedAt, index: index, time: table.times.first,
                aqi: aqi, dominant: aqi == nil ? nil : dominant?.0, pm25: try value("pm2_5", .concentration),
                pm10: try value("pm10", .concentration), o3: try value("ozone", .concentration),
                no2: try value("nitrogen_dioxide", .concentration), uvIndex: try value("uv_index", .plain),
                pollen: pollen)
        }
        if let hourlyBlock {
            let table = try OpenMeteoTable(block: hourlyBlock, units: try root.object("hourly_units"), offset: offset)
            try Self.check(table, stem, .index(index))
            let points = try table.column(stem, .plain)
            let uv = try table.column("uv_index", .plain)
            air.hourly = table.times.indices.prefix(AirQuality.maximumHours).map { row in
                AirHour(time: table.times[row], aqi: points[row].map(Self.points), uvIndex: uv[row])
            }
        }
        return air
    }

    /// An index is whole points; a fraction (some mirrors average) is rounded.
    /// A value beyond Int's range is clamped here and refused by validation.
    static func points(_ value: Double) -> Int {
        guard value.isFinite else { return -1 }
        return Int(min(max(value.rounded(), -1), 1_000_000))
    }

    /// The units a column may be in.
    enum Unit {
        case index(AirQualityIndex), concentration, grains, plain

        func accepts(_ label: String) -> Bool {
            if label.isEmpty || label == "undefined" { return true }
            switch self {
            case .index(let index): return label == (index == .european ? "EAQI" : "USAQI")
            // U+03BC (Greek mu) as Open-Meteo writes it, U+00B5 (micro sign) as people do.
            case .concentration: return ["μg/m³", "µg/m³", "ug/m3", "μg/m3", "µg/m3"].contains(label)
            case .grains: return ["grains/m³", "grains/m3", "grains m⁻³"].contains(label)
            case .plain: return true
            }
        }
    }

    /// Refuses a column whose units block names a unit raind does not read it in.
    static func check(_ table: OpenMeteoTable, _ variable: String, _ unit: Unit) throws(ProviderParseError) {
        guard let units = table.units, let label = try units.string(variable), !unit.accepts(label) else { return }
        // l10n: the provider's problem, in raind's own words (its log and replies)
        throw units.error(.invalidValue("unknown unit \"\(label)\" for \(variable)"), at: units.childPath(variable))
    }
}

extension OpenMeteoProvider {
    /// Open-Meteo's air-quality API.
    public var airQuality: (any AirQualityService)? { OpenMeteoAirQuality() }
}
