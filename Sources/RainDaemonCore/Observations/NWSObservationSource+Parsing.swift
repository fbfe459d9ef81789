import RainCore

/// The API's GeoJSON. A station list is a feature collection, each
/// feature a station (`stationIdentifier`, `name`, `elevation`, the point
/// in `geometry.coordinates` as longitude, latitude). An observation is a
/// feature (`/observations/latest`) or a collection of them, newest first
/// (`/observations?limit=1`), whose values are objects
/// `{"unitCode": "wmoUnit:degC", "value": -1, "qualityControl": "V"}`.
///
/// Quality control is MADIS's: `Z` not yet checked, `C`, `S`, `V`, `G`
/// passed checks, `X` (rejected), `Q` (questioned) and `B` (judged bad)
/// failed them. A value marked `X`, `Q` or `B` is left out.
extension NWSObservationSource {
    /// Stations read from a list: the first page holds the 500 nearest the
    /// cell; raind needs the first few.
    static let maximumStations = VerifyingStation.maximumCandidates
    /// The quality-control marks of a value that failed MADIS's checks.
    static let failedQualityControl: Set<String> = ["X", "Q", "B"]
    /// Observations read from a station's history: seven days of
    /// five-minute and hourly reports are some hundreds.
    static let maximumHistory = 3000

    func document(_ body: [UInt8], keeping limit: Int = maximumStations) throws(ProviderParseError) -> ProviderJSON {
        let root = try ProviderJSON.parse(body, provider: name, keepingElements: limit)
        if root.value["features"] == nil, let problem = NWSProblem(root.value) {
            throw root.error(.providerReported(problem.reason))
        }
        return root
    }

    public func parseStations(_ body: [UInt8], now: Double) throws(ProviderParseError) -> [ObservationStation] {
        let root = try document(body)
        guard let features = try root.array("features") else { throw root.error(.missing, at: "features") }
        var stations: [ObservationStation] = []
        for feature in features {
            let properties = try feature.required("properties")
            guard let id = try properties.string("stationIdentifier") else {
                throw properties.error(.missing, at: properties.childPath("stationIdentifier"))
            }
            let (longitude, latitude) = try point(feature)
            stations.append(
                ObservationStation(
                    id: id, name: ObservationStation.cleanedName(try properties.string("name"), id: id),
                    latitude: latitude, longitude: longitude,
                    heightMetres: try properties.object("elevation").flatMap { field throws(ProviderParseError) in
                        try length(field, in: .metres)
                    }))
        }
        return stations
    }

    /// A feature's `geometry.coordinates`: longitude, latitude.
    private func point(_ feature: ProviderJSON) throws(ProviderParseError) -> (Double, Double) {
        let geometry = try feature.required("geometry")
        guard let coordinates = try geometry.array("coordinates"), coordinates.count >= 2,
            let longitude = try coordinates[0].asNumber(), let latitude = try coordinates[1].asNumber()
        else { throw geometry.error(.invalidValue("no point"), at: geometry.childPath("coordinates")) }
        return (longitude, latitude)
    }

