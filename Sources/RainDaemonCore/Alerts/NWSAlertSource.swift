import RainCore

/// The US National Weather Service's active alerts
/// (https://www.weather.gov/documentation/services-web-api): free, no key,
/// public domain. One question a poll, `/alerts/active?point={lat},{lon}`,
/// answered with a GeoJSON feature collection of the watches, warnings,
/// advisories and statements in force at the point, each the CAP message's
/// fields (`id`, `messageType`, `references`, `sent`, `effective`, `onset`,
/// `ends`, `expires`, `severity`, `urgency`, `certainty`, `event`,
/// `headline`, `description`, `instruction`, `areaDesc`). The API matches
/// the point to the alerts' zones and polygons itself, so every alert in
/// the answer concerns the place.
///
/// The API asks for a `User-Agent` naming the application and a way to
/// reach its maintainers (the daemon sends one on every request) and
/// answers GeoJSON to `Accept: application/geo+json`. Only `Actual`
/// messages are kept: exercises, tests and drafts are no warnings.
public struct NWSAlertSource: AlertSource {
    public init() {}

    public var name: String { "nws" }
    public var defaultBaseURL: String { NWS.defaultBaseURL }

    /// US Government work, in the public domain: no credit is required; this says whose alerts they are.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Alerts from the U.S. National Weather Service (public domain)"),
            url: "https://www.weather.gov/")
    }

    /// The NWS issues warnings for the United States and the territories
    /// with a forecast office of their own (San Juan for Puerto Rico and the
    /// US Virgin Islands, Guam for Guam and the Northern Mariana Islands,
    /// Pago Pago for American Samoa). The Minor Outlying Islands are not an
    /// area of the API's alerts (its list of areas has no `UM`); the freely
    /// associated states it also lists (Palau, Micronesia, the Marshall
    /// Islands) have services of their own and are left to them.
    ///
    /// Warnings are issued whenever the weather calls for one, not on a
    /// schedule, and the API sets no number of requests ("reasonable rate
    /// limits", not published). Every five minutes
    /// keeps a warning's delay short next to its lead time (a tornado
    /// warning's is some ten minutes) at 288 requests a place a day, most
    /// of them answered 304: the API sends `Last-Modified` and takes
    /// `If-Modified-Since` (its FAQ). Coordinates are sent on raind's grid
    /// (two decimals, within the API's four), so neighbours ask the same
    /// question and a site proxy answers them from one entry; a warning's
    /// polygon is drawn far coarser than the grid's kilometre.
    public var terms: AlertSourceTerms {
        AlertSourceTerms(
            countries: ["US", "PR", "VI", "GU", "MP", "AS"], pollingInterval: 300, conditionalRequests: true,
            coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 1))
    }

    /// `/alerts/active?point=47.61,-122.33`.
    static func path(latitude: Double, longitude: Double) -> String {
        "/alerts/active?point=\(ProviderQuery.coordinate(latitude)),\(ProviderQuery.coordinate(longitude))"
    }

    /// One request; a place known to lie elsewhere is not covered, one of
    /// unknown country is asked for (the API answers an empty collection
    /// for a point it has no zone for).
    public func plan(for place: Location, languages: [String], now: Double) -> AlertPlan {
        if !place.countryCode.isEmpty, !terms.countries.contains(place.countryCode.uppercased()) {
            return .notCovered(NWS.notCovered)
        }
        return .requests([
            ProviderRequest(path: Self.path(latitude: place.latitude, longitude: place.longitude), headers: NWS.headers)
        ])
    }

    /// By the place's zones when a kept `/points` lookup names them
    /// (`NWSAlertZones`): one question for every place in them, matched
    /// locally (`parseFeed`); else by the point.
    public func plan(for place: Location, lookups: [ProviderLookup], languages: [String], now: Double) -> AlertPlan {
        let byPoint = plan(for: place, languages: languages, now: now)
        guard case .requests = byPoint, let zones = NWSAlertZones.zones(in: lookups) else { return byPoint }
        return .requests([ProviderRequest(path: NWSAlertZones.path(zones), headers: NWS.headers)])
    }

    /// The alerts of the collection, at most `AlertLimits.alertsPerFeed`.
    /// Throws on an answer that is not a feature collection (a problem
    /// document is the API's own error), and on a field of the wrong type
    /// or a time that is not one.
    public func parseFeed(
        _ answers: [[UInt8]], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> AlertFeed {
        guard answers.count == 1 else {
            throw ProviderParseError(
                provider: name, field: "", problem: .invalidValue("expected 1 answer, got \(answers.count)"))
        }
        let root = try ProviderJSON.parse(answers[0], provider: name)
        guard let features = try root.array("features") else {
            if let problem = NWSProblem(root.value) {
                if problem.isInvalidPoint { throw root.error(.notCovered(NWS.notCovered)) }
                throw root.error(.providerReported(problem.reason))
            }
            throw root.error(.missing, at: "features")
        }
        var alerts: [WeatherAlert] = []
        for feature in features.prefix(AlertLimits.alertsPerFeed) {
            let properties = try feature.required("properties")
            guard case .object = properties.value else {
                throw properties.error(.wrongType(expected: "an object", got: properties.value.kindName))
            }
            // A zone's answer holds its counties' storm-based warnings, whose outline may miss the place.
            if try !outlineHolds(feature, place) { continue }
            if let alert = try alert(properties) { alerts.append(alert) }
        }
        return AlertFeed(alerts: alerts, cutFrom: features.count)
    }

    /// Whether the feature's outline (a Polygon or MultiPolygon; an edge
    /// counts as in) holds the place; true without one: the zone or county
    /// asked for is the alert's area. A point query's answer holds the
    /// point already; a zone query's holds every warning of the zones, and
    /// a storm-based warning (a tornado's, a severe thunderstorm's) covers
    /// only the part of its counties its polygon outlines.
    func outlineHolds(_ feature: ProviderJSON, _ place: Location) throws(ProviderParseError) -> Bool {
        guard let geometry = try feature.object("geometry"), let type = try geometry.string("type"),
            AlertArea.outlineTypes.contains(type)
        else { return true }
        return try AlertArea(geoJSON: geometry).contains(
            AlertArea.Point(latitude: place.latitude, longitude: place.longitude))
    }

    /// One feature's alert; nil for a message that is no actual warning
    /// (an exercise, a test, an acknowledgement).
    func alert(_ properties: ProviderJSON) throws(ProviderParseError) -> WeatherAlert? {
        let status = try properties.required("status")
        guard let statusText = status.value.stringValue else {
            throw status.error(.wrongType(expected: "a string", got: status.value.kindName))
        }
        guard statusText.lowercased() == "actual" else { return nil }
        let typeField = try properties.required("messageType")
        guard let typeText = typeField.value.stringValue else {
            throw typeField.error(.wrongType(expected: "a string", got: typeField.value.kindName))
        }
        guard let messageType = AlertMessageType(providerText: typeText) else { return nil }
        guard let id = try properties.identifier("id", else: "identifier") else {
            throw properties.error(.missing, at: properties.childPath("id"))
        }
        let event = try properties.text("event", bytes: AlertLimits.eventBytes)
        let headline = try properties.text("headline", bytes: AlertLimits.titleBytes)
        let regions = try properties.text("areaDesc", bytes: AlertLimits.textBytes).map(Self.regions) ?? []
        return WeatherAlert(
            title: headline ?? event ?? "",
            severity: AlertSeverity(providerText: try properties.string("severity") ?? ""),
            regions: regions,
            start: try properties.instant("effective", else: "sent"),
            end: try properties.instant("ends", else: "expires"),
            description: try properties.text("description", bytes: AlertLimits.textBytes) ?? "",
            id: id, event: event, onset: try properties.instant("onset"),
            urgency: try properties.string("urgency").map(AlertUrgency.init(providerText:)),
            certainty: try properties.string("certainty").map(AlertCertainty.init(providerText:)),
            messageType: messageType, references: try references(properties),
            instruction: try properties.text("instruction", bytes: AlertLimits.textBytes), source: name)
    }

    /// The identifiers of `references`: objects with an `identifier` (and
    /// the message's sender and time, which raind does not need).
    private func references(_ properties: ProviderJSON) throws(ProviderParseError) -> [String]? {
        var identifiers: [String] = []
        for reference in (try properties.array("references") ?? []).prefix(AlertLimits.references) {
            if case .object = reference.value {
                guard let identifier = try reference.identifier("identifier") else {
                    throw reference.error(.missing, at: reference.childPath("identifier"))
                }
                identifiers.append(identifier)
            } else {
                identifiers.append(try reference.asIdentifier())
            }
        }
        return identifiers.isEmpty ? nil : identifiers
    }

    /// `areaDesc` names the zones and counties separated by semicolons.
    static func regions(_ areaDescription: String) -> [String] {
        Array(
            areaDescription.split(separator: ";")
                .map { AlertLimits.truncated(String($0).trimmingSpaces(), toBytes: AlertLimits.titleBytes) }
                .filter { !$0.isEmpty }
                .prefix(AlertLimits.regions))
    }
}
