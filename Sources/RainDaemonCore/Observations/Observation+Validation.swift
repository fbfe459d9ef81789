import RainCore

/// The rules an observation must meet before raind keeps or shows it,
/// whether just parsed or read back: a real time not ahead of the clock,
/// every number finite and within what its quantity can be on Earth
/// (`PlausibleRange`, the forecasts' own), a dew point no higher than the
/// temperature, and a station whose id can go into a request path.
extension Observation {
    /// Seconds an observation's time may lie ahead of raind's clock (a
    /// station's clock, or the machine's, a little off); beyond, the time is wrong.
    public static let allowedClockAhead: Double = 15 * 60
    /// A dew point above the temperature is impossible; METARs round both
    /// to whole degrees, so up to this much above is rounding.
    static let dewPointSlack = 1.0

    /// What is wrong, naming the field; nil when the observation is usable.
    public func validationProblem(now: Double) -> WireDecodingError? {
        if source.isEmpty || source.utf8.count > 32 {
            return WireDecodingError(field: "source", reason: "is empty or longer than raind writes")
        }
        if let problem = station.validationProblem() { return problem }
        if !time.isFinite || !Forecast.plausibleTimes.contains(time) {
            return WireDecodingError(
                field: "time", reason: "\(time) is not a time between 1970 and 3000 in Unix seconds")
        }
        if time > now + Self.allowedClockAhead {
            return WireDecodingError(
                field: "time",
                reason: "lies \(Int((time - now) / 60)) minutes ahead of the clock; a station's time is wrong")
        }
        let measures: [(String, Double?, PlausibleRange)] = [
            ("temperature", temperature, .temperature), ("dewPoint", dewPoint, .temperature),
            ("windSpeed", windSpeed, .windSpeed), ("windBearing", windBearing, .bearing),
            ("windGust", windGust, .windSpeed), ("visibility", visibility, .visibility),
            ("precipitation", precipitation, .precipitationAmount),
        ]
        for case let (field, value?, range) in measures where !value.isFinite || !range.values.contains(value) {
            return WireDecodingError(
                field: field,
                reason:
                    "holds \(value), which is no \(range.what) (expected \(Int(range.values.lowerBound)) to \(Int(range.values.upperBound))\(range.unit))"
            )
        }
        if let temperature, let dewPoint, dewPoint > temperature + Self.dewPointSlack {
            return WireDecodingError(
                field: "dewPoint", reason: "\(dewPoint) °C is above the temperature, \(temperature) °C")
        }
        if let hours = precipitationHours, !(hours.isFinite && hours > 0 && hours <= 24) {
            return WireDecodingError(field: "precipitationHours", reason: "\(hours) is not a period of 1 to 24 hours")
        }
        if (precipitation == nil) != (precipitationHours == nil) {
            return WireDecodingError(field: "precipitationHours", reason: "is given without its amount, or missing")
        }
        if weather.count > Self.maximumWeather || Set(weather.map(\.kind)).count != weather.count {
            return WireDecodingError(field: "weather", reason: "names more kinds than raind keeps, or one twice")
        }
        return nil
    }
}

extension ObservationStation {
    /// What is wrong, naming the field; nil when the station is usable.
    /// Its id goes into request paths: letters, digits, `-` and `_` only.
    public func validationProblem() -> WireDecodingError? {
        let idBytes = Array(id.utf8)
        let allowed = { (byte: UInt8) -> Bool in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
        if idBytes.isEmpty || idBytes.count > Self.maximumIDBytes || !idBytes.allSatisfy(allowed) {
            return WireDecodingError(
                field: "station.id", reason: "\"\(id.prefix(40))\" is not a station id (letters, digits, - and _)")
        }
        if name.utf8.count > Self.maximumNameBytes
            || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            return WireDecodingError(
                field: "station.name", reason: "is longer than raind writes or holds control characters")
        }
        if !latitude.isFinite || !(-90...90).contains(latitude) || !longitude.isFinite
            || !(-180...180).contains(longitude)
        {
            return WireDecodingError(
                field: "station.latitude", reason: "(\(latitude), \(longitude)) is no position on Earth")
        }
        if let height = heightMetres, !height.isFinite || !(-500...9_000).contains(height) {
            return WireDecodingError(field: "station.heightMetres", reason: "\(height) m is no station's height")
        }
        return nil
    }

    /// `name` as one line of at most `maximumNameBytes` bytes; the id when it is empty.
    static func cleanedName(_ name: String?, id: String) -> String {
        let line = (name ?? "").strippingControlCharacters().split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
        if line.isEmpty { return id }
        return AlertLimits.truncated(line, toBytes: maximumNameBytes)
    }
}

extension ObservationSource {
    /// `parseObservation`, then the rules every observation meets
    /// (`Observation.validationProblem`): what the daemon keeps.
    public func observation(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> Observation {
        let observation = try parseObservation(body, station: station, now: now)
        if let problem = observation.validationProblem(now: now) {
            throw ProviderParseError(provider: name, field: problem.field, problem: .invalidValue(problem.reason))
        }
        return observation
    }

    /// `parseHistory`, each observation held to the rules every observation
    /// meets: one that breaks them refuses the whole answer, naming it, so
    /// that nothing of a broken answer is kept. Oldest first.
    public func history(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> [Observation] {
        let observations = try parseHistory(body, station: station, now: now)
        for (index, observation) in observations.enumerated() {
            if let problem = observation.validationProblem(now: now) {
                throw ProviderParseError(
                    provider: name, field: "[\(index)].\(problem.field)", problem: .invalidValue(problem.reason))
            }
        }
        return observations.sorted { $0.time < $1.time }
    }

    /// `parseStations`, each station at most once and only those every
    /// rule allows (a station with a broken id or position is left out,
    /// not the list).
    public func stations(_ body: [UInt8], now: Double) throws(ProviderParseError) -> [ObservationStation] {
        var seen: Set<String> = []
        var kept: [ObservationStation] = []
        for station in try parseStations(body, now: now)
        where station.validationProblem() == nil && seen.insert(station.id).inserted {
            kept.append(station)
            if kept.count == VerifyingStation.maximumCandidates { break }
        }
        return kept
    }
}