    public func parseObservation(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> Observation {
        var feature = try document(body)
        if let features = try feature.array("features") {
            guard let first = features.first else {
                throw feature.error(.notCovered("no recent observation from \(station.id)"))
            }
            feature = first
        }
        return try observation(feature, station: station)
    }

    /// Every observation of a history answer (a feature collection); a
    /// feature whose values are all unknown is still kept, and left out when paired.
    public func parseHistory(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> [Observation] {
        let root = try document(body, keeping: Self.maximumHistory)
        guard let features = try root.array("features") else { throw root.error(.missing, at: "features") }
        var observations: [Observation] = []
        for feature in features { observations.append(try observation(feature, station: station)) }
        return observations
    }

    /// One observation feature's values.
    private func observation(
        _ feature: ProviderJSON, station: ObservationStation
    ) throws(ProviderParseError) -> Observation {
        let properties = try feature.required("properties")
        if let id = try properties.string("stationId"), id != station.id {
            throw properties.error(
                .invalidValue("is from \(ProviderJSON.excerpt(id)), not \(station.id)"),
                at: properties.childPath("stationId"))
        }
        guard let time = try properties.instant("timestamp") else {
            throw properties.error(.missing, at: properties.childPath("timestamp"))
        }
        var observation = Observation(source: name, station: station, time: time)
        observation.temperature = try value(properties, "temperature", temperature)
        observation.dewPoint = try value(properties, "dewpoint", temperature)
        observation.windSpeed = try value(properties, "windSpeed", speed)
        observation.windGust = try value(properties, "windGust", speed)
        observation.windBearing = try value(properties, "windDirection", angle)
        if observation.windSpeed ?? 0 == 0, observation.windBearing == 0 { observation.windBearing = nil }
        observation.visibility = try value(properties, "visibility") { field throws(ProviderParseError) in
            try length(field, in: .kilometres)
        }
        observation.weather = try weather(properties)
        for (key, hours) in [
            ("precipitationLastHour", 1.0), ("precipitationLast3Hours", 3.0), ("precipitationLast6Hours", 6.0),
        ] {
            guard
                let amount = try value(
                    properties, key,
                    { field throws(ProviderParseError) in
                        try length(field, in: .millimetres)
                    })
            else { continue }
            observation.precipitation = amount
            observation.precipitationHours = hours
            break
        }
        return observation
    }

    /// The member `key`, a quantitative value read by `read`; nil when
    /// absent, null, or marked bad by quality control.
    private func value(
        _ properties: ProviderJSON, _ key: String, _ read: (ProviderJSON) throws(ProviderParseError) -> Double?
    ) throws(ProviderParseError) -> Double? {
        guard let field = try properties.object(key) else { return nil }
        if let mark = try field.string("qualityControl"), Self.failedQualityControl.contains(mark) { return nil }
        return try read(field)
    }

    /// The unit name of a code (`wmoUnit:degC`, `unit:degC` before 2022).
    private func unitName(_ field: ProviderJSON) throws(ProviderParseError) -> Substring {
        let code = try field.string("unitCode") ?? ""
        for prefix in ["wmoUnit:", "unit:"] where code.hasPrefix(prefix) { return code.dropFirst(prefix.count) }
        throw unknownUnit(field, Substring(code))
    }

    private func unknownUnit(_ field: ProviderJSON, _ code: Substring) -> ProviderParseError {
        field.error(
            .invalidValue("unknown unit \"\(ProviderJSON.excerpt(String(code)))\""), at: field.childPath("unitCode"))
    }

    private func temperature(_ field: ProviderJSON) throws(ProviderParseError) -> Double? {
        let unit = try unitName(field)
        guard let number = try field.number("value") else { return nil }
        switch unit {
        case "degC": return number
        case "degF": return (number - 32) * 5 / 9
        case "K": return number - 273.15
        default: throw unknownUnit(field, unit)
        }
    }

    private func speed(_ field: ProviderJSON) throws(ProviderParseError) -> Double? {
        let unit = try unitName(field)
        guard let number = try field.number("value") else { return nil }
        switch unit {
        case "km_h-1": return number / 3.6
        case "m_s-1": return number
        case "kt": return number * METARObservationSource.metresPerSecondPerKnot
        default: throw unknownUnit(field, unit)
        }
    }

    private func angle(_ field: ProviderJSON) throws(ProviderParseError) -> Double? {
        let unit = try unitName(field)
        guard unit == "degree_(angle)" else { throw unknownUnit(field, unit) }
        return try field.number("value")
    }

    private enum LengthUnit: Double {
        case millimetres = 0.001, metres = 1, kilometres = 1000
    }

    /// A length in `target`'s unit.
    private func length(_ field: ProviderJSON, in target: LengthUnit) throws(ProviderParseError) -> Double? {
        let unit = try unitName(field)
        guard let number = try field.number("value") else { return nil }
        let metres: Double
        switch unit {
        case "mm": metres = number / 1000
        case "cm": metres = number / 100
        case "m": metres = number
        case "km": metres = number * 1000
        default: throw unknownUnit(field, unit)
        }
        return metres / target.rawValue
    }

    /// `presentWeather`: each entry's `rawString` read as a METAR group,
    /// else its words; weather in the vicinity left out.
    private func weather(_ properties: ProviderJSON) throws(ProviderParseError) -> [ObservedWeather] {
        var found: [ObservedWeather] = []
        for entry in (try properties.array("presentWeather") ?? []).prefix(PresentWeatherCode.maximumGroups) {
            guard case .object = entry.value else {
                throw entry.error(.wrongType(expected: "an object", got: entry.value.kindName))
            }
            if entry.value["inVicinity"] == .bool(true) { continue }
            if let raw = try entry.string("rawString"), raw.utf8.count <= PresentWeatherCode.maximumGroupLength,
                let weather = PresentWeatherCode.decodeGroup(raw)
            {
                found.append(weather)
            } else if let weather = try words(entry) {
                found.append(weather)
            }
        }
        return PresentWeatherCode.strongestOfEachKind(found)
    }

    /// An entry's `weather`, `intensity` and `modifier` words.
    private func words(_ entry: ProviderJSON) throws(ProviderParseError) -> ObservedWeather? {
        let modifier = try entry.string("modifier")
        let strength = try entry.string("intensity")
        let intensity: ObservedWeather.Intensity? = strength == "light" ? .light : strength == "heavy" ? .heavy : nil
        if modifier == "blowing" || modifier == "low_drifting" { return nil }
        let freezing = modifier == "freezing"
        let kind: ObservedWeather.Kind
        let words = try entry.string("weather") ?? ""
        switch words {
        case "thunderstorms": kind = .thunderstorm
        case "rain": kind = freezing ? .freezingRain : .rain
        case "drizzle": kind = freezing ? .freezingRain : .drizzle
        case "snow", "snow_grains": kind = .snow
        case "ice_pellets", "ice_crystals": kind = .sleet
        case "hail", "snow_pellets": kind = .hail
        case "unknown": kind = .precipitation
        case "fog": kind = .fog
        case "fog_mist", "spray": kind = .mist
        case "haze", "smoke", "volcanic_ash": kind = .haze
        case "dust", "sand", "dust_storm", "sand_storm", "dust_whirls": kind = .dust
        case "squalls": kind = .squall
        case "funnel_cloud": kind = .funnelCloud
        default: return nil
        }
        return ObservedWeather(
            kind, intensity: ObservedWeather(kind).isPrecipitation ? intensity : nil, showers: modifier == "showers")
    }
}
