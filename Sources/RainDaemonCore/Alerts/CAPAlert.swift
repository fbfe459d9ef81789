import RainCore

/// A CAP 1.2 message (OASIS Common Alerting Protocol,
/// https://docs.oasis-open.org/emergency/cap/v1.2/CAP-v1.2-os.html) read
/// into raind's alerts for one place, as the official warning services
/// publish them (DWD, MET Norway, MeteoAlarm's members). docs/ALERTS.md,
/// "CAP as raind reads it", says the same for people.
///
/// - The message: `identifier` (required), `sender` (required), `sent`
///   (required, a time), `status` (only `Actual` is a warning: `Exercise`,
///   `System`, `Test` and `Draft` give no alert), `msgType` (`Alert`,
///   `Update`, `Cancel`; an `Ack` or `Error` gives none) and `references`
///   ("sender,identifier,sent" triples, of which the identifiers are kept).
/// - The `<info>` blocks in the reader's language: the first of
///   `languages` the message has (`de` matches `de-DE`; `nb`, `nn` and `no`
///   are one language), else English, else the message's first; a block
///   without `language` is `en-US`, as CAP says.
/// - Each of those blocks whose areas reach the place is one alert: an area
///   whose polygon or circle contains the place matches it; an area with no
///   outline matches only by a geocode the caller knows the place lies in
///   (`placeCodes`, "VALUENAME:VALUE" with the name in upper case), and the
///   alert is then `approximate`; a block with neither is not for the place.
///   `regions` names the matching areas only.
/// - From a block: `event`, `urgency`, `severity` (when it is missing or
///   `Unknown`, MeteoAlarm's `awareness_level` parameter stands in),
///   `certainty`, `effective` (else `sent`) as the start, `onset`,
///   `expires` as the end (the `eventEndingTime` parameter when given),
///   `headline` (else `event`) as the title, `description`, `instruction`
///   and `web`. A block whose `responseType` is `AllClear` says the hazard
///   is over: it is read as a cancellation of what the message references.
///
/// Text is kept as the service wrote it, bounded (`AlertLimits`); it
/// becomes plain text for people in `AlertText`. Times must carry their
/// offset (`2023-06-23T11:14:00+02:00`); a value that is not what CAP says
/// it is fails the whole message with an error naming the element
/// (`alert.info[2].area[0].polygon`).
public enum CAPAlert {
    /// The alerts in the CAP document `body` that concern the place at
    /// `place`, stamped with `source`. Throws when the body is not XML, not
    /// a CAP `<alert>`, or holds a value CAP does not allow.
    public static func alerts(
        _ body: [UInt8], source: String, at place: AlertArea.Point, placeCodes: Set<String> = [],
        languages: [String]
    ) throws(ProviderParseError) -> [WeatherAlert] {
        let root: XMLElement
        do {
            root = try XMLReader.parse(body)
        } catch {
            throw ProviderParseError(provider: source, field: "", problem: .notXML(error))
        }
        return try alerts(in: root, source: source, at: place, placeCodes: placeCodes, languages: languages)
    }

