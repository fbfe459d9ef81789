import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct MetAlertsAlertSourceTests {
    let source = MetAlertsSource()
    let oslo = Location(
        id: LocationID("oslo-no"), name: "Oslo", countryCode: "NO", latitude: 59.9127, longitude: 10.7461,
        timeZone: "Europe/Oslo", source: .geonames(id: 3_143_244))
    /// At sea off Stad, inside the recording's "Måløy - Stad" gale warning only.
    let offStad = Location(
        id: LocationID("stad"), name: "Off Stad", countryCode: "NO", latitude: 62.1, longitude: 5.0,
        source: .coordinates)
    let longyearbyen = Location(
        id: LocationID("longyearbyen-sj"), name: "Longyearbyen", countryCode: "SJ", latitude: 78.2232,
        longitude: 15.6267, timeZone: "Arctic/Longyearbyen", source: .geonames(id: 2_729_907))
    /// 2026-03-07T12:00:00Z, while the recording was current.
    let now = 1_772_884_800.0

    func feed(_ name: String, for place: Location, languages: [String] = ["en"]) throws -> AlertFeed {
        try source.parseFeed([try Fixtures.bytes("alerts/" + name)], for: place, languages: languages, now: now)
    }

    func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ProviderParseError? {
        do {
            let feed = try source.parseFeed([Array(text.utf8)], for: oslo, languages: ["en"], now: now)
            Issue.record("parsed \(feed.alerts.count) alert(s)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Requests

    @Test func thePlaceOnTheGridInTheReadersLanguage() throws {
        guard case .requests(let requests) = source.plan(for: oslo, languages: ["nb", "en"], now: now) else {
            Issue.record("Oslo is covered")
            return
        }
        #expect(requests.map(\.path) == ["/weatherapi/metalerts/2.0/current.json?lat=59.91&lon=10.75&lang=no"])
        #expect(requests.map(\.headers) == [[:]])
        let cases: [([String], String)] = [
            (["nn"], "no"), (["no-NO"], "no"), (["de", "en"], "en"), (["de", "nb"], "no"), (["sv"], "en"), ([], "en"),
        ]
        for (languages, lang) in cases {
            guard case .requests(let requests) = source.plan(for: oslo, languages: languages, now: now) else {
                continue
            }
            #expect(requests.first?.path.hasSuffix("&lang=\(lang)") == true, "\(languages)")
        }
        guard case .requests(let svalbard) = source.plan(for: longyearbyen, languages: [], now: now) else {
            Issue.record("Svalbard is covered")
            return
        }
        #expect(svalbard.map(\.path) == ["/weatherapi/metalerts/2.0/current.json?lat=78.22&lon=15.63&lang=en"])
    }

    @Test func placesOutsideNorwayAreNotCovered() {
        let stockholm = Location(
            id: LocationID("stockholm-se"), name: "Stockholm", countryCode: "SE", latitude: 59.33, longitude: 18.07,
            source: .coordinates)
        #expect(
            source.plan(for: stockholm, languages: [], now: now)
                == .notCovered("MET Norway issues warnings for Norway and Svalbard only"))
    }

    @Test func termsAndCredit() {
        #expect(source.name == "metalerts")
        #expect(source.defaultBaseURL == "https://api.met.no")
        #expect(source.terms.countries == ["NO", "SJ"])
        #expect(source.terms.pollingInterval >= 10 * 60)  // MET: no more than one poll every 10 minutes
        #expect(source.terms.conditionalRequests)
        #expect(source.terms.coordinateDigits == 2)
        #expect(source.attribution.text.contains("MET Norway"))
        #expect(AlertSources.source(forCountry: "no")?.name == "metalerts")
        #expect(AlertSources.source(forCountry: "SJ")?.name == "metalerts")
        #expect(AlertSources.source(named: "metalerts") != nil)
    }

    // MARK: The recording

    /// The recording holds all 29 of that morning's marine warnings, whatever
    /// point was asked: only the one whose outline holds the place is kept.
    @Test func theRecordingGivesOnlyTheWarningWhoseOutlineHoldsThePlace() throws {
        let feed = try feed("metalerts-current-norway.json", for: offStad, languages: ["nb"])
        let alert = try #require(feed.alerts.first)
        #expect(feed.alerts.count == 1)
        #expect(alert.id == "2.49.0.1.578.0.20260306183800.093")
        #expect(alert.source == "metalerts")
        #expect(alert.messageType == .alert)
        #expect(alert.event == "Kuling")
        #expect(alert.title == "Kuling, gult nivå, Måløy - Stad, 2026-03-07T11:00:00+00:00, 2026-03-07T21:00:00+00:00")
        #expect(alert.regions == ["Måløy - Stad"])
        #expect(alert.severity == .moderate)
        #expect(alert.certainty == .likely)
        #expect(alert.urgency == nil)  // only the CAP message has it
        #expect(alert.references == nil)
        #expect(alert.start == 1_772_881_200 && alert.onset == 1_772_881_200)
        #expect(alert.end == 1_772_917_200)
        #expect(alert.description == "Fra lørdag ettermiddag sørvest stiv kuling 15 m/s. ")
        #expect(alert.instruction?.hasPrefix("Vurder å la båten ligge") == true)
        #expect(
            alert.uri
                == "https://www.met.no/vaer-og-klima/ekstremvaervarsler-og-andre-farevarsler/vaerfenomener-som-kan-gi-farevarsel-fra-met/kuling-stormvarsel-for-kyst-og-naere-fiskebanker"
        )
        #expect(alert.approximate == false)
        #expect(
            feed.documents == [
                "https://api.met.no/weatherapi/metalerts/2.0/current?cap=2.49.0.1.578.0.20260306183800.093"
            ])
    }

    @Test func theRecordingHasNothingForOsloAndAWarningForSvalbardsWaters() throws {
        let inland = try feed("metalerts-current-norway.json", for: oslo)
        #expect(inland.alerts.isEmpty && inland.documents.isEmpty)
        let sea = Location(
            id: LocationID("a2"), name: "West of Svalbard", countryCode: "SJ", latitude: 78.5, longitude: -5,
            source: .coordinates)
        let feed = try feed("metalerts-current-norway.json", for: sea)
        #expect(feed.alerts.map(\.regions) == [["A2"]])
        #expect(feed.alerts.first?.messageType == .update)
        // Its web address came with line breaks and indentation around it.
        #expect(feed.alerts.first?.uri == "https://www.met.no/vaer-og-klima/Ekstremvaervarsler-og-andre-farevarsler")
    }

    // MARK: Hand-made answer

    @Test func onlyActualWarningsWhoseOutlineHoldsThePlace_holesAndAll() throws {
        let feed = try feed("metalerts-current-oslo-made.json", for: oslo)
        #expect(feed.alerts.map(\.id) == ["2.49.0.1.578.0.20260115060000.001", "2.49.0.1.578.0.20260115060000.005"])
        let snow = try #require(feed.alerts.first)
        #expect(snow.messageType == .update)
        #expect(snow.event == "Snow")
        #expect(snow.severity == .severe)
        #expect(snow.end == 1_768_532_400)  // eventEndingTime 03:00, before the interval's 06:00
        #expect(snow.uri == "https://www.met.no/en/weather-and-climate/Extreme-weather-events")
        #expect(
            feed.documents == [
                "https://api.met.no/weatherapi/metalerts/2.0/current?cap=2.49.0.1.578.0.20260115060000.001"
            ])
        // No outline to check: MET matched it. No severity: its awareness level says yellow.
        let fire = feed.alerts[1]
        #expect(fire.severity == .moderate)
        #expect(fire.start == 1_768_456_800 && fire.end == nil)
    }

    @Test func theCAPMessageOfAFeatureIsReadInTheReadersLanguage() throws {
        let sea = Location(
            id: LocationID("svinoy"), name: "Off Svinøy", countryCode: "NO", latitude: 62.2, longitude: 5.1,
            source: .coordinates)
        let body = try Fixtures.bytes("alerts/metalerts-cap-maloy-svinoy.xml")
        let norwegian = try source.parseDocument(body, for: sea, languages: ["nb"], now: now)
        #expect(norwegian.map(\.event) == ["Kuling"])
        #expect(norwegian.first?.source == "metalerts")
        #expect(norwegian.first?.urgency == .future)
        #expect(try source.parseDocument(body, for: sea, languages: ["fr"], now: now).map(\.event) == ["Gale"])
        #expect(try source.parseDocument(body, for: oslo, languages: ["nb"], now: now).isEmpty)
    }

    // MARK: Bad answers

    static func collection(
        id: String = #""x""#, status: String = "Actual", type: String = "Alert", extra: String = "",
        geometry: String? = nil, when: String? = nil
    ) -> String {
        let square = #"{"type": "Polygon", "coordinates": [[[10.5, 59.8], [11, 59.8], [11, 60.1], [10.5, 59.8]]]}"#
        return """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": \(geometry ?? square),
             "properties": {"id": \(id), "status": "\(status)", "type": "\(type)", "event": "gale", \(extra)
                            "title": "t"},
             "when": \(when ?? #"{"interval": ["2026-01-15T12:00:00+00:00", "2026-01-15T18:00:00+00:00"]}"#)}]}
            """
    }

    @Test func badAnswersAreRefusedNamingTheField() throws {
        let valid = try source.parseFeed([Array(Self.collection().utf8)], for: oslo, languages: [], now: now)
        #expect(valid.alerts.count == 1)
        let cases: [(String, String, String)] = [
            ("<html>busy</html>", "", "is not JSON"),
            (#"{"type": "FeatureCollection"}"#, "features", "is missing"),
            (#"{"features": {}}"#, "features", "expected an array, got an object"),
            (#"{"features": [{"geometry": null}]}"#, "features[0].properties", "is missing"),
            (Self.collection(id: "7"), "features[0].properties.id", "expected a string, got a number"),
            (Self.collection(type: "Bulletin"), "features[0].properties.type", "is none of Alert, Update, Cancel"),
            (
                Self.collection(when: #"{"interval": ["soon", null]}"#), "features[0].when.interval[0]",
                "is not a time with a UTC offset"
            ),
            (
                Self.collection(geometry: #"{"type": "Point", "coordinates": [10.7, 59.9]}"#),
                "features[0].geometry.type", "a Point geometry; raind reads Polygon and MultiPolygon"
            ),
            (
                Self.collection(geometry: #"{"type": "Polygon", "coordinates": [[[10.5, 59.8], [11, 95], [11, 60]]]}"#),
                "features[0].geometry.coordinates[0][1]", "not a position [longitude, latitude]"
            ),
            (
                Self.collection(geometry: #"{"type": "Polygon", "coordinates": [[[10.5, 59.8], [11, 60]]]}"#),
                "features[0].geometry.coordinates[0]", "a ring of 2 positions"
            ),
            (
                Self.collection(
                    extra: #""resources": [{"mimeType": "application/xml", "uri": "http://api.met.no/x"}],"#),
                "features[0].properties.resources[0].uri", "is not an https address"
            ),
            (
                Self.collection(extra: #""eventEndingTime": "2026-01-15 18:00","#),
                "features[0].properties.eventEndingTime", "is not a time"
            ),
        ]
        for (text, field, problem) in cases {
            let error = refusal(text)
            #expect(error?.field == field, "\(field)")
            #expect(error?.description.contains(problem) == true, "\(error?.description ?? "parsed")")
        }
        #expect(
            (try? source.parseFeed([[], []], for: oslo, languages: [], now: now)) == nil,
            "two answers to a plan of one request")
    }

    @Test func testMessagesAndAcknowledgementsAreLeftOut() throws {
        for (status, type) in [("Test", "Alert"), ("Actual", "Ack"), ("Actual", "Error")] {
            let text = Self.collection(status: status, type: type)
            #expect(try source.parseFeed([Array(text.utf8)], for: oslo, languages: [], now: now).alerts.isEmpty)
        }
    }
}
