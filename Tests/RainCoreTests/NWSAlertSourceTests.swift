import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct NWSAlertSourceTests {
    let source = NWSAlertSource()
    /// Tillamook, Oregon: in the North Oregon Coast zone (ORZ001) of the recordings.
    let tillamook = Location(
        id: LocationID("tillamook-us"), name: "Tillamook", region: "Oregon", countryCode: "US", latitude: 45.456_2,
        longitude: -123.844_3, timeZone: "America/Los_Angeles", source: .coordinates)
    /// 2019-12-20 14:00 PST, while the recorded Flood Watch is in effect.
    let now = 1_576_879_200.0

    func feed(_ name: String) throws -> AlertFeed {
        try source.parseFeed([try Fixtures.bytes("alerts/\(name)")], for: tillamook, languages: ["en"], now: now)
    }

    func parseError(_ body: String) -> ProviderParseError? {
        do {
            _ = try source.parseFeed([Array(body.utf8)], for: tillamook, languages: ["en"], now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test func asksForThePointOnTheGridWithGeoJSON() {
        guard case .requests(let requests) = source.plan(for: tillamook, languages: ["en"], now: now) else {
            Issue.record("a place in the US is covered")
            return
        }
        #expect(requests == [ProviderRequest(path: "/alerts/active?point=45.46,-123.84", headers: NWS.headers)])
        #expect(NWS.headers["Accept"] == "application/geo+json")
        #expect(source.terms.coordinateDigits == 2 && source.terms.pollingInterval >= 60)
        #expect(source.defaultBaseURL == "https://api.weather.gov" && source.attribution.url.hasPrefix("https://"))
        // A place of unknown country is asked for; one known to lie elsewhere is not.
        var unknown = tillamook
        unknown.countryCode = ""
        #expect(source.plan(for: unknown, languages: [], now: now) == .requests(requests))
        var windsor = tillamook
        windsor.countryCode = "CA"
        #expect(source.plan(for: windsor, languages: [], now: now) == .notCovered(NWS.notCovered))
    }

    @Test func theRecordedFloodWatch() throws {
        let feed = try feed("nws-alerts-active-zone-orz004.json")
        #expect(feed.documents.isEmpty)
        let alert = try #require(feed.alerts.first)
        #expect(feed.alerts.count == 1)
        #expect(alert.id == "NWS-IDP-PROD-3965873-3369046")
        #expect(alert.source == "nws")
        #expect(alert.event == "Flood Watch")
        #expect(
            alert.title
                == "Flood Watch issued December 20 at 1:34PM PST until December 22 at 10:00AM PST by NWS Portland OR")
        #expect(alert.severity == .severe && alert.urgency == .future && alert.certainty == .possible)
        #expect(alert.messageType == .update)
        #expect(
            alert.references == [
                "NWS-IDP-PROD-3964821-3368352", "NWS-IDP-PROD-3965324-3368680", "NWS-IDP-PROD-3965155-3368578",
                "NWS-IDP-PROD-3963421-3367361",
            ])
        // effective, onset 2019-12-20T13:34:00-08:00; ends (not expires) 2019-12-22T10:00:00-08:00.
        #expect(alert.start == 1_576_877_640 && alert.onset == 1_576_877_640)
        #expect(alert.end == 1_577_037_600)
        #expect(alert.regions.count == 11)
        #expect(alert.regions.first == "North Oregon Coast")
        #expect(alert.regions.contains("Lower Columbia and I - 5 Corridor in Cowlitz County"))
        #expect(alert.regions.last == "South Washington Cascade Foothills")
        #expect(alert.description.hasPrefix("The Flood Watch continues for\n\n* Portions of Northwest Oregon"))
        #expect(alert.instruction?.hasPrefix("A Flood Watch means there is a potential for flooding") == true)
        #expect(alert.uri == "" && alert.approximate == nil)
    }

    @Test func anUpdateNamesTheWatchItReplaces() throws {
        let feed = try feed("nws-alerts-point-update.json")
        #expect(feed.alerts.map(\.id) == ["NWS-IDP-PROD-3965873-3369046", "NWS-IDP-PROD-3966512-3369587"])
        let update = feed.alerts[1]
        #expect(update.messageType == .update && update.references == ["NWS-IDP-PROD-3965873-3369046"])
        // ends 2019-12-22T16:00:00-08:00, later than the watch it updates.
        #expect(update.start == 1_576_926_900 && update.end == 1_577_059_200)
        #expect(
            update.regions == [
                "North Oregon Coast", "Central Coast Range of Western Oregon", "Coast Range of Northwest Oregon",
            ])
        let shown = AlertLifecycle.current(feed.alerts, now: 1_576_927_000)
        #expect(shown.map(\.id) == ["NWS-IDP-PROD-3966512-3369587"])
    }

    @Test func aCancellationWithoutAnEnd() throws {
        let cancel = try #require(try feed("nws-alerts-point-cancel.json").alerts.first)
        #expect(cancel.messageType == .cancel)
        #expect(cancel.references == ["NWS-IDP-PROD-3966512-3369587", "NWS-IDP-PROD-3965873-3369046"])
        // ends is null: the message's expires (2019-12-21T20:20:00-08:00) ends it.
        #expect(cancel.end == 1_576_988_400)
        #expect(cancel.instruction == nil && cancel.severity == .minor && cancel.urgency == .past)
    }

    @Test func onlyActualWarningsAreKept() throws {
        let feed = try source.parseFeed(
            [
                Array(
                    """
                    {"features": [
                      {"properties": {"id": "a", "status": "Test", "messageType": "Alert"}},
                      {"properties": {"id": "b", "status": "Actual", "messageType": "Ack"}},
                      {"properties": {"id": "c", "status": "Exercise", "messageType": "Alert"}},
                      {"properties": {"id": "d", "status": "Actual", "messageType": "Alert", "event": "Heat Advisory",
                                      "areaDesc": " ; Inland Dade ;"}}
                    ]}
                    """.utf8)
            ], for: tillamook, languages: ["en"], now: now)
        #expect(feed.alerts.map(\.id) == ["d"])
        // Without a headline the event is the title; without a severity it is unknown.
        #expect(feed.alerts[0].title == "Heat Advisory" && feed.alerts[0].severity == .unknown)
        #expect(feed.alerts[0].regions == ["Inland Dade"] && feed.alerts[0].references == nil)
        #expect(
            try source.parseFeed([Array(#"{"features": []}"#.utf8)], for: tillamook, languages: [], now: now).alerts
                .isEmpty)
    }

    @Test func textsAndListsAreBounded() throws {
        let long = String(repeating: "é", count: 5000)
        let areas = (0..<100).map { "Zone \($0)" }.joined(separator: "; ")
        let body = """
            {"features": [{"properties": {"id": "x", "status": "Actual", "messageType": "Alert",
              "headline": "\(long)", "description": "\(long)\(long)", "areaDesc": "\(areas)"}}]}
            """
        let alert = try #require(
            try source.parseFeed([Array(body.utf8)], for: tillamook, languages: [], now: now).alerts.first)
        #expect(alert.title.utf8.count == 512 && alert.description.utf8.count == 8192)
        #expect(alert.regions.count == AlertLimits.regions)
        let many =
            "{\"features\": ["
            + Array(repeating: #"{"properties": {"id": "x", "status": "Actual", "messageType": "Alert"}}"#, count: 250)
            .joined(separator: ",") + "]}"
        #expect(
            try source.parseFeed([Array(many.utf8)], for: tillamook, languages: [], now: now).alerts.count
                == AlertLimits.alertsPerFeed)
    }

    @Test func badValuesAreRefusedNamingTheField() {
        let alert = #"{"id": "x", "status": "Actual", "messageType": "Alert""#
        let cases: [(String, String)] = [
            (#"{"features": [{"properties": \#(alert), "expires": "tomorrow"}}]}"#, "features[0].properties.expires"),
            (
                #"{"features": [{"properties": \#(alert), "onset": "2019-12-20T13:34:00"}}]}"#,
                "features[0].properties.onset"
            ),
            (#"{"features": [{"properties": \#(alert), "severity": 3}}]}"#, "features[0].properties.severity"),
            (
                #"{"features": [{"properties": \#(alert), "references": [{"sender": "w"}]}}]}"#,
                "features[0].properties.references[0].identifier"
            ),
            (
                #"{"features": [{"properties": {"status": "Actual", "messageType": "Alert"}}]}"#,
                "features[0].properties.id"
            ),
            (#"{"features": [{"properties": {"id": "x", "messageType": "Alert"}}]}"#, "features[0].properties.status"),
            (#"{"features": [{"properties": []}]}"#, "features[0].properties"),
            (#"{"features": {}}"#, "features"),
            (#"{"type": "FeatureCollection"}"#, "features"),
        ]
        for (body, field) in cases {
            #expect(parseError(body)?.field == field, "\(body)")
        }
        #expect(parseError("<html>")?.field == "")
        // The API's own error is reported as such.
        let problem = parseError(
            #"{"title": "Bad Request", "detail": "Parameter \"point\" is invalid", "status": 400}"#)
        #expect(problem?.problem == .providerReported(#"Bad Request: Parameter "point" is invalid"#))
    }
}