    /// The same for a document already read (`root` must be the `<alert>`).
    public static func alerts(
        in root: XMLElement, source: String, at place: AlertArea.Point, placeCodes: Set<String> = [],
        languages: [String]
    ) throws(ProviderParseError) -> [WeatherAlert] {
        let message = Reader(source: source)
        guard root.localName == "alert" else {
            throw message.error(.invalidValue("a <\(root.name)>, not a CAP <alert>"), at: "")
        }
        let path = "alert"
        let identifier = try message.identifier(root, path: path)
        _ = try message.required(root, "sender", path: path)
        let sent = try message.requiredTime(root, "sent", path: path)
        let status = try message.required(root, "status", path: path)
        switch status.lowercased() {
        case "actual": break
        case "exercise", "system", "test", "draft": return []
        default:
            throw message.error(
                .invalidValue("status \(quoted(status)) is none of Actual, Exercise, System, Test, Draft"),
                at: "\(path).status")
        }
        let typeText = try message.required(root, "msgType", path: path)
        guard let messageType = AlertMessageType(providerText: typeText) else {
            if ["ack", "error"].contains(typeText.lowercased()) { return [] }
            throw message.error(
                .invalidValue("msgType \(quoted(typeText)) is none of Alert, Update, Cancel, Ack, Error"),
                at: "\(path).msgType")
        }
        let references = try message.references(root, path: path)

        let infos = root.children("info")
        guard !infos.isEmpty else {
            // A cancellation may say no more than what it cancels; it
            // withdraws only alerts the place already has, so it concerns it.
            guard messageType == .cancel else { return [] }
            return [
                WeatherAlert(
                    title: "", start: sent, id: identifier, messageType: .cancel, references: references,
                    source: source)
            ]
        }
        var alerts: [WeatherAlert] = []
        for (index, info) in chosen(infos, languages: languages) {
            let infoPath = "\(path).info[\(index)]"
            var alert = try message.alert(info, path: infoPath, sent: sent)
            guard let match = try message.match(info, path: infoPath, place: place, placeCodes: placeCodes) else {
                continue
            }
            alert.regions = match.regions
            alert.approximate = match.approximate
            alert.id = alerts.isEmpty ? identifier : "\(identifier)#\(alerts.count + 1)"
            alert.messageType = alert.messageType ?? messageType
            alert.references = references
            alert.source = source
            alerts.append(alert)
        }
        return alerts
    }

    /// The `<info>` blocks (with their index among all) in the language the
    /// reader reads: an exact tag first, then the same primary language.
    static func chosen(_ infos: [XMLElement], languages: [String]) -> [(Int, XMLElement)] {
        let tags = infos.map { ($0.childText("language") ?? "en-US").lowercased() }
        func blocks(_ keep: (String) -> Bool) -> [(Int, XMLElement)] {
            tags.indices.filter { keep(tags[$0]) }.map { ($0, infos[$0]) }
        }
        for wanted in languages.map({ $0.lowercased() }) where !wanted.isEmpty {
            let exact = blocks { $0 == wanted }
            if !exact.isEmpty { return exact }
            let same = blocks { primaryLanguage($0) == primaryLanguage(wanted) }
            if !same.isEmpty { return same }
        }
        let english = blocks { primaryLanguage($0) == "en" }
        if !english.isEmpty { return english }
        return blocks { $0 == tags[0] }
    }

    /// `de` of `de-DE`; Norwegian's three codes (`no`, `nb`, `nn`) as one.
    static func primaryLanguage(_ tag: String) -> String {
        let primary = String(tag.prefix { $0 != "-" && $0 != "_" })
        return ["nb", "nn"].contains(primary) ? "no" : primary
    }

    /// The severity a MeteoAlarm `awareness_level` ("2; yellow; Moderate")
    /// stands for: its words, else its level (1 green … 4 red).
    static func severity(awarenessLevel text: String) -> AlertSeverity {
        let parts = text.split(separator: ";").map { XMLElement.trimmed(String($0)) }
        if parts.count >= 3 {
            let words = AlertSeverity(providerText: parts[2])
            if words != .unknown { return words }
        }
        switch parts.first {
        case "1": return .minor
        case "2": return .moderate
        case "3": return .severe
        case "4": return .extreme
        default: return .unknown
        }
    }

    /// `"text"`, cut short for an error message.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? String(text.prefix(60)) + "…" : text) + "\""
    }
}

extension CAPAlert {
    /// Reads the elements of one CAP message, every error naming the source
    /// and the element's path.
    struct Reader {
        let source: String

        func error(_ problem: ProviderParseError.Problem, at path: String) -> ProviderParseError {
            ProviderParseError(provider: source, field: path, problem: problem)
        }

        /// The trimmed text of a required child.
        func required(_ element: XMLElement, _ name: String, path: String) throws(ProviderParseError) -> String {
            guard let text = element.childText(name) else { throw error(.missing, at: "\(path).\(name)") }
            return text
        }

