import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct MeteoAlarmAlertSourceTests {
    let source = MeteoAlarmSource()
    let chambéry = Location(
        id: LocationID("chambery-fr"), name: "Chambéry", region: "Auvergne-Rhône-Alpes", countryCode: "FR",
        latitude: 45.5646, longitude: 5.9178, timeZone: "Europe/Paris", source: .geonames(id: 3_027_422))
    let paris = Location(
        id: LocationID("paris-fr"), name: "Paris", countryCode: "FR", latitude: 48.8534, longitude: 2.3488,
        timeZone: "Europe/Paris", source: .geonames(id: 2_988_507))
    let kragujevac = Location(
        id: LocationID("kragujevac-rs"), name: "Kragujevac", countryCode: "RS", latitude: 44.0128,
        longitude: 20.9114, timeZone: "Europe/Belgrade", source: .geonames(id: 787_657))
    /// When the recorded feed was updated: 2022-12-08T00:36:08Z.
    let feedTime = 1_670_459_768.0

    static let alertDocument =
        "https://feeds.meteoalarm.org/api/v1/warnings/feeds-france/04d497d4-d114-4d6b-93ba-13fa7ed577fe"
    static let updateDocument =
        "https://feeds.meteoalarm.org/api/v1/warnings/feeds-france/2f32f9f9-06df-48aa-b0a0-10493ea07c51"

    func feed(_ body: [UInt8], now: Double) throws(ProviderParseError) -> AlertFeed {
        try source.parseFeed([body], for: chambéry, languages: ["fr"], now: now)
    }

    func recordedFeed(now: Double) throws -> AlertFeed {
        try feed(try Fixtures.bytes("alerts/meteoalarm-atom-france.xml"), now: now)
    }

    // MARK: Requests

    @Test func oneFeedACountrySharedByItsPlaces() throws {
        guard case .requests(let requests) = source.plan(for: chambéry, languages: ["fr"], now: feedTime) else {
            Issue.record("France is covered")
            return
        }
        #expect(requests == [ProviderRequest(path: "/feeds/meteoalarm-legacy-atom-france")])
        // Another place, another language, another time: the same request, so one cached answer serves both.
        #expect(source.plan(for: paris, languages: ["en"], now: feedTime + 3600) == .requests(requests))
        let cases: [(String, String)] = [
            ("RS", "serbia"), ("MK", "republic-of-north-macedonia"), ("BA", "bosnia-herzegovina"),
            ("GB", "united-kingdom"),
            ("cz", "czechia"),
        ]
        for (country, feed) in cases {
            var place = paris
            place.countryCode = country
            #expect(
                source.plan(for: place, languages: [], now: feedTime)
                    == .requests([ProviderRequest(path: "/feeds/meteoalarm-legacy-atom-\(feed)")]))
        }
    }

    @Test func countriesWithoutAFeedAreNotCovered() {
        var place = paris
        place.countryCode = "US"
        #expect(
            source.plan(for: place, languages: [], now: feedTime)
                == .notCovered("MeteoAlarm has no feed for the place's country"))
        place.countryCode = ""
        #expect(
            source.plan(for: place, languages: [], now: feedTime) == .notCovered("the place's country is not known"))
    }

    @Test func termsAndCredit() {
        #expect(source.name == "meteoalarm")
        #expect(source.defaultBaseURL == "https://feeds.meteoalarm.org")
        #expect(source.terms.countries.count == 39)
        #expect(source.terms.countries == Set(MeteoAlarmSource.feeds.keys))
        #expect(source.terms.pollingInterval >= 15 * 60)
        #expect(source.attribution.text.contains("MeteoAlarm"))
        #expect(AlertSources.source(forCountry: "FR")?.name == "meteoalarm")
        // The national source comes first where both issue warnings.
        #expect(AlertSources.source(forCountry: "NO")?.name == "metalerts")
        let names = AlertSources.all.map(\.name)
        #expect(names.last == "meteoalarm", "MeteoAlarm is asked after every national source")
    }

    // MARK: The feed

    @Test func theRecordedFeedNamesTheMessagesNotYetExpiredOnceEach() throws {
        // When the feed was written, the Update (expired at 05:01 the day before) is over.
        let current = try recordedFeed(now: feedTime)
        #expect(current.alerts.isEmpty)
        #expect(current.documents == [Self.alertDocument])
        // Earlier both are current, soonest first: the Update's onset (05:00) before the Alert's (15:00).
        #expect(try recordedFeed(now: 1_670_389_200).documents == [Self.updateDocument, Self.alertDocument])
        // After the Alert expired (2022-12-08T15:00Z): nothing to fetch.
        #expect(try recordedFeed(now: 1_670_511_600).documents.isEmpty)
    }

    static func atom(_ entries: [String]) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
            \(entries.joined(separator: "\n"))
            </feed>
            """.utf8)
    }

    /// A hand-made entry in the recording's shape.
    static func entry(
        _ document: String, status: String = "Actual", type: String = "Alert",
        expires: String = "2022-12-08T15:00:00+00:00", onset: String = "2022-12-07T15:00:00+00:00",
        linkType: String = "application/cap+xml"
    ) -> String {
        """
        <entry><cap:areaDesc>Savoie</cap:areaDesc><cap:sent>2022-12-07T15:00:58+00:00</cap:sent>
          <cap:expires>\(expires)</cap:expires><cap:onset>\(onset)</cap:onset>
          <cap:message_type>\(type)</cap:message_type><cap:status>\(status)</cap:status>
          <link href="https://meteoalarm.org?region=FR" hreflang="en" rel="related" title="France"/>
          <link href="\(document)" type="\(linkType)"/></entry>
        """
    }

    @Test func onlyActualWarningsAreFetched() throws {
        let entries = [
            Self.entry("https://feeds.meteoalarm.org/a", status: "Test"),
            Self.entry("https://feeds.meteoalarm.org/b", type: "Ack"),
            Self.entry("https://feeds.meteoalarm.org/c", type: "Error"),
            Self.entry("https://feeds.meteoalarm.org/d", linkType: "text/html"),
            Self.entry("https://feeds.meteoalarm.org/e", type: "Cancel"),
            Self.entry("https://feeds.meteoalarm.org/f", expires: "2022-12-08T00:36:08+00:00"),
        ]
        #expect(try feed(Self.atom(entries), now: feedTime).documents == ["https://feeds.meteoalarm.org/e"])
    }

    @Test func atMostTheBoundOfDocumentsSoonestFirst() throws {
        let entries = (0..<60).map { index in
            Self.entry(
                "https://feeds.meteoalarm.org/w/\(59 - index)",
                onset: "2022-12-07T10:\(CivilDateTime.twoDigits(59 - index)):00+00:00")
        }
        let documents = try feed(Self.atom(entries + entries), now: feedTime).documents
        #expect(documents.count == AlertLimits.documentsPerFeed)
        #expect(documents.first == "https://feeds.meteoalarm.org/w/0")
        #expect(Set(documents).count == documents.count)
    }

    @Test func entriesPastTheBoundAreLeftUnread() throws {
        // A hostile feed repeats one message's link (the repeats cost one set lookup each) and hides
        // the soonest after the bound, where it is not read.
        let repeated = Self.entry("https://feeds.meteoalarm.org/repeated")
        let hidden = Self.entry("https://feeds.meteoalarm.org/hidden", onset: "2022-12-07T00:00:00+00:00")
        let entries = Array(repeating: repeated, count: AlertLimits.entriesPerFeed) + [hidden]
        #expect(try feed(Self.atom(entries), now: feedTime).documents == ["https://feeds.meteoalarm.org/repeated"])
        #expect(
            try feed(Self.atom(entries.suffix(2)), now: feedTime).documents == [
                "https://feeds.meteoalarm.org/hidden", "https://feeds.meteoalarm.org/repeated",
            ])
    }

    @Test func badFeedsAreRefusedNamingTheField() throws {
        let cases: [([UInt8], String, String)] = [
            (Array("<html><body>502</html>".utf8), "", "is not well-formed XML"),
            (try Fixtures.bytes("alerts/meteoalarm-cap-serbia-sumadija.xml"), "", "a <alert>, not an Atom <feed>"),
            (Self.atom([Self.entry("https://x", expires: "tomorrow")]), "feed.entry[0].expires", "is not a time"),
            (Self.atom([Self.entry("https://x", onset: "2022-12-07")]), "feed.entry[0].onset", "is not a time"),
            (
                Self.atom([Self.entry("http://feeds.meteoalarm.org/a")]), "feed.entry[0].link[1]",
                "is not an https address"
            ),
            (
                Self.atom([Self.entry("https://feeds.meteoalarm.org/a b")]), "feed.entry[0].link[1]",
                "is not an https address"
            ),
        ]
        for (body, field, problem) in cases {
            do {
                _ = try feed(body, now: feedTime)
                Issue.record("parsed: \(field)")
            } catch {
                #expect(error.field == field)
                #expect(error.provider == "meteoalarm")
                #expect(error.description.contains(problem), "\(error)")
            }
        }
    }

    // MARK: The documents

    @Test func aDocumentWithAnOutlineMatchesThePlaceInIt() throws {
        let body = try Fixtures.bytes("alerts/meteoalarm-cap-serbia-sumadija.xml")
        let alerts = try source.parseDocument(body, for: kragujevac, languages: ["sr"], now: feedTime)
        #expect(alerts.map(\.title) == ["Грмљавина Шумадија Умерен ниво"])
        #expect(alerts.first?.source == "meteoalarm")
        #expect(alerts.first?.approximate == false)
        var belgrade = kragujevac
        belgrade.latitude = 44.8
        belgrade.longitude = 20.46
        #expect(try source.parseDocument(body, for: belgrade, languages: ["sr"], now: feedTime).isEmpty)
    }

    /// France's messages name NUTS3 départements only: raind's places carry
    /// no such code, so it cannot tell that Chambéry lies in Savoie, and says nothing.
    @Test func aDocumentWithoutOutlinesGivesNothingForAPlaceWithoutCodes() throws {
        let body = try Fixtures.bytes("alerts/meteoalarm-cap-france-avalanches.xml")
        #expect(MeteoAlarmSource.placeCodes(for: chambéry).isEmpty)
        #expect(try source.parseDocument(body, for: chambéry, languages: ["fr"], now: feedTime).isEmpty)
    }

    /// …but it is told such warnings exist (`AlertService.unplaced`): the
    /// French message names no placeable area, the Serbian one does, and
    /// what is not a CAP message is not counted.
    @Test func aDocumentWithoutOutlinesIsToldApartFromOneForElsewhere() throws {
        #expect(source.namesNoPlaceableArea(try Fixtures.bytes("alerts/meteoalarm-cap-france-avalanches.xml")))
        #expect(!source.namesNoPlaceableArea(try Fixtures.bytes("alerts/meteoalarm-cap-serbia-sumadija.xml")))
        #expect(!source.namesNoPlaceableArea(try Fixtures.bytes("alerts/meteoalarm-atom-france.xml")))
        #expect(!source.namesNoPlaceableArea(Array("<alert".utf8)))
        #expect(
            !NWSAlertSource().namesNoPlaceableArea(try Fixtures.bytes("alerts/meteoalarm-cap-france-avalanches.xml")))
    }
}
