import RainCore

/// Bright Sky's `/current_weather` answer in its `dwd` units: `weather`,
/// one record (`timestamp`, `source_id`, `temperature` and `dew_point` in
/// °C, `wind_speed_10` and `wind_gust_speed_10` in km/h over the last ten
/// minutes, `wind_direction_10` in degrees, `visibility` in metres,
/// `precipitation_60` in mm over the last hour, `condition`:
/// `dry`, `fog`, `rain`, `sleet`, `snow`, `hail`, `thunderstorm`), and
/// `sources`, the stations the record's values come from.
extension DWDObservationSource {
    /// A source as the answer describes it.
    struct Source {
        var station: ObservationStation
        var isForecast: Bool
    }

    /// The answer's object, or Bright Sky's own error (`{"detail": …}`).
    private func answer(_ body: [UInt8]) throws(ProviderParseError) -> ProviderJSON {
        let root = try ProviderJSON.parse(body, provider: name, keepingElements: BrightSkySources.maximumSources)
        if root["weather"] == nil, let detail = BrightSkyProvider.detail(root.value) {
            throw root.error(.providerReported(detail), at: "detail")
        }
        return root
    }

    /// The answer's sources by their Bright Sky id.
    private func sources(_ root: ProviderJSON) throws(ProviderParseError) -> [Int: Source] {
        var byID: [Int: Source] = [:]
        for entry in (try root.array("sources") ?? []).prefix(BrightSkySources.maximumSources) {
            guard case .object = entry.value else {
                throw entry.error(.wrongType(expected: "an object", got: entry.value.kindName))
            }
            guard let id = try BrightSkyRecord.sourceID(entry["id"]), let station = try entry.string("dwd_station_id"),
                let latitude = try entry.number("lat"), let longitude = try entry.number("lon")
            else { continue }
            byID[id] = Source(
                station: ObservationStation(
                    id: station,
                    name: ObservationStation.cleanedName(try entry.string("station_name"), id: station),
                    latitude: latitude, longitude: longitude, heightMetres: try entry.number("height")),
                isForecast: try entry.string("observation_type") == "forecast")
        }
        return byID
    }

    /// The observing stations the answer names, the record's own first.
    public func parseStations(_ body: [UInt8], now: Double) throws(ProviderParseError) -> [ObservationStation] {
        let root = try answer(body)
        let byID = try sources(root)
        let own = try root.object("weather").flatMap { record throws(ProviderParseError) in
            try BrightSkyRecord.sourceID(record["source_id"])
        }
        let ordered = byID.keys.sorted { ($0 == own ? 0 : 1, $0) < ($1 == own ? 0 : 1, $1) }
        return ordered.compactMap { byID[$0] }.filter { !$0.isForecast }.map(\.station)
    }

    public func parseObservation(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> Observation {
        let root = try answer(body)
        guard let record = try root.object("weather") else { throw root.error(.missing, at: "weather") }
        let byID = try sources(root)
        guard let sourceID = try BrightSkyRecord.sourceID(record["source_id"]) else {
            throw record.error(.missing, at: record.childPath("source_id"))
        }
        guard let source = byID[sourceID], !source.isForecast, source.station.id == station.id else {
            let other = byID[sourceID].map { "station \($0.station.id)" } ?? "source \(sourceID)"
            throw record.error(
                .invalidValue("is from \(other), not station \(station.id)"), at: record.childPath("source_id"))
        }
        guard let time = try record.instant("timestamp") else {
            throw record.error(.missing, at: record.childPath("timestamp"))
        }
        return try observation(record, station: source.station, time: time, wind: "_10", hour: "_60")
    }

    /// A record's values as the station's observation at `time`: those
    /// Bright Sky filled from another station (`fallback_source_ids`) are not
    /// this station's and are left out. `/current_weather` names its wind
    /// `wind_speed_10` and the hour's rain `precipitation_60` (`wind`, `hour`),
    /// `/weather`'s hours without the suffixes.
    private func observation(
        _ record: ProviderJSON, station: ObservationStation, time: Double, wind: String, hour: String
    ) throws(ProviderParseError) -> Observation {
        let borrowed = Set((try record.object("fallback_source_ids"))?.value.objectValue?.map(\.key) ?? [])
        func own(_ key: String) throws(ProviderParseError) -> Double? {
            borrowed.contains(key) ? nil : try record.number(key)
        }
        var observation = Observation(source: name, station: station, time: time)
        observation.temperature = try own("temperature")
        observation.dewPoint = try own("dew_point")
        observation.windSpeed = try own("wind_speed" + wind).map { $0 / 3.6 }
        observation.windGust = try own("wind_gust_speed" + wind).map { $0 / 3.6 }
        observation.windBearing = try own("wind_direction" + wind)
        if observation.windSpeed ?? 0 == 0, observation.windBearing == 0 { observation.windBearing = nil }
        observation.visibility = try own("visibility").map { $0 / 1000 }
        if let amount = try own("precipitation" + hour) {
            observation.precipitation = amount
            observation.precipitationHours = 1
        }
        if !borrowed.contains("condition") {
            observation.weather = Self.weather(try record.string("condition"))
        }
        return observation
    }

    /// Records read from a station's history: fifteen days of hours.
    static let maximumHistoryRecords = 15 * 24

    /// The station's observed records of a `/weather` answer (`weather`, an
    /// array of hourly records named like `/current_weather`'s without the
    /// `_10` and `_60`); records of a forecast or of another station are left out.
    public func parseHistory(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> [Observation] {
        let root = try ProviderJSON.parse(body, provider: name, keepingElements: Self.maximumHistoryRecords)
        if root["weather"] == nil, let detail = BrightSkyProvider.detail(root.value) {
            throw root.error(.providerReported(detail), at: "detail")
        }
        guard let records = try root.array("weather") else { throw root.error(.missing, at: "weather") }
        let byID = try sources(root)
        var observations: [Observation] = []
        for record in records {
            guard case .object = record.value else {
                throw record.error(.wrongType(expected: "an object", got: record.value.kindName))
            }
            guard let sourceID = try BrightSkyRecord.sourceID(record["source_id"]), let source = byID[sourceID],
                !source.isForecast, source.station.id == station.id
            else { continue }
            guard let time = try record.instant("timestamp") else {
                throw record.error(.missing, at: record.childPath("timestamp"))
            }
            observations.append(try observation(record, station: source.station, time: time, wind: "", hour: ""))
        }
        return observations
    }

    /// Bright Sky's `condition` (null and `dry`: none).
    static func weather(_ condition: String?) -> [ObservedWeather] {
        switch condition {
        case "fog": [ObservedWeather(.fog)]
        case "rain": [ObservedWeather(.rain)]
        case "sleet": [ObservedWeather(.sleet)]
        case "snow": [ObservedWeather(.snow)]
        case "hail": [ObservedWeather(.hail)]
        case "thunderstorm": [ObservedWeather(.thunderstorm)]
        default: []
        }
    }
}
