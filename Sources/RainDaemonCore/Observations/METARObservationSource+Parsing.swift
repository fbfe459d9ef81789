import RainCore

/// The Data API's METAR answer (`format=json`): an array of reports, each
/// an object with the station (`icaoId`, `name`, `lat`, `lon`, `elev` in
/// metres) and the decoded report: `obsTime` (Unix seconds), `temp` and
/// `dewp` (°C), `wdir` (degrees, or `"VRB"`), `wspd` and `wgst` (knots),
/// `visib` (statute miles, a number or a string such as `"10+"`),
/// `wxString` (present weather), `precip`, `pcp3hr`, `pcp6hr` (inches,
/// where the station reports them). A value the station does not report
/// is absent or null.
extension METARObservationSource {
    static let metresPerSecondPerKnot = 0.514_444
    static let kilometresPerStatuteMile = 1.609_344
    static let millimetresPerInch = 25.4
    /// Reports read from one answer: a box around a place holds some tens.
    static let maximumReports = 500
    /// Reports read from a station's history: fifteen days of hourly
    /// reports and as many specials between them.
    static let maximumHistoryReports = 2 * historyHours

    /// The reports of an answer; an empty body (the API answers a question
    /// with no report so) holds none.
    func reports(_ body: [UInt8], keeping limit: Int = maximumReports) throws(ProviderParseError) -> [ProviderJSON] {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [] }
        let value: JSON
        do {
            value = try JSON(parsing: body, keepingElements: limit)
        } catch {
            throw ProviderParseError(provider: name, field: "", problem: .notJSON(error))
        }
        guard let elements = value.arrayValue else {
            if let message = value["error"]?.stringValue ?? value["message"]?.stringValue {
                throw ProviderParseError(
                    provider: name, field: "", problem: .providerReported(ProviderJSON.excerpt(message)))
            }
            throw ProviderParseError(
                provider: name, field: "", problem: .wrongType(expected: "an array of reports", got: value.kindName))
        }
        var reports: [ProviderJSON] = []
        for (index, element) in elements.enumerated() {
            let report = ProviderJSON(provider: name, path: "[\(index)]", value: element)
            guard case .object = element else {
                throw report.error(.wrongType(expected: "an object", got: element.kindName))
            }
            reports.append(report)
        }
        return reports
    }

    /// The station a report is from.
    func reportedStation(_ report: ProviderJSON) throws(ProviderParseError) -> ObservationStation {
        guard let id = try report.string("icaoId") else { throw report.error(.missing, at: report.childPath("icaoId")) }
        guard let latitude = try report.number("lat"), let longitude = try report.number("lon") else {
            throw report.error(.missing, at: report.childPath("lat"))
        }
        return ObservationStation(
            id: id, name: ObservationStation.cleanedName(try report.string("name"), id: id), latitude: latitude,
            longitude: longitude, heightMetres: try report.number("elev"))
    }

    public func parseStations(_ body: [UInt8], now: Double) throws(ProviderParseError) -> [ObservationStation] {
        var stations: [ObservationStation] = []
        for report in try reports(body) {
            let station = try reportedStation(report)
            if !stations.contains(where: { $0.id == station.id }) { stations.append(station) }
        }
        return stations
    }

    /// The newest of the station's reports in the answer (an answer for
    /// several hours holds several, newest first, but order is not trusted).
    public func parseObservation(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> Observation {
        var newest: (report: ProviderJSON, time: Double)?
        for report in try reports(body) {
            guard try report.string("icaoId") == station.id else { continue }
            guard let time = try report.number("obsTime") else {
                throw report.error(.missing, at: report.childPath("obsTime"))
            }
            if time > newest?.time ?? -.infinity { newest = (report, time) }
        }
        guard let found = newest else {
            throw ProviderParseError(
                provider: name, field: "", problem: .notCovered("no recent report from \(station.id)"))
        }
        return try observation(found.report, station: station, time: found.time)
    }

    /// Every report of the station in a history answer (`hours=`).
    public func parseHistory(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> [Observation] {
        var observations: [Observation] = []
        for report in try reports(body, keeping: Self.maximumHistoryReports) {
            guard try report.string("icaoId") == station.id else { continue }
            guard let time = try report.number("obsTime") else {
                throw report.error(.missing, at: report.childPath("obsTime"))
            }
            observations.append(try observation(report, station: station, time: time))
        }
        return observations
    }

    /// One report's decoded values.
    private func observation(
        _ report: ProviderJSON, station: ObservationStation, time: Double
    ) throws(ProviderParseError) -> Observation {
        var observation = Observation(source: name, station: station, time: time)
        observation.temperature = try report.number("temp")
        observation.dewPoint = try report.number("dewp")
        observation.windSpeed = try report.number("wspd").map { $0 * Self.metresPerSecondPerKnot }
        observation.windBearing = try bearing(report, speed: observation.windSpeed)
        observation.windGust = try report.number("wgst").map { $0 * Self.metresPerSecondPerKnot }
        observation.visibility = try visibility(report).map { $0 * Self.kilometresPerStatuteMile }
        observation.weather = PresentWeatherCode.decode(try report.string("wxString") ?? "")
        for (key, hours) in [("precip", 1.0), ("pcp3hr", 3.0), ("pcp6hr", 6.0)] {
            guard let inches = try report.number(key) else { continue }
            observation.precipitation = inches * Self.millimetresPerInch
            observation.precipitationHours = hours
            break
        }
        return observation
    }

    /// `wdir`: degrees; nil when variable (`"VRB"`) or calm (0 with no speed).
    private func bearing(_ report: ProviderJSON, speed: Double?) throws(ProviderParseError) -> Double? {
        guard let field = report["wdir"] else { return nil }
        if let text = field.value.stringValue {
            guard text.uppercased() == "VRB" else {
                throw field.error(.invalidValue("\"\(ProviderJSON.excerpt(text))\" is neither degrees nor VRB"))
            }
            return nil
        }
        guard let degrees = try field.asNumber() else { return nil }
        if degrees == 0, speed ?? 0 == 0 { return nil }
        return degrees
    }

    /// `visib` in statute miles: a number, or a string of one with a `+`
    /// ("10+": more than ten, read as ten).
    private func visibility(_ report: ProviderJSON) throws(ProviderParseError) -> Double? {
        guard let field = report["visib"] else { return nil }
        guard let text = field.value.stringValue else { return try field.asNumber() }
        let digits = text.hasSuffix("+") ? String(text.dropLast()) : text
        guard !digits.isEmpty, digits.utf8.count <= 8, let miles = Double(digits), miles.isFinite else {
            throw field.error(.invalidValue("\"\(ProviderJSON.excerpt(text))\" is not a visibility in miles"))
        }
        return miles
    }
}
