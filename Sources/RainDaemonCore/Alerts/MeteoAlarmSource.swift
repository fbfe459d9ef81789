import RainCore

/// MeteoAlarm (https://meteoalarm.org), EUMETNET's warnings from the
/// national weather services of Europe, keyless, one Atom feed a country:
/// `https://feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-COUNTRY`.
///
/// A feed entry is one area of one CAP message: its identifier, times,
/// status and type, the area's name and geocodes (`EMMA_ID`, `NUTS3`) and
/// a link to the whole message, but no outline. So raind reads the feed
/// for the messages to fetch (`parseFeed`: those not yet expired, once
/// each) and matches the place in the messages themselves
/// (`parseDocument`): by an area's polygon or circle when the member
/// service sends one (Serbia does); else by a geocode the place is known to
/// lie in, marked approximate. raind's places carry GeoNames' country and
/// administrative codes, not NUTS or EMMA ids, so today no place has one,
/// and a message without outlines (France's, NUTS3 only) gives no alert:
/// raind does not guess that a place lies in a département.
///
/// Every place of a country asks the same question (the feed has no point
/// query), so the daemon's cache of answers by URL makes one request a
/// country each interval, however many places lie in it.
public struct MeteoAlarmSource: AlertSource {
    /// The source's name in `Alert.source` and `[Alerts] Sources=`.
    public static let sourceName = "meteoalarm"

    /// The feed of each country (ISO 3166-1 alpha-2) MeteoAlarm publishes:
    /// the 39 EUMETNET members and cooperating states of its feed list.
    /// Germany and Norway are covered by national sources listed before
    /// MeteoAlarm in `AlertSources.all`, which are asked first.
    public static let feeds: [String: String] = [
        "AD": "andorra", "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria",
        "CH": "switzerland", "CY": "cyprus", "CZ": "czechia", "DE": "germany", "DK": "denmark", "EE": "estonia",
        "ES": "spain", "FI": "finland", "FR": "france", "GB": "united-kingdom", "GR": "greece", "HR": "croatia",
        "HU": "hungary", "IE": "ireland", "IL": "israel", "IS": "iceland", "IT": "italy", "LT": "lithuania",
        "LU": "luxembourg", "LV": "latvia", "MD": "moldova", "ME": "montenegro",
        "MK": "republic-of-north-macedonia", "MT": "malta", "NL": "netherlands", "NO": "norway", "PL": "poland",
        "PT": "portugal", "RO": "romania", "RS": "serbia", "SE": "sweden", "SI": "slovenia", "SK": "slovakia",
        "UA": "ukraine",
    ]

    /// The countries of `feeds`, made once: every place's source is chosen by them.
    static let countries = Set(feeds.keys)

    public init() {}

    public var name: String { Self.sourceName }
    public var defaultBaseURL: String { "https://feeds.meteoalarm.org" }

