import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct ECCCAlertSourceTests {
    let source = ECCCAlertSource()
    /// 2026-03-06T02:03:41Z, when the recording was made.
    let now = 1_772_762_621.0

    func place(_ latitude: Double, _ longitude: Double) -> Location {
        Location(
            id: LocationID("p"), name: "P", countryCode: "CA", latitude: latitude, longitude: longitude,
            timeZone: "America/Toronto", source: .coordinates)
    }

    func recorded(at place: Location, languages: [String] = ["en"]) throws -> [WeatherAlert] {
        try source.parseFeed(
            [try Fixtures.bytes("alerts/eccc-weather-alerts-toronto-bbox.json")], for: place, languages: languages,
            now: now
        ).alerts
    }

    func parse(_ body: String, at place: Location) throws(ProviderParseError) -> [WeatherAlert] {
        try source.parseFeed([Array(body.utf8)], for: place, languages: ["en"], now: now).alerts
    }

    func parseError(_ body: String, at place: Location) -> ProviderParseError? {
        do {
            _ = try parse(body, at: place)
            return nil
        } catch {
            return error
        }
    }

    @Test func asksForABoxAroundThePlacesGridCell() {
        let toronto = place(43.653_2, -79.383_2)
        let path = "/collections/weather-alerts/items?f=json&bbox=-79.4,43.64,-79.37,43.67&lang=en&limit=100"
        #expect(source.plan(for: toronto, languages: ["en"], now: now) == .requests([ProviderRequest(path: path)]))
        // Every place in the cell asks the same question.
        #expect(
            source.plan(for: place(43.659_9, -79.380_1), languages: ["en-CA"], now: now)
                == .requests([ProviderRequest(path: path)]))
        #expect(
            source.plan(for: toronto, languages: ["fr-CA"], now: now)
                == .requests([ProviderRequest(path: path.replacingLang("fr"))]))
        // The box holds the cell with a margin, also south of the equator and west of Greenwich.
        let box = ECCCAlertSource.box(latitude: -0.005, longitude: -0.005)
        #expect(box.west == -2 && box.south == -2 && box.east == 1 && box.north == 1)
        let corner = ECCCAlertSource.box(latitude: 90, longitude: 180)
        #expect(corner.north == 9_000 && corner.east == 18_000)
        var detroit = toronto
        detroit.countryCode = "US"
        #expect(
            source.plan(for: detroit, languages: [], now: now)
                == .notCovered("Environment and Climate Change Canada warns for Canada only"))
        #expect(source.attribution.url.hasPrefix("https://") && source.terms.pollingInterval >= 300)
    }

    @Test func onlyTheFeatureWhosePolygonHoldsThePlace() throws {
        let alerts = try recorded(at: place(43.589_0, -79.644_1))  // Mississauga
        let alert = try #require(alerts.first)
        #expect(alerts.count == 1)
        #expect(alert.id == "1618115311375151707202603050503_fea1-1269")
        #expect(alert.source == "eccc" && alert.messageType == .alert)
        #expect(alert.title == "Freezing rain warning" && alert.event == "freezing rain warning")
        #expect(alert.severity == .moderate)  // yellow
        #expect(alert.regions == ["Mississauga - Brampton"])
        // published 2026-03-05T21:26:06.795Z, valid from 22:00Z, the event ends 2026-03-06T06:00Z.
        #expect(alert.start == 1_772_745_966 && alert.onset == 1_772_748_000 && alert.end == 1_772_776_800)
        #expect(alert.description.hasPrefix("Freezing rain on tap. \n\nWhat:\nFreezing rain leading to"))
        #expect(alert.instruction == nil && alert.urgency == nil && alert.approximate == nil)

        #expect(try recorded(at: place(43.653_2, -79.383_2)).map(\.regions) == [["City of Toronto"]])
        #expect(try recorded(at: place(43.467_5, -79.687_7)).map(\.regions) == [["Burlington - Oakville"]])
        #expect(try recorded(at: place(44.5, -79.5)).isEmpty)
    }

    @Test func aStatementHasNoColourAndSoNoSeverity() throws {
        let statement = try #require(try recorded(at: place(43.159_4, -79.246_9)).first)  // St. Catharines
        #expect(statement.title == "Special weather statement" && statement.severity == .unknown)
        #expect(statement.regions == ["St. Catharines - Grimsby - Northern Niagara Region"])
        #expect(statement.onset == 1_772_751_600 && statement.end == 1_772_805_600)
    }

    @Test func frenchForAReaderOfFrench() throws {
        let alert = try #require(try recorded(at: place(43.589_0, -79.644_1), languages: ["fr-CA", "en"]).first)
        #expect(alert.title == "Avertissement de pluie verglaçante")
        #expect(alert.regions == ["Mississauga - Brampton"])
        #expect(alert.description.hasPrefix("Pluie verglaçante en perspective."))
    }

    @Test func aPlaceOnTheBorderOfTwoRegionsHasTheWarningOnce() throws {
        // A corner the City of Toronto and Mississauga - Brampton share.
        let border = place(43.750_049_03, -79.638_656_29)
        let reports = try recorded(at: border)
        #expect(reports.map(\.regions) == [["City of Toronto"], ["Mississauga - Brampton"]])
        let shown = AlertLifecycle.current(reports, now: now)
        #expect(shown.count == 1)
        #expect(shown.first?.regions == ["City of Toronto", "Mississauga - Brampton"])
        #expect(shown.first?.id == "1618115311375151707202603050503_fea1-1185")
    }

    /// The collection pages its answer: one page of more matched is no
    /// whole answer, and says how many it left out.
    @Test func aPageOfMoreMatchedCountsTheRestUnread() throws {
        let square = "[[[-80,43],[-79,43],[-79,44],[-80,44],[-80,43]]]"
        let feature = """
            {"type": "Feature", "id": "a", "properties": {"id": "a", "alert_name_en": "wind warning"},
             "geometry": {"type": "Polygon", "coordinates": \(square)}}
            """
        let page =
            "{\"type\": \"FeatureCollection\", \"numberMatched\": 130, \"numberReturned\": 1, \"features\": [\(feature)]}"
        let feed = try source.parseFeed([Array(page.utf8)], for: place(43.5, -79.5), languages: ["en"], now: now)
        #expect(feed.alerts.map(\.id) == ["a"])
        #expect(feed.unread == 129 && feed.unreadReason == "the service matched 130 and sent 1")
        let recorded = try source.parseFeed(
            [try Fixtures.bytes("alerts/eccc-weather-alerts-toronto-bbox.json")], for: place(43.65, -79.38),
            languages: ["en"], now: now)
        #expect(recorded.unread == 0 && recorded.unreadReason == nil, "the recording matched 7 and sent 7")
    }

    @Test func endedAlertsAndFeaturesWithoutAnOutlineAreLeftOut() throws {
        let square = "[[[-80,43],[-79,43],[-79,44],[-80,44],[-80,43]]]"
        let body = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "a_f1", "properties": {"id": "a_f1", "alert_name_en": "wind warning",
               "status_en": "ended", "risk_colour_en": "orange"}, "geometry": {"type": "Polygon", "coordinates": \(square)}},
              {"type": "Feature", "id": "b_f2", "properties": {"alert_name_en": "wind warning", "status_en": "issued",
               "risk_colour_en": "Orange", "feature_name_en": "Somewhere", "expiration_datetime": "2026-03-06T09:00:00Z"},
               "geometry": {"type": "MultiPolygon", "coordinates": [[[[-90,50],[-89,50],[-89,51],[-90,50]]], \(square)]}},
              {"type": "Feature", "id": "c", "properties": {"alert_name_en": "x"}, "geometry": null},
              {"type": "Feature", "id": "d", "properties": {"alert_name_en": "y"},
               "geometry": {"type": "Point", "coordinates": [-79.5, 43.5]}},
              {"type": "Feature", "id": "e", "properties": {"alert_name_en": "z", "risk_colour_en": "red"},
               "geometry": {"type": "Polygon", "coordinates": [[[-90,50],[-89,50],[-89,51],[-90,50]]]}}
            ]}
            """
        let alerts = try parse(body, at: place(43.5, -79.5))
        #expect(alerts.map(\.id) == ["b_f2"])
        // Without an end of the event, the alert's expiry ends it.
        #expect(alerts.first?.severity == .severe && alerts.first?.end == 1_772_787_600)
        #expect(ECCCAlertSource.severity(colour: "red") == .extreme)
    }

    @Test func badValuesAreRefusedNamingTheField() {
        let square = #"{"type": "Polygon", "coordinates": [[[-80,43],[-79,43],[-79,44],[-80,44],[-80,43]]]}"#
        let cases: [(String, String)] = [
            (
                #"{"features": [{"id": "a", "properties": {"validity_datetime": "soon"}, "geometry": \#(square)}]}"#,
                "features[0].properties.validity_datetime"
            ),
            (
                #"{"features": [{"id": "a", "properties": {"alert_text_en": 5}, "geometry": \#(square)}]}"#,
                "features[0].properties.alert_text_en"
            ),
            (
                #"{"features": [{"properties": {"alert_name_en": "x"}, "geometry": \#(square)}]}"#,
                "features[0].properties.id"
            ),
            (
                #"{"features": [{"id": "a", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-80,43],["x",43]]]}}]}"#,
                "features[0].geometry.coordinates[0][1][0]"
            ),
            (
                #"{"features": [{"id": "a", "properties": {}, "geometry": {"type": "Polygon"}}]}"#,
                "features[0].geometry.coordinates"
            ),
            (#"{"features": [{"id": "a", "geometry": \#(square)}]}"#, "features[0].properties"),
            (#"{"features": [7]}"#, "features[0]"),
            (#"{"type": "FeatureCollection"}"#, "features"),
        ]
        let inside = place(43.5, -79.5)
        for (body, field) in cases {
            #expect(parseError(body, at: inside)?.field == field, "\(body)")
        }
        #expect(
            parseError(#"{"code": "InvalidParameterValue", "description": "Invalid bbox"}"#, at: inside)?.problem
                == .providerReported("Invalid bbox"))
    }
}

extension String {
    fileprivate func replacingLang(_ language: String) -> String {
        var parts = split(separator: "&", omittingEmptySubsequences: false).map(String.init)
        for index in parts.indices where parts[index].hasPrefix("lang=") { parts[index] = "lang=" + language }
        return parts.joined(separator: "&")
    }
}