        func identifier(_ element: XMLElement, path: String) throws(ProviderParseError) -> String {
            let identifier = try required(element, "identifier", path: path)
            guard identifier.utf8.count <= AlertLimits.identifierBytes else {
                throw error(
                    .invalidValue("an identifier longer than \(AlertLimits.identifierBytes) bytes"),
                    at: "\(path).identifier")
            }
            return identifier
        }

        func requiredTime(_ element: XMLElement, _ name: String, path: String) throws(ProviderParseError) -> Double {
            guard let time = try time(element, name, path: path) else { throw error(.missing, at: "\(path).\(name)") }
            return time
        }

        /// A child holding a time with its offset, as Unix seconds; nil when absent.
        func time(_ element: XMLElement, _ name: String, path: String) throws(ProviderParseError) -> Double? {
            guard let text = element.childText(name) else { return nil }
            return try time(text, at: "\(path).\(name)")
        }

        func time(_ text: String, at path: String) throws(ProviderParseError) -> Double {
            guard let instant = ISO8601Instant.parse(text, allowing: [.fractions]) else {
                throw error(
                    .invalidValue(
                        "\(CAPAlert.quoted(text)) is not a time with a UTC offset (CAP writes 2023-06-23T11:14:00+02:00)"
                    ),
                    at: path)
            }
            return instant.unixSeconds
        }

        /// The identifiers of `references` ("sender,identifier,sent ...").
        func references(_ element: XMLElement, path: String) throws(ProviderParseError) -> [String]? {
            guard let text = element.childText("references") else { return nil }
            var identifiers: [String] = []
            for triple in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                let parts = triple.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 3, !parts[1].isEmpty, parts[1].utf8.count <= AlertLimits.identifierBytes else {
                    throw error(
                        .invalidValue("\(CAPAlert.quoted(String(triple))) is not a sender,identifier,sent triple"),
                        at: "\(path).references")
                }
                let identifier = String(parts[1])
                if !identifiers.contains(identifier), identifiers.count < AlertLimits.references {
                    identifiers.append(identifier)
                }
            }
            return identifiers
        }

        /// The regions of `info`'s areas that reach `place`, and whether they
        /// were matched by code only; nil when none does.
        func match(
            _ info: XMLElement, path: String, place: AlertArea.Point, placeCodes: Set<String>
        ) throws(ProviderParseError) -> (regions: [String], approximate: Bool)? {
            var byOutline: [String] = []
            var byCode: [String] = []
            for (index, area) in info.children("area").enumerated() {
                let areaPath = "\(path).area[\(index)]"
                let name = AlertText.bounded(
                    try required(area, "areaDesc", path: areaPath), maximumBytes: AlertLimits.nameBytes)
                let outline = try self.outline(area, path: areaPath)
                if !outline.isEmpty {
                    if outline.contains(place) { byOutline.append(name) }
                } else if !placeCodes.isEmpty, try !codes(area, path: areaPath).isDisjoint(with: placeCodes) {
                    byCode.append(name)
                }
            }
            guard !byOutline.isEmpty || !byCode.isEmpty else { return nil }
            var regions: [String] = []
            for name in byOutline + byCode where !regions.contains(name) && regions.count < AlertLimits.regions {
                regions.append(name)
            }
            return (regions, byOutline.isEmpty)
        }

