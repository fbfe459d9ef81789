import RainCore

/// Environment and Climate Change Canada's weather alerts, from the
/// `weather-alerts` collection of MSC GeoMet's OGC API - Features
/// (https://api.weather.gc.ca/collections/weather-alerts): free, no key,
/// under ECCC's Data Server End-use Licence. One question a poll,
/// `/collections/weather-alerts/items?f=json&bbox=..&lang=..&limit=..`,
/// answered with a GeoJSON feature collection: one feature per alert and
/// forecast region (a warning for five regions is five features), each
/// with the region's polygon, the alert's names and text in English and
/// French (`alert_name_en`, `alert_text_fr`, ...), its times and its colour.
///
/// A bounding box is a coarse filter: the collection answers every feature
/// whose outline meets the box. So the box is the same for every place in a
/// cell of raind's grid (0.01°) and a cell wider on each side, and of its
/// features only those whose polygon contains the place are kept
/// (`AlertArea`), with the region's name. A feature without a polygon
/// cannot be matched and is left out.
///
/// The collection holds the alerts in force: an updated alert replaces the
/// earlier one, so each is an `Alert` of its own. One whose `status_en` is
/// `ended` or `cancelled` is over and is left out. ECCC sends no CAP
/// severity, urgency or certainty; the alert's colour (`risk_colour_en`,
/// ECCC's colour-coded alerts since 2025) reads as MeteoAlarm's colours do:
/// yellow as moderate, orange as severe, red as extreme; without one
/// (a special weather statement) the severity is unknown.
public struct ECCCAlertSource: AlertSource {
    public init() {}

    public var name: String { "eccc" }
    public var defaultBaseURL: String { "https://api.weather.gc.ca" }

