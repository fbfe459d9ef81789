import RainCore

/// The Deutscher Wetterdienst's warnings through Bright Sky
/// (https://brightsky.dev/docs/#/operations/getAlerts), which reads the
/// DWD's CAP warnings for Germany's some 11,000 municipal warn cells from
/// its open data server once a minute. One question a poll,
/// `/alerts?lat=..&lon=..&tz=..`: Bright Sky finds the cell the point lies
/// in and answers the warnings in force or announced for it (`alerts`),
/// with the cell (`location`: its id and name). So every alert in the
/// answer concerns the place, and the cell's name is the area shown. Once
/// an answer has named the cell, the place asks by it,
/// `/alerts?warn_cell_id=..&tz=..`, whose answer holds the same: every
/// warning of the cell (`DWDWarnCell`).
///
/// Bright Sky keeps the DWD's current set: an update replaces the warning
/// it updates and a cancelled warning leaves the set, so each alert is an
/// `Alert` of its own and none references another. Texts come in German
/// and English (`headline_de`, `headline_en`, ...); raind reads the first
/// of the reader's languages of the two, else English, and the other
/// language where that one has no text.
public struct DWDAlertSource: AlertSource {
    public init() {}

    public var name: String { "dwd" }
    public var defaultBaseURL: String { BrightSky.defaultBaseURL }

    /// The DWD's terms (GeoNutzV) ask for the source to be named; the texts
    /// are passed on as the DWD wrote them.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Warnings: Deutscher Wetterdienst, via Bright Sky"),
            url: "https://www.dwd.de/DE/wetter/warnungen_gemeinden/warnWetter_node.html")
    }

    /// The DWD renews its warnings as the weather calls for it, every few
    /// minutes when it changes fast, and Bright Sky copies them within a
    /// minute. Every ten minutes is no shorter than that and brings a short-
    /// notice warning (a thunderstorm's, issued an hour or less ahead)
    /// within ten minutes, at 144 requests a place a day. Bright Sky is
    /// free, keyless and sets no limit; it documents no validators, but the
    /// daemon sends back any an answer carries. Warn cells are municipalities,
    /// much larger than raind's grid of two decimals.
    public var terms: AlertSourceTerms {
        AlertSourceTerms(
            countries: ["DE"], pollingInterval: 600, conditionalRequests: true,
            coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 1))
    }

    /// The languages Bright Sky writes the texts in, the DWD's own first.
    static let languages = ["de", "en"]

    /// `/alerts?lat=52.52&lon=13.41&tz=Europe%2FBerlin`: times come back
    /// in the place's zone (each with its offset), in UTC for a place
    /// without one.
    static func path(latitude: Double, longitude: Double, timeZone: String) -> String {
        let query: [(String, String)] = [
            ("lat", ProviderQuery.coordinate(latitude)),
            ("lon", ProviderQuery.coordinate(longitude)),
            ("tz", BrightSky.zoneParameter(timeZone)),
        ]
        return "/alerts?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// By the place's warn cell when a point answer has named it and the
    /// place has not moved since (`DWDWarnCell`): one question for every
    /// place in the cell. Else by point.
    public func plan(for place: Location, lookups: [ProviderLookup], languages: [String], now: Double) -> AlertPlan {
        let byPoint = plan(for: place, languages: languages, now: now)
        guard case .requests = byPoint, let cell = DWDWarnCell.cell(in: lookups, for: place) else { return byPoint }
        return .requests([ProviderRequest(path: DWDWarnCell.path(cell))])
    }

    /// The cell a point answer names, kept; a cell answer naming another, dropped (`DWDWarnCell.outcome`).
    public func areaLookup(_ answers: [[UInt8]], asked: [String], for place: Location, now: Double) -> AlertAreaLookup {
        guard answers.count == 1, asked.count == 1 else { return .unchanged }
        return DWDWarnCell.outcome(answers[0], asked: asked[0], for: place, now: now)
    }

    /// One request; a place known to lie outside Germany is not covered.
    /// One of unknown country is asked for: Bright Sky answers 404 for a
    /// point in no warn cell.
    public func plan(for place: Location, languages: [String], now: Double) -> AlertPlan {
        if !place.countryCode.isEmpty, !terms.countries.contains(place.countryCode.uppercased()) {
            return .notCovered(Localization.marked("the DWD warns for Germany only"))
        }
        return .requests([
            ProviderRequest(
                path: Self.path(latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone))
        ])
    }

    /// The alerts of the answer, at most `AlertLimits.alertsPerFeed`, in
    /// the language `languages` choose. Throws on an answer without
    /// `alerts` (Bright Sky's `{"detail": ...}` is its own error), and on a
    /// field of the wrong type or a time that is not one.
    public func parseFeed(
        _ answers: [[UInt8]], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> AlertFeed {
        guard answers.count == 1 else {
            throw ProviderParseError(
                provider: name, field: "", problem: .invalidValue("expected 1 answer, got \(answers.count)"))
        }
        let root = try ProviderJSON.parse(answers[0], provider: name)
        guard let entries = try root.array("alerts") else {
            if let detail = BrightSkyProvider.detail(root.value) {
                throw root.error(.providerReported(detail), at: "detail")
            }
            throw root.error(.missing, at: "alerts")
        }
        let cell = try root.object("location").flatMap { location throws(ProviderParseError) in
            try location.text("name", bytes: AlertLimits.titleBytes)
        }
        let language = AlertLanguage.choose(languages, from: Self.languages)
        var alerts: [WeatherAlert] = []
        for entry in entries.prefix(AlertLimits.alertsPerFeed) {
            guard case .object = entry.value else {
                throw entry.error(.wrongType(expected: "an object", got: entry.value.kindName))
            }
            if let alert = try alert(entry, language: language, cell: cell) { alerts.append(alert) }
        }
        return AlertFeed(alerts: alerts, cutFrom: entries.count)
    }

    /// One alert; nil for one whose `status` is not `actual` (a test).
    func alert(_ entry: ProviderJSON, language: String, cell: String?) throws(ProviderParseError) -> WeatherAlert? {
        if let status = try entry.string("status"), status.lowercased() != "actual" { return nil }
        guard let id = try entry.identifier("alert_id", else: "id") else {
            throw entry.error(.missing, at: entry.childPath("alert_id"))
        }
        let other = language == "de" ? "en" : "de"
        func text(_ field: String, bytes: Int) throws(ProviderParseError) -> String? {
            try entry.text("\(field)_\(language)", else: "\(field)_\(other)", bytes: bytes)
        }
        let event = try text("event", bytes: AlertLimits.eventBytes)
        return WeatherAlert(
            title: try text("headline", bytes: AlertLimits.titleBytes) ?? event ?? "",
            severity: AlertSeverity(providerText: try entry.string("severity") ?? ""),
            regions: cell.map { [$0] } ?? [],
            start: try entry.instant("effective"), end: try entry.instant("expires"),
            description: try text("description", bytes: AlertLimits.textBytes) ?? "",
            id: id, event: event, onset: try entry.instant("onset"),
            urgency: try entry.string("urgency").map(AlertUrgency.init(providerText:)),
            certainty: try entry.string("certainty").map(AlertCertainty.init(providerText:)),
            messageType: .alert, instruction: try text("instruction", bytes: AlertLimits.textBytes), source: name)
    }
}