        /// The area's polygons and circles.
        func outline(_ area: XMLElement, path: String) throws(ProviderParseError) -> AlertArea {
            var outline = AlertArea()
            for (index, polygon) in area.children("polygon").enumerated() {
                let at = "\(path).polygon[\(index)]"
                var ring: [AlertArea.Point] = []
                for pair in polygon.trimmedText.split(whereSeparator: isSeparator) {
                    ring.append(try point(pair, at: at))
                }
                guard ring.count >= 3 else {
                    throw error(.invalidValue("a polygon of \(ring.count) points; CAP asks for at least 4"), at: at)
                }
                outline.polygons.append(AlertArea.Polygon(rings: [ring]))
            }
            for (index, circle) in area.children("circle").enumerated() {
                let at = "\(path).circle[\(index)]"
                let parts = circle.trimmedText.split(whereSeparator: isSeparator)
                guard parts.count == 2, let radius = Double(parts[1]), radius.isFinite, radius >= 0, radius <= 40_000
                else {
                    throw error(
                        .invalidValue("\(CAPAlert.quoted(circle.trimmedText)) is not a circle \"lat,lon radius_km\""),
                        at: at)
                }
                outline.circles.append(AlertArea.Circle(center: try point(parts[0], at: at), radiusKilometres: radius))
            }
            return outline
        }

        /// "lat,lon" in WGS 84 degrees; longitudes past ±180 (written by some
        /// services for outlines across the antimeridian) up to ±360.
        func point(_ pair: Substring, at path: String) throws(ProviderParseError) -> AlertArea.Point {
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 360
            else {
                throw error(
                    .invalidValue("\(CAPAlert.quoted(String(pair))) is not a point \"lat,lon\" in degrees"), at: path)
            }
            return AlertArea.Point(latitude: latitude, longitude: longitude)
        }

        /// The area's geocodes as "VALUENAME:VALUE" (`EMMA_ID:RS010`).
        func codes(_ area: XMLElement, path: String) throws(ProviderParseError) -> Set<String> {
            var codes: Set<String> = []
            for (index, geocode) in area.children("geocode").enumerated() {
                let at = "\(path).geocode[\(index)]"
                codes.insert(
                    try required(geocode, "valueName", path: at).uppercased() + ":"
                        + required(geocode, "value", path: at))
            }
            return codes
        }

        /// What one `<info>` block says, without its areas.
        func alert(_ info: XMLElement, path: String, sent: Double) throws(ProviderParseError) -> WeatherAlert {
            let event = AlertText.bounded(try required(info, "event", path: path), maximumBytes: AlertLimits.nameBytes)
            var severity = AlertSeverity(providerText: info.childText("severity") ?? "")
            var ends: Double?
            for (index, parameter) in info.children("parameter").enumerated() {
                let at = "\(path).parameter[\(index)]"
                switch parameter.childText("valueName") {
                case "awareness_level" where severity == .unknown:
                    severity = CAPAlert.severity(awarenessLevel: try required(parameter, "value", path: at))
                case "eventEndingTime":
                    ends = try time(try required(parameter, "value", path: at), at: "\(at).value")
                default: break
                }
            }
            let allClear = info.children("responseType").contains { $0.trimmedText.lowercased() == "allclear" }
            let headline = info.childText("headline").map {
                AlertText.bounded($0, maximumBytes: AlertLimits.titleBytes)
            }
            let expires = try time(info, "expires", path: path)
            return WeatherAlert(
                title: headline ?? event, severity: severity, start: try time(info, "effective", path: path) ?? sent,
                end: ends ?? expires,
                description: info.childText("description").map {
                    AlertText.bounded($0, maximumBytes: AlertLimits.descriptionBytes)
                } ?? "",
                uri: info.childText("web").flatMap(Self.webAddress) ?? "",
                event: event, onset: try time(info, "onset", path: path),
                urgency: info.childText("urgency").map(AlertUrgency.init(providerText:)),
                certainty: info.childText("certainty").map(AlertCertainty.init(providerText:)),
                messageType: allClear ? .cancel : nil,
                instruction: info.childText("instruction").map {
                    AlertText.bounded($0, maximumBytes: AlertLimits.instructionBytes)
                })
        }

        /// A web address for people: http(s), no spaces or control codes, bounded; nil otherwise.
        static func webAddress(_ text: String) -> String? {
            let lower = text.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), text.utf8.count <= AlertLimits.uriBytes,
                !text.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) })
            else { return nil }
            return text
        }

        func isSeparator(_ character: Character) -> Bool {
            character == " " || character == "\t" || character == "\n" || character == "\r"
        }
    }
}