    /// MeteoAlarm asks to be named as the source, and the warnings stay the
    /// national services' (each message names its sender).
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Warnings from MeteoAlarm (EUMETNET) and the national weather services"),
            url: "https://meteoalarm.org"
        )
    }

    /// - Polling every 15 minutes: MeteoAlarm documents no update rate for
    ///   its feeds; the members send warnings when they issue them, mostly
    ///   hours ahead. 96 requests a day for each country with places in it
    ///   (shared by them), plus one for each new CAP message.
    /// - Jitter 0.25, conditional requests (the feed server sends
    ///   `Last-Modified`); no coordinates are sent.
    public var terms: AlertSourceTerms {
        AlertSourceTerms(
            countries: Self.countries, pollingInterval: 15 * 60, jitterFraction: 0.25,
            conditionalRequests: true, coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(callsPerRequest: 1, period: .day, freeCalls: nil))
    }

    /// The country's feed, the same request for every place in it.
    public func plan(for place: Location, languages: [String], now: Double) -> AlertPlan {
        guard let feed = Self.feeds[place.countryCode.uppercased()] else {
            return .notCovered(
                place.countryCode.isEmpty
                    ? Localization.marked("the place's country is not known")
                    : Localization.marked("MeteoAlarm has no feed for the place's country"))
        }
        return .requests([ProviderRequest(path: "/feeds/meteoalarm-legacy-atom-\(feed)")])
    }

    /// The CAP messages the feed links that are worth fetching: `Actual`
    /// ones that are not `Ack` or `Error` and have not expired at `now`,
    /// once each, soonest first, at most `AlertLimits.documentsPerFeed`, from
    /// the feed's first `AlertLimits.entriesPerFeed` entries. The feed
    /// itself gives no alert (it has no outline). Throws when the body is
    /// not an Atom feed, or a time or link in it is not one.
    public func parseFeed(
        _ answers: [[UInt8]], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> AlertFeed {
        guard answers.count == 1 else {
            throw ProviderParseError(
                provider: name, field: "", problem: .invalidValue("\(answers.count) answers to one request"))
        }
        let root: XMLElement
        do {
            root = try XMLReader.parse(answers[0])
        } catch {
            throw ProviderParseError(provider: name, field: "", problem: .notXML(error))
        }
        guard root.localName == "feed" else {
            throw ProviderParseError(
                provider: name, field: "", problem: .invalidValue("a <\(root.name)>, not an Atom <feed>"))
        }
        let reader = CAPAlert.Reader(source: name)
        var documents: [(start: Double, order: Int, address: String)] = []
        // Each message is named by every area it covers: a set finds the repeats in linear time.
        var named: Set<String> = []
        for (index, entry) in root.children("entry").prefix(AlertLimits.entriesPerFeed).enumerated() {
            let path = "feed.entry[\(index)]"
            if let status = entry.childText("status"), status.lowercased() != "actual" { continue }
            let type = (entry.childText("message_type") ?? entry.childText("msgType"))?.lowercased()
            if type == "ack" || type == "error" { continue }
            if let expires = try reader.time(entry, "expires", path: path), expires <= now { continue }
            guard let address = try Self.document(entry, path: path, reader: reader) else { continue }
            let onset = try reader.time(entry, "onset", path: path)
            let effective = try reader.time(entry, "effective", path: path)
            let sent = try reader.time(entry, "sent", path: path)
            guard named.insert(address).inserted else { continue }
            documents.append((onset ?? effective ?? sent ?? now, index, address))
        }
        let soonest = documents.sorted { ($0.start, $0.order) < ($1.start, $1.order) }
        // Past the bound, the warnings are counted, not taken for none.
        let beyond = max(0, soonest.count - AlertLimits.documentsPerFeed)
        return AlertFeed(
            alerts: [], documents: soonest.prefix(AlertLimits.documentsPerFeed).map(\.address), unread: beyond,
            unreadReason: beyond > 0 ? AlertFeed.beyond(AlertLimits.documentsPerFeed) : nil)
    }

    /// The entry's link to its CAP message (`type="application/cap+xml"`).
    static func document(
        _ entry: XMLElement, path: String, reader: CAPAlert.Reader
    ) throws(ProviderParseError) -> String? {
        for (index, link) in entry.children("link").enumerated()
        where link.attribute("type") == "application/cap+xml" {
            let href = XMLElement.trimmed(link.attribute("href") ?? "")
            guard let address = CAPAlert.Reader.webAddress(href), address.hasPrefix("https://") else {
                throw reader.error(
                    .invalidValue("\(CAPAlert.quoted(href)) is not an https address"), at: "\(path).link[\(index)]")
            }
            return address
        }
        return nil
    }

    /// A CAP message the feed linked: its alerts for the place, matched by
    /// outline, or by the place's codes (`placeCodes`) where it has none.
    public func parseDocument(
        _ body: [UInt8], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> [WeatherAlert] {
        try CAPAlert.alerts(
            body, source: name, at: AlertArea.Point(latitude: place.latitude, longitude: place.longitude),
            placeCodes: Self.placeCodes(for: place), languages: languages)
    }

    /// A message whose areas have neither polygon nor circle (France's:
    /// NUTS3 codes only), which no place of raind's can be matched to.
    public func namesNoPlaceableArea(_ document: [UInt8]) -> Bool {
        guard let root = try? XMLReader.parse(document), root.localName == "alert" else { return false }
        let areas = root.children("info").flatMap { $0.children("area") }
        return !areas.isEmpty
            && areas.allSatisfy { $0.children("polygon").isEmpty && $0.children("circle").isEmpty }
    }

    /// The MeteoAlarm geocodes ("EMMA_ID:FR035", "NUTS3:FR718") the place is
    /// known to lie in: none, as raind's place data has GeoNames codes only
    /// (docs/PLACES.md). A table from GeoNames' divisions to NUTS would go here.
    static func placeCodes(for place: Location) -> Set<String> { [] }
}
