import RainCore

/// MET Norway's MetAlerts 2.0 (https://api.met.no/weatherapi/metalerts/2.0/documentation):
/// the Norwegian Meteorological Institute's warnings for Norway's land,
/// coast and seas and for Svalbard, keyless, under MET's terms of service
/// (https://api.met.no/doc/TermsOfService).
///
/// raind asks `current.json?lat=..&lon=..&lang=..`: the warnings in force
/// or announced that cover the point, as GeoJSON features
/// (https://docs.api.met.no/doc/metalerts/geojson.html), each with its
/// outline, the CAP fields most people need, the interval it is valid for
/// and a link to its CAP message. The feed's alerts are shown at once. Each
/// feature's CAP message is fetched too, once (MET: a CAP file never
/// changes, and must not be downloaded again): only it holds `references`
/// (nearly every MetAlerts message is an `Update` of an earlier one, and
/// without them an update could not replace the notification of what it
/// updates), `urgency`, `sent` and `effective` apart from `onset`, and both
/// languages. The feed's alert and its message's carry the same
/// identifier (MET's `id` is the CAP `identifier`), so they are one alert.
///
/// The point query is MET's, marked experimental; raind checks it: a
/// feature whose outline does not contain the place is left out (a feed
/// that ignored the point, like an unfiltered recording of all 29 marine
/// warnings, gives only the place's). A feature without an outline is
/// taken as MET matched it.
public struct MetAlertsSource: AlertSource {
    /// The source's name in `Alert.source` and `[Alerts] Sources=`.
    public static let sourceName = "metalerts"

    public init() {}

    public var name: String { Self.sourceName }
    public var defaultBaseURL: String { "https://api.met.no" }

