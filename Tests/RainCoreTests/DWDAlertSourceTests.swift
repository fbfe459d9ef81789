import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct DWDAlertSourceTests {
    let source = DWDAlertSource()
    let berlin = Location(
        id: LocationID("berlin-mitte-de"), name: "Berlin-Mitte", countryCode: "DE", latitude: 52.520_8,
        longitude: 13.388_9, timeZone: "Europe/Berlin", source: .coordinates)
    /// 2026-03-06 12:37 UTC: an hour after the recorded frost warning was issued.
    let now = 1_772_800_620.0

    func alerts(_ body: [UInt8], languages: [String]) throws(ProviderParseError) -> [WeatherAlert] {
        try source.parseFeed([body], for: berlin, languages: languages, now: now).alerts
    }

    func parseError(_ body: String) -> ProviderParseError? {
        do {
            _ = try alerts(Array(body.utf8), languages: ["de"])
            return nil
        } catch {
            return error
        }
    }

    @Test func asksBrightSkyForThePointInThePlacesZone() {
        let plan = source.plan(for: berlin, languages: ["de"], now: now)
        #expect(plan == .requests([ProviderRequest(path: "/alerts?lat=52.52&lon=13.39&tz=Europe%2FBerlin")]))
        var zoneless = berlin
        zoneless.timeZone = ""
        #expect(
            source.plan(for: zoneless, languages: [], now: now)
                == .requests([ProviderRequest(path: "/alerts?lat=52.52&lon=13.39&tz=UTC")]))
        var strasbourg = berlin
        strasbourg.countryCode = "FR"
        #expect(source.plan(for: strasbourg, languages: [], now: now) == .notCovered("the DWD warns for Germany only"))
        #expect(source.defaultBaseURL == "https://api.brightsky.dev" && source.attribution.url.hasPrefix("https://"))
        // No shorter than the DWD's renewal of every few minutes.
        #expect(source.terms.pollingInterval >= 300 && source.terms.countries == ["DE"])
    }

    @Test func theRecordedFrostWarningInEnglish() throws {
        let alert = try #require(
            try alerts(try Fixtures.bytes("alerts/brightsky-alerts-berlin-mitte.json"), languages: ["en"]).first)
        #expect(alert.id == "2.49.0.0.276.0.DWD.PVW.1772797020000.bda05e21-69ce-45a9-aff8-25a95592cfd5")
        #expect(alert.source == "dwd" && alert.messageType == .alert && alert.references == nil)
        #expect(alert.title == "Official WARNING of FROST" && alert.event == "frost")
        #expect(alert.description == "There is a risk of frost (level 1 of 2).\nMinimum temperature: -1 - -5 °C")
        #expect(alert.instruction?.hasPrefix("Hazard(s) to expect: possible frost damage.") == true)
        #expect(alert.severity == .minor && alert.urgency == .immediate && alert.certainty == .likely)
        // effective 2026-03-06T11:37Z, onset 2026-03-07T00:00Z, expires 08:00Z.
        #expect(alert.start == 1_772_797_020 && alert.onset == 1_772_841_600 && alert.end == 1_772_870_400)
        #expect(alert.regions == ["Berl. - Mitte"])
    }

    @Test func germanForAReaderOfGerman() throws {
        let bytes = try Fixtures.bytes("alerts/brightsky-alerts-berlin-mitte.json")
        let alert = try #require(try alerts(bytes, languages: ["de-AT", "en"]).first)
        #expect(alert.title == "Amtliche WARNUNG vor FROST" && alert.event == "FROST")
        #expect(alert.description == "Es tritt leichter Frost zwischen -1 °C und -5 °C auf.")
        // English for every other reader, whatever comes after.
        #expect(try alerts(bytes, languages: ["fr", "de"]).first?.title == "Amtliche WARNUNG vor FROST")
        #expect(try alerts(bytes, languages: ["fr"]).first?.title == "Official WARNING of FROST")
        #expect(try alerts(bytes, languages: []).first?.title == "Official WARNING of FROST")
    }

    @Test func theWarningsLife() throws {
        let messages = try alerts(try Fixtures.bytes("alerts/brightsky-alerts-berlin-mitte.json"), languages: ["en"])
        let frost = try #require(messages.first)
        #expect(AlertLifecycle.isUpcoming(frost, now: now) && !AlertLifecycle.isInEffect(frost, now: now))
        #expect(AlertLifecycle.current(messages, now: now).map(\.id) == [frost.id])
        #expect(AlertLifecycle.nextChange(messages, after: now) == 1_772_841_600)
        #expect(AlertLifecycle.isInEffect(frost, now: 1_772_841_600))
        #expect(AlertLifecycle.nextChange(messages, after: 1_772_841_600) == 1_772_870_400)
        #expect(AlertLifecycle.current(messages, now: 1_772_870_400).isEmpty)
        #expect(AlertLifecycle.nextChange(messages, after: 1_772_870_400) == nil)
    }

    @Test func theOtherLanguageFillsAMissingTextAndTestsAreLeftOut() throws {
        let body = """
            {"alerts": [
              {"id": 7, "alert_id": "t", "status": "test", "headline_en": "Test"},
              {"id": 8, "effective": "2026-03-06T12:37:00+01:00", "expires": null, "severity": "severe",
               "headline_en": "Official WARNING of STORM GUSTS", "headline_de": "", "event_de": "STURMBÖEN",
               "description_en": "Gusts of up to 85 km/h.", "instruction_de": null}
            ], "location": null}
            """
        let found = try alerts(Array(body.utf8), languages: ["de"])
        let alert = try #require(found.first)
        #expect(found.count == 1)
        // Without an alert_id, Bright Sky's own number; an empty German headline is no headline.
        #expect(alert.id == "8" && alert.title == "Official WARNING of STORM GUSTS" && alert.event == "STURMBÖEN")
        #expect(alert.description == "Gusts of up to 85 km/h." && alert.instruction == nil)
        #expect(alert.start == 1_772_797_020 && alert.end == nil && alert.onset == nil)
        #expect(alert.severity == .severe && alert.regions.isEmpty)
    }

    @Test func badValuesAreRefusedNamingTheField() {
        let cases: [(String, String)] = [
            (#"{"alerts": [{"alert_id": "a", "onset": "2026-03-07"}]}"#, "alerts[0].onset"),
            (#"{"alerts": [{"alert_id": "a", "expires": 1772870400}]}"#, "alerts[0].expires"),
            (#"{"alerts": [{"alert_id": "a", "headline_en": ["Frost"]}]}"#, "alerts[0].headline_en"),
            (#"{"alerts": [{"alert_id": ""}]}"#, "alerts[0].alert_id"),
            (#"{"alerts": [{"headline_en": "Frost"}]}"#, "alerts[0].alert_id"),
            (#"{"alerts": ["frost"]}"#, "alerts[0]"),
            (#"{"alerts": [], "location": "Berlin"}"#, "location"),
            (#"{"weather": []}"#, "alerts"),
        ]
        for (body, field) in cases {
            #expect(parseError(body)?.field == field, "\(body)")
        }
        #expect(
            parseError(#"{"detail": "No sources match your criteria"}"#)?.problem
                == .providerReported("No sources match your criteria"))
    }

    /// A point answer's `location.warn_cell_id` is kept with the grid point;
    /// the next plan asks by the cell, one URL for every place in it.
    @Test func asksByTheWarnCellAPointAnswerNamed() throws {
        let point = "/alerts?lat=52.52&lon=13.39&tz=Europe%2FBerlin"
        let body = try Fixtures.bytes("alerts/brightsky-alerts-berlin-mitte.json")
        let outcome = source.areaLookup([body], asked: [point], for: berlin, now: now)
        guard case .keep(let lookup) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(lookup.expiresAt == now + DWDWarnCell.lifetime && lookup.validationProblem == nil)
        let cellPath = "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin"
        #expect(
            source.plan(for: berlin, lookups: [lookup], languages: [], now: now) == .requests([.init(path: cellPath)]))
        // Another place of the cell, in its own zone: the same question.
        var neighbour = berlin
        neighbour.timeZone = ""
        let theirs = DWDWarnCell.lookup("711000101", for: neighbour, now: now)
        #expect(
            source.plan(for: neighbour, lookups: [theirs], languages: [], now: now)
                == .requests([.init(path: cellPath)]))
        // A place that moved asks by point: the cell was found for the old position.
        var moved = berlin
        moved.latitude = 48.14
        #expect(
            source.plan(for: moved, lookups: [lookup], languages: [], now: now)
                == .requests([.init(path: "/alerts?lat=48.14&lon=13.39&tz=Europe%2FBerlin")]))
        // Without the cell, and for a place outside Germany, as before.
        #expect(source.plan(for: berlin, lookups: [], languages: [], now: now) == .requests([.init(path: point)]))
        var strasbourg = berlin
        strasbourg.countryCode = "FR"
        #expect(
            source.plan(for: strasbourg, lookups: [lookup], languages: [], now: now)
                == .notCovered("the DWD warns for Germany only"))
        // The cell's answer names the cell: nothing changes.
        #expect(source.areaLookup([body], asked: [cellPath], for: berlin, now: now) == .unchanged)
    }

    /// Only a 9-digit cell id is kept; anything else leaves the point query,
    /// and a cell answer naming another cell, or none, drops the cell.
    @Test func aBadWarnCellKeepsThePointQuery() {
        let point = "/alerts?lat=52.52&lon=13.39&tz=Europe%2FBerlin"
        for cell in [
            #""12345""#, "12345", #""071100010""#, #""71100010a""#, "711000101.5", #""711000101&x=1""#, "null",
        ] {
            let body = Array(#"{"alerts": [], "location": {"warn_cell_id": \#(cell)}}"#.utf8)
            guard case .ignored = source.areaLookup([body], asked: [point], for: berlin, now: now) else {
                Issue.record("\(cell) was taken for a warn cell")
                continue
            }
        }
        #expect(
            source.areaLookup([Array(#"{"alerts": []}"#.utf8)], asked: [point], for: berlin, now: now) != .unchanged)
        let cellPath = "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin"
        let other = Array(#"{"alerts": [], "location": {"warn_cell_id": 803159016}}"#.utf8)
        #expect(
            source.areaLookup([other], asked: [cellPath], for: berlin, now: now)
                == .drop("the answer for warn cell 711000101 names warn cell 803159016"))
        guard case .drop = source.areaLookup([Array(#"{"alerts": []}"#.utf8)], asked: [cellPath], for: berlin, now: now)
        else {
            Issue.record("a cell answer naming no cell kept the cell")
            return
        }
        // A kept value that is not a cell id is not asked.
        let bad = ProviderLookup(
            values: ["dwdWarnCell": "7110/0101", "dwdWarnCellLatitude": "52.52", "dwdWarnCellLongitude": "13.39"],
            expiresAt: now + 60)
        #expect(source.plan(for: berlin, lookups: [bad], languages: [], now: now) == .requests([.init(path: point)]))
    }
}