    /// The End-use Licence asks for the source to be named.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Alerts from Environment and Climate Change Canada"),
            url: "https://weather.gc.ca/warnings/index_e.html")
    }

    /// ECCC issues and renews alerts as the weather calls for it, not on a
    /// schedule; GeoMet publishes no rate and asks users to retrieve only
    /// what they use and to send a User-Agent (its Service Usage Policy).
    /// Every ten minutes is 144 requests a place a day, each a small box;
    /// warnings are mostly issued six to 24 hours ahead (ECCC's alert
    /// documentation), so ten minutes loses little.
    public var terms: AlertSourceTerms {
        AlertSourceTerms(
            countries: ["CA"], pollingInterval: 600, conditionalRequests: true,
            coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 1))
    }

    /// The languages the collection writes, English first.
    static let languages = ["en", "fr"]

    /// Features asked for at most: far more than meet a box of a few
    /// kilometres, and the collection's default (ten) is too few.
    static let featureLimit = 100

    /// The box asked for a place, in hundredths of a degree (west, south,
    /// east, north): the place's grid cell and one cell more on each side,
    /// within the world's bounds.
    static func box(latitude: Double, longitude: Double) -> (west: Int, south: Int, east: Int, north: Int) {
        let south = Int((min(max(latitude, -90), 90) * 100).rounded(.down))
        let west = Int((min(max(longitude, -180), 180) * 100).rounded(.down))
        return (max(west - 1, -18_000), max(south - 1, -9_000), min(west + 2, 18_000), min(south + 2, 9_000))
    }

    /// `/collections/weather-alerts/items?f=json&bbox=-79.39,43.64,-79.36,43.67&lang=en&limit=100`.
    static func path(latitude: Double, longitude: Double, language: String) -> String {
        let box = box(latitude: latitude, longitude: longitude)
        let corners = [box.west, box.south, box.east, box.north].map { hundredths in
            DecimalText.format(Double(hundredths) / 100, fractionDigits: 2) ?? "0"
        }
        return "/collections/weather-alerts/items?f=json&bbox=" + corners.joined(separator: ",") + "&lang="
            + language + "&limit=\(featureLimit)"
    }

    /// One request; a place known to lie outside Canada is not covered.
    public func plan(for place: Location, languages: [String], now: Double) -> AlertPlan {
        if !place.countryCode.isEmpty, !terms.countries.contains(place.countryCode.uppercased()) {
            return .notCovered(Localization.marked("Environment and Climate Change Canada warns for Canada only"))
        }
        let language = AlertLanguage.choose(languages, from: Self.languages)
        return .requests([
            ProviderRequest(path: Self.path(latitude: place.latitude, longitude: place.longitude, language: language))
        ])
    }

    /// The alerts of the features whose polygon contains the place, at
    /// most `AlertLimits.alertsPerFeed`. Throws on an answer that is not a
    /// feature collection, and on a field of the wrong type, a time that is
    /// not one or a polygon that is not one.
    public func parseFeed(
        _ answers: [[UInt8]], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> AlertFeed {
        guard answers.count == 1 else {
            throw ProviderParseError(
                provider: name, field: "", problem: .invalidValue("expected 1 answer, got \(answers.count)"))
        }
        let root = try ProviderJSON.parse(answers[0], provider: name)
        guard let features = try root.array("features") else {
            if let reason = try root.text("description", else: "detail", bytes: AlertLimits.titleBytes) {
                throw root.error(.providerReported(ProviderJSON.excerpt(reason)), at: "description")
            }
            throw root.error(.missing, at: "features")
        }
        let language = AlertLanguage.choose(languages, from: Self.languages)
        let point = AlertArea.Point(latitude: place.latitude, longitude: place.longitude)
        var alerts: [WeatherAlert] = []
        for feature in features.prefix(AlertLimits.alertsPerFeed) {
            guard case .object = feature.value else {
                throw feature.error(.wrongType(expected: "an object", got: feature.value.kindName))
            }
            let properties = try feature.required("properties")
            guard case .object = properties.value else {
                throw properties.error(.wrongType(expected: "an object", got: properties.value.kindName))
            }
            // A feature without an outline (a point) says nothing of where the place is.
            guard let geometry = try feature.object("geometry"),
                AlertArea.outlineTypes.contains(try geometry.string("type") ?? ""),
                try AlertArea(geoJSON: geometry).contains(point)
            else { continue }
            if let alert = try alert(properties, feature: feature, language: language) { alerts.append(alert) }
        }
        var feed = AlertFeed(alerts: alerts, cutFrom: features.count)
        // The collection pages its answer: a page of `featureLimit` when more
        // matched (`numberMatched`) is not the whole box.
        if let matched = try root.number("numberMatched"), matched.isFinite, matched > Double(features.count) {
            feed.unread += Int(min(matched, 1e6)) - features.count
            feed.unreadReason = "the service matched \(Int(min(matched, 1e6))) and sent \(features.count)"
        }
        return feed
    }

    /// One feature's alert; nil for one that has ended.
    func alert(
        _ properties: ProviderJSON, feature: ProviderJSON, language: String
    ) throws(ProviderParseError) -> WeatherAlert? {
        if let status = try properties.string("status_en"),
            ["ended", "cancelled", "canceled"].contains(status.lowercased())
        {
            return nil
        }
        var identifier = try properties.identifier("id")
        if identifier == nil { identifier = try feature.identifier("id") }
        guard let id = identifier else {
            throw properties.error(.missing, at: properties.childPath("id"))
        }
        let other = language == "fr" ? "en" : "fr"
        func text(_ field: String, bytes: Int) throws(ProviderParseError) -> String? {
            try properties.text("\(field)_\(language)", else: "\(field)_\(other)", bytes: bytes)
        }
        let event = try text("alert_name", bytes: AlertLimits.eventBytes)
        let region = try text("feature_name", bytes: AlertLimits.titleBytes)
        return WeatherAlert(
            title: event.map(Self.capitalizingFirst) ?? "",
            severity: Self.severity(colour: try properties.string("risk_colour_en")),
            regions: region.map { [$0] } ?? [],
            start: try properties.instant("publication_datetime"),
            end: try properties.instant("event_end_datetime", else: "expiration_datetime"),
            description: try text("alert_text", bytes: AlertLimits.textBytes) ?? "",
            id: id, event: event, onset: try properties.instant("validity_datetime"), messageType: .alert,
            source: name)
    }

    /// The CAP severity a colour of ECCC's stands for (MeteoAlarm's reading
    /// of its awareness colours); unknown without one.
    static func severity(colour: String?) -> AlertSeverity {
        switch colour?.lowercased() {
        case "yellow": return .moderate
        case "orange": return .severe
        case "red": return .extreme
        default: return .unknown
        }
    }

    /// "Freezing rain warning" of ECCC's "freezing rain warning".
    static func capitalizingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