    /// MET's data is CC BY 4.0, crediting MET Norway with a link to the
    /// licence (https://api.met.no/doc/License).
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Weather warnings from MET Norway (CC BY 4.0)"),
            url: "https://api.met.no/doc/License")
    }

    /// - Countries: Norway and Svalbard and Jan Mayen (`SJ`), for which MET
    ///   issues the warnings.
    /// - Polling every 15 minutes: MET's terms ask push-style clients for no
    ///   more than one MetAlerts poll every 10 minutes, and call the GeoJSON
    ///   form slow and costly to produce; warnings are issued hours before
    ///   their onset, so 15 minutes loses little. 96 feed requests a place a
    ///   day, most of them answered 304, plus one for each new message.
    /// - Jitter 0.25: MET asks that requests not fall on the same minute.
    /// - Conditional requests: MET asks for `If-Modified-Since` with the
    ///   last `Last-Modified` exactly, which the daemon sends back as it came.
    /// - Coordinates on raind's 0.01° grid (MET allows at most 4 decimals).
    public var terms: AlertSourceTerms {
        AlertSourceTerms(
            countries: ["NO", "SJ"], pollingInterval: 15 * 60, jitterFraction: 0.25, conditionalRequests: true,
            coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(callsPerRequest: 1, period: .day, freeCalls: nil))
    }

    /// `/weatherapi/metalerts/2.0/current.json?lat=59.91&lon=10.75&lang=no`
    /// for a place in Norway or Svalbard; not covered elsewhere.
    public func plan(for place: Location, languages: [String], now: Double) -> AlertPlan {
        guard terms.countries.contains(place.countryCode.uppercased()) else {
            return .notCovered(Localization.marked("MET Norway issues warnings for Norway and Svalbard only"))
        }
        return .requests([
            ProviderRequest(
                path: "/weatherapi/metalerts/2.0/current.json?lat=\(ProviderQuery.coordinate(place.latitude))"
                    + "&lon=\(ProviderQuery.coordinate(place.longitude))&lang=\(Self.language(for: languages))")
        ])
    }

    /// MET writes its texts in Norwegian (`no`) and English (`en`): the
    /// first of these the reader reads (Bokmål and Nynorsk are Norwegian),
    /// else English.
    static func language(for languages: [String]) -> String {
        for language in languages {
            switch CAPAlert.primaryLanguage(language.lowercased()) {
            case "no": return "no"
            case "en": return "en"
            default: continue
            }
        }
        return "en"
    }

    /// The features of the answer whose outline contains the place, as
    /// alerts, and their CAP messages to fetch. Features that are not
    /// `Actual`, and `Ack` or `Error` messages, are left out. Throws when the
    /// body is not a GeoJSON feature collection or a field is of the wrong
    /// type or value.
    public func parseFeed(
        _ answers: [[UInt8]], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> AlertFeed {
        guard answers.count == 1 else {
            throw ProviderParseError(
                provider: name, field: "", problem: .invalidValue("\(answers.count) answers to one request"))
        }
        let root = try ProviderJSON.parse(answers[0], provider: name)
        guard let features = try root.array("features") else { throw root.error(.missing, at: "features") }
        let point = AlertArea.Point(latitude: place.latitude, longitude: place.longitude)
        var feed = AlertFeed(alerts: [])
        for feature in features {
            guard let found = try alert(feature, at: point) else { continue }
            let (alert, document) = found
            // Past a bound, a warning for the place is counted, not taken for none.
            guard feed.alerts.count < AlertLimits.alertsPerFeed else {
                feed.unread += 1
                feed.unreadReason = AlertFeed.beyond(AlertLimits.alertsPerFeed)
                continue
            }
            feed.alerts.append(alert)
            // The feature is the whole warning; its document only adds its references.
            if let document, !feed.documents.contains(document), feed.documents.count < AlertLimits.documentsPerFeed {
                feed.documents.append(document)
            }
        }
        return feed
    }

    /// A feature as an alert with its CAP message's address, nil when it is
    /// not a warning for the place.
    func alert(
        _ feature: ProviderJSON, at point: AlertArea.Point
    ) throws(ProviderParseError) -> (WeatherAlert, String?)? {
        guard let properties = try feature.object("properties") else {
            throw feature.error(.missing, at: feature.childPath("properties"))
        }
        let status = try Self.required(properties, "status")
        guard status.lowercased() == "actual" else { return nil }
        let typeText = try Self.required(properties, "type")
        guard let messageType = AlertMessageType(providerText: typeText) else {
            if ["ack", "error"].contains(typeText.lowercased()) { return nil }
            throw properties.error(
                .invalidValue("\(CAPAlert.quoted(typeText)) is none of Alert, Update, Cancel"),
                at: properties.childPath("type"))
        }
        if let geometry = try feature.object("geometry"), try !AlertArea(geoJSON: geometry).contains(point) {
            return nil
        }
        let id = try Self.required(properties, "id")
        guard id.utf8.count <= AlertLimits.identifierBytes else {
            throw properties.error(
                .invalidValue("an id longer than \(AlertLimits.identifierBytes) bytes"), at: properties.childPath("id"))
        }
        // `event` is MET's code for the hazard ("gale"); its name in the
        // language asked for ("Kuling") is CAP's `event`.
        var named = try properties.string("eventAwarenessName")
        if named == nil { named = try properties.string("event") }
        guard let event = named else {
            throw properties.error(.missing, at: properties.childPath("event"))
        }
        var severity = AlertSeverity(providerText: try properties.string("severity") ?? "")
        if severity == .unknown, let level = try properties.string("awareness_level") {
            severity = CAPAlert.severity(awarenessLevel: level)
        }
        let (onset, expires) = try Self.interval(feature)
        let ends = try Self.time(properties, "eventEndingTime")
        let area = try properties.string("area").map { AlertText.bounded($0, maximumBytes: AlertLimits.nameBytes) }
        let alert = WeatherAlert(
            title: AlertText.bounded(try properties.string("title") ?? event, maximumBytes: AlertLimits.titleBytes),
            severity: severity, regions: area.map { [$0] } ?? [], start: onset, end: ends ?? expires,
            description: AlertText.bounded(
                try properties.string("description") ?? "", maximumBytes: AlertLimits.descriptionBytes),
            uri: try properties.string("web").flatMap { CAPAlert.Reader.webAddress(XMLElement.trimmed($0)) } ?? "",
            id: id, event: AlertText.bounded(event, maximumBytes: AlertLimits.nameBytes), onset: onset,
            certainty: try properties.string("certainty").map(AlertCertainty.init(providerText:)),
            messageType: messageType,
            instruction: try properties.string("instruction").map {
                AlertText.bounded($0, maximumBytes: AlertLimits.instructionBytes)
            },
            source: name, approximate: false)
        return (alert, try Self.document(properties))
    }

    /// `when.interval`: [onset, expires], either may be absent.
    static func interval(_ feature: ProviderJSON) throws(ProviderParseError) -> (Double?, Double?) {
        guard let when = try feature.object("when"), let interval = try when.array("interval") else {
            return (nil, nil)
        }
        var times: [Double?] = []
        for entry in interval.prefix(2) {
            guard let text = entry.value.stringValue else {
                if entry.value.isNull {
                    times.append(nil)
                    continue
                }
                throw entry.error(.wrongType(expected: "a string", got: entry.value.kindName))
            }
            times.append(try time(text, at: entry))
        }
        return (times.first ?? nil, times.count > 1 ? times[1] : nil)
    }

    /// The address of the feature's CAP message (`resources`, "CAP file").
    static func document(_ properties: ProviderJSON) throws(ProviderParseError) -> String? {
        for resource in try properties.array("resources") ?? [] {
            let mimeType = try resource.string("mimeType")
            guard mimeType == "application/xml" || mimeType == "application/cap+xml",
                let uri = try resource.string("uri")
            else { continue }
            guard let address = CAPAlert.Reader.webAddress(XMLElement.trimmed(uri)), address.hasPrefix("https://")
            else {
                throw resource.error(
                    .invalidValue("\(CAPAlert.quoted(uri)) is not an https address"), at: resource.childPath("uri"))
            }
            return address
        }
        return nil
    }

    /// The CAP message of a feature: its alert for the place, read as every
    /// CAP message is (`CAPAlert`), in the reader's language.
    public func parseDocument(
        _ body: [UInt8], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> [WeatherAlert] {
        try CAPAlert.alerts(
            body, source: name, at: AlertArea.Point(latitude: place.latitude, longitude: place.longitude),
            languages: languages)
    }

    static func required(_ object: ProviderJSON, _ key: String) throws(ProviderParseError) -> String {
        guard let text = try object.string(key) else { throw object.error(.missing, at: object.childPath(key)) }
        return text
    }

    static func time(_ object: ProviderJSON, _ key: String) throws(ProviderParseError) -> Double? {
        guard let member = object[key], let text = try object.string(key) else { return nil }
        return try time(text, at: member)
    }

    static func time(_ text: String, at member: ProviderJSON) throws(ProviderParseError) -> Double {
        guard let instant = ISO8601Instant.parse(text, allowing: [.fractions]) else {
            throw member.error(.invalidValue("\(CAPAlert.quoted(text)) is not a time with a UTC offset"))
        }
        return instant.unixSeconds
    }
}
