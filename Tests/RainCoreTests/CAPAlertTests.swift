import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct CAPAlertTests {
    typealias Point = AlertArea.Point

    /// Inside the starkregen polygon (Pritzerbe, Havelsee); Brandenburg an der Havel lies outside it.
    let pritzerbe = Point(latitude: 52.50, longitude: 12.46)
    let brandenburg = Point(latitude: 52.41, longitude: 12.55)
    let göttingen = Point(latitude: 51.5413, longitude: 9.9158)
    let munich = Point(latitude: 48.14, longitude: 11.58)
    let berlin = Point(latitude: 52.52, longitude: 13.40)

    func recorded(
        _ name: String, at place: Point, codes: Set<String> = [], languages: [String] = ["en"]
    ) throws -> [WeatherAlert] {
        try CAPAlert.alerts(
            try Fixtures.bytes("alerts/" + name), source: "test", at: place, placeCodes: codes, languages: languages)
    }

    func parse(
        _ text: String, at place: Point? = nil, codes: Set<String> = [], languages: [String] = ["en"]
    ) throws(ProviderParseError) -> [WeatherAlert] {
        try CAPAlert.alerts(
            Array(text.utf8), source: "test", at: place ?? berlin, placeCodes: codes, languages: languages)
    }

    func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ProviderParseError? {
        do {
            let alerts = try parse(text)
            Issue.record("parsed \(alerts.count) alert(s)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Hand-made messages (made by hand for these tests; values invented)

    static let aroundBerlin = "52.3,13.0 52.3,13.8 52.7,13.8 52.7,13.0 52.3,13.0"

    static func message(
        identifier: String = "test-1", status: String = "Actual", type: String = "Alert",
        sent: String = "2024-01-10T08:00:00+01:00", references: String? = nil, infos: [String]
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
          <identifier>\(identifier)</identifier><sender>test@example.org</sender><sent>\(sent)</sent>
          <status>\(status)</status><msgType>\(type)</msgType><scope>Public</scope>
          \(references.map { "<references>\($0)</references>" } ?? "")
          \(infos.joined(separator: "\n"))
        </alert>
        """
    }

    static func info(
        language: String? = "en", event: String = "Gale", fields: String = "", areas: [String] = [area()]
    ) -> String {
        """
        <info>\(language.map { "<language>\($0)</language>" } ?? "")<category>Met</category>
          <event>\(event)</event><urgency>Expected</urgency><severity>Severe</severity><certainty>Likely</certainty>
          \(fields)
          \(areas.joined())
        </info>
        """
    }

    static func area(_ name: String = "Berlin", _ outline: String = "<polygon>\(aroundBerlin)</polygon>") -> String {
        "<area><areaDesc>\(name)</areaDesc>\(outline)</area>"
    }

    // MARK: DWD

    @Test func dwdWindGusts_aPlaceInsideThePolygon() throws {
        let alerts = try recorded("dwd-cap-windboeen-alert-fe90b61b.xml", at: göttingen, languages: ["de"])
        let alert = try #require(alerts.first)
        #expect(alerts.count == 1)
        #expect(alert.id == "2.49.0.0.276.0.DWD.PVW.1687470000000.fe90b61b-3755-4efb-8eda-b161251da9f7.MUL")
        #expect(alert.title == "Amtliche WARNUNG vor WINDBÖEN")
        #expect(alert.event == "WINDBÖEN")
        #expect(alert.severity == .minor)
        #expect(alert.urgency == .immediate)
        #expect(alert.certainty == .likely)
        #expect(alert.messageType == .alert)
        #expect(alert.references == nil)
        #expect(alert.start == 1_687_470_000)  // effective 2023-06-22T23:40:00+02:00
        #expect(alert.onset == 1_687_500_000)  // 2023-06-23T08:00:00+02:00
        #expect(alert.end == 1_687_528_800)  // expires 16:00
        #expect(alert.regions == ["polygonal event area"])
        #expect(alert.approximate == false)
        #expect(alert.source == "test")
        #expect(alert.uri == "https://www.wettergefahren.de")
        #expect(
            alert.description.hasPrefix("Es treten Windböen mit Geschwindigkeiten um 55 km/h (15 m/s, 30 kn, Bft 7)"))
        #expect(alert.instruction == nil)
    }

    @Test func dwdWindGusts_aPlaceOutsideEveryArea() throws {
        #expect(try recorded("dwd-cap-windboeen-alert-fe90b61b.xml", at: munich, languages: ["de"]).isEmpty)
        // Its 168 warn cells have no outline: without a code the place is known to be in, none matches.
        #expect(try recorded("dwd-cap-windboeen-alert-fe90b61b.xml", at: munich, codes: ["WARNCELLID:1"]).isEmpty)
    }

    @Test func dwdHeavyRainUpdate_referencesAndLanguages() throws {
        let english = try #require(
            try recorded("dwd-cap-starkregen-update-0d1a4fb5.xml", at: pritzerbe, languages: ["en"]).first)
        #expect(english.messageType == .update)
        #expect(english.references == ["2.49.0.0.276.0.DWD.PVW.1687503060000.fc4f7fd9-80e7-4d71-969a-254be3e27e83.MUL"])
        #expect(english.title == "Official WARNING of HEAVY RAIN")
        #expect(english.event == "heavy rain")
        #expect(
            english.description == "There is a risk of heavy rain (Level 2 of 4).\nPrecipitation amounts: 20-30 l/m²/6h"
        )
        #expect(english.instruction?.hasPrefix("NOTE: Be aware") == true)
        #expect(english.start == 1_687_511_640)
        #expect(english.onset == 1_687_511_640)
        #expect(english.end == 1_687_525_200)
        let byLanguage: [([String], String)] = [
            (["de"], "STARKREGEN"), (["fr", "de"], "fortes pluies"), (["de-AT"], "STARKREGEN"),
            (["es"], "Lluvia intensa"), (["nb", "pl"], "Ulewa"), (["ja"], "heavy rain"), ([], "heavy rain"),
        ]
        for (languages, event) in byLanguage {
            let alerts = try recorded("dwd-cap-starkregen-update-0d1a4fb5.xml", at: pritzerbe, languages: languages)
            #expect(alerts.map(\.event) == [event], "\(languages)")
        }
    }

    @Test func dwdHeavyRain_warnCellsMatchOnlyByAKnownCode() throws {
        let file = "dwd-cap-starkregen-update-0d1a4fb5.xml"
        #expect(try recorded(file, at: brandenburg).isEmpty)
        let byCode = try #require(try recorded(file, at: brandenburg, codes: ["WARNCELLID:812069270"]).first)
        #expect(byCode.regions == ["Stadt Havelsee"])
        #expect(byCode.approximate == true)
        // Inside the outline, the code's cell is named too, and the match is exact.
        let both = try #require(try recorded(file, at: pritzerbe, codes: ["WARNCELLID:812069270"]).first)
        #expect(both.regions == ["polygonal event area", "Stadt Havelsee"])
        #expect(both.approximate == false)
    }

    // MARK: MET Norway and MeteoAlarm

    @Test func metAlertsGale_norwegianOrEnglish() throws {
        let sea = Point(latitude: 62.2, longitude: 5.1)
        let norwegian = try #require(try recorded("metalerts-cap-maloy-svinoy.xml", at: sea, languages: ["nb"]).first)
        #expect(norwegian.id == "2.49.0.1.578.0.210921070421906.1705")
        #expect(norwegian.event == "Kuling")
        #expect(
            norwegian.title == "Kuling, gult nivå, Måløy - Svinøy, 21 September 06:00 UTC til 22 September 10:00 UTC.")
        #expect(norwegian.regions == ["Måløy - Svinøy"])
        #expect(norwegian.instruction == "Vurder å la båten ligge. Ikke dra ut i småbåt.")
        #expect(norwegian.severity == .moderate)
        #expect(norwegian.urgency == .future)
        #expect(norwegian.start == 1_632_204_000)
        #expect(norwegian.end == 1_632_304_800)
        #expect(norwegian.uri == "https://www.met.no/vaer-og-klima/Ekstremvaervarsler-og-andre-farevarsler")
        let english = try #require(try recorded("metalerts-cap-maloy-svinoy.xml", at: sea, languages: ["de"]).first)
        #expect(english.event == "Gale")
        #expect(english.regions == ["Maaloey - Svinoey"])
        #expect(try recorded("metalerts-cap-maloy-svinoy.xml", at: Point(latitude: 62.0, longitude: 5.5)).isEmpty)
    }

    @Test func meteoAlarmFrance_onlyByAKnownGeocode_andAllClearIsACancellation() throws {
        let chambéry = Point(latitude: 45.57, longitude: 5.92)
        let file = "meteoalarm-cap-france-avalanches.xml"
        // NUTS3 codes only, no outline: raind's places have no such code, so nothing.
        #expect(try recorded(file, at: chambéry).isEmpty)
        let alerts = try recorded(file, at: chambéry, codes: ["NUTS3:FR717"], languages: ["fr"])
        let alert = try #require(alerts.first)
        #expect(alerts.count == 1)
        #expect(alert.regions == ["Savoie"])
        #expect(alert.approximate == true)
        #expect(alert.event == "Vigilance jaune avalanches")
        // msgType Update with responseType AllClear: the warning it updates is over.
        #expect(alert.messageType == .cancel)
        #expect(alert.references == ["2.49.0.0.250.0.FR.20221206160108.315028"])
        #expect(alert.uri == "http://vigilance.meteofrance.com/")
        #expect(alert.start == 1_670_389_260 && alert.onset == 1_670_389_200 && alert.end == 1_670_389_260)
        #expect(try recorded(file, at: chambéry, codes: ["NUTS3:FR101"]).isEmpty)
    }

    @Test func meteoAlarmSerbia_singleLineThreeLanguages() throws {
        let kragujevac = Point(latitude: 44.0128, longitude: 20.9114)
        let file = "meteoalarm-cap-serbia-sumadija.xml"
        let english = try #require(try recorded(file, at: kragujevac, languages: ["en"]).first)
        #expect(english.id == "2.49.0.0.688.0.20250817210003.457535")
        #expect(english.title == "Thunderstorm Sumadija yellow")
        #expect(english.messageType == .update)
        #expect(english.references == ["2.49.0.0.688.0.20250816130004.740814"])
        #expect(english.regions == ["Sumadija"])
        #expect(english.approximate == false)
        #expect(english.start == 1_755_468_000 && english.end == 1_755_554_399)
        #expect(try recorded(file, at: kragujevac, languages: ["sr"]).first?.regions == ["Шумадија"])
        #expect(
            try recorded(file, at: kragujevac, languages: ["sr-Latn"]).first?.title == "Grmljavina Sumadija Umeren nivo"
        )
        // Belgrade lies north of Šumadija: no alert, even knowing its code would not change that (it has an outline).
        #expect(try recorded(file, at: Point(latitude: 44.8, longitude: 20.46), codes: ["EMMA_ID:RS010"]).isEmpty)
    }

    // MARK: Rules, on hand-made messages

    @Test func onlyActualMessagesAreWarnings() throws {
        for status in ["Exercise", "System", "Test", "Draft"] {
            #expect(try parse(Self.message(status: status, infos: [Self.info()])).isEmpty, "\(status)")
        }
        #expect(try parse(Self.message(infos: [Self.info()])).count == 1)
        #expect(refusal(Self.message(status: "Real", infos: [Self.info()]))?.field == "alert.status")
    }

    @Test func acknowledgementsAndErrorsAreNotWarnings() throws {
        #expect(try parse(Self.message(type: "Ack", infos: [Self.info()])).isEmpty)
        #expect(try parse(Self.message(type: "Error", infos: [Self.info()])).isEmpty)
        let error = try #require(refusal(Self.message(type: "Bulletin", infos: [Self.info()])))
        #expect(error.field == "alert.msgType")
        #expect(error.description.contains("msgType \"Bulletin\" is none of Alert, Update, Cancel, Ack, Error"))
    }

    @Test func aCancellationWithoutInfoStillNamesWhatItCancels() throws {
        let text = Self.message(
            identifier: "c-2", type: "Cancel", references: "test@example.org,a-1,2024-01-10T07:00:00+01:00", infos: [])
        let cancel = try #require(try parse(text).first)
        #expect(cancel.messageType == .cancel)
        #expect(cancel.id == "c-2")
        #expect(cancel.references == ["a-1"])
        #expect(cancel.start == 1_704_870_000)
        #expect(try parse(Self.message(type: "Alert", infos: [])).isEmpty)
    }

    @Test func circlesMatchByDistance() throws {
        let circle = Self.info(areas: [Self.area("Mitte", "<circle>52.52,13.40 10</circle>")])
        #expect(try parse(Self.message(infos: [circle]), at: Point(latitude: 52.58, longitude: 13.40)).count == 1)
        #expect(try parse(Self.message(infos: [circle]), at: Point(latitude: 52.70, longitude: 13.40)).isEmpty)
    }

    @Test func onlyTheAreasThatReachThePlaceAreItsRegions() throws {
        let areas = [
            Self.area("Berlin"),
            Self.area("Hamburg", "<polygon>53.4,9.7 53.4,10.3 53.7,10.3 53.7,9.7 53.4,9.7</polygon>"),
            Self.area("Mitte", "<circle>52.52,13.40 5</circle>"), Self.area("Somewhere", ""),
        ]
        let alert = try #require(try parse(Self.message(infos: [Self.info(areas: areas)])).first)
        #expect(alert.regions == ["Berlin", "Mitte"])
    }

    @Test func theFieldsOfAnInfoBlock() throws {
        let fields = """
            <effective>2024-01-10T09:00:00+01:00</effective><onset>2024-01-10T12:00:00.000+01:00</onset>
            <expires>2024-01-10T18:00:00+01:00</expires><headline>Gale &lt;b&gt;warning&lt;/b&gt;</headline>
            <description><![CDATA[Winds <b>up to</b> 90 km/h.]]></description><instruction>Stay in.</instruction>
            <web>  https://example.org/w?id=1&amp;l=en  </web>
            <parameter><valueName>eventEndingTime</valueName><value>2024-01-10T20:00:00+01:00</value></parameter>
            """
        let alert = try #require(try parse(Self.message(infos: [Self.info(fields: fields)])).first)
        #expect(alert.start == 1_704_873_600)
        #expect(alert.onset == 1_704_884_400)
        #expect(alert.end == 1_704_913_200)  // eventEndingTime, after expires (1_704_906_000)
        // Text as the service wrote it; AlertText makes it plain later.
        #expect(alert.title == "Gale <b>warning</b>")
        #expect(alert.description == "Winds <b>up to</b> 90 km/h.")
        #expect(alert.instruction == "Stay in.")
        #expect(alert.uri == "https://example.org/w?id=1&l=en")
        #expect(alert.severity == .severe && alert.urgency == .expected && alert.certainty == .likely)
        // No headline: the event is the title; no effective: sent is the start.
        let bare = try #require(try parse(Self.message(infos: [Self.info()])).first)
        #expect(bare.title == "Gale")
        #expect(bare.start == 1_704_870_000)
        #expect(bare.end == nil && bare.onset == nil && bare.uri == "")
        let notWeb = Self.info(fields: "<web>javascript:alert(1)</web>")
        #expect(try parse(Self.message(infos: [notWeb])).first?.uri == "")
    }

    @Test func awarenessLevelStandsInForAMissingSeverity() throws {
        func severity(_ text: String, level: String) throws -> AlertSeverity? {
            let info = Self.info(
                fields: "<parameter><valueName>awareness_level</valueName><value>\(level)</value></parameter>"
            ).replacing("<severity>Severe</severity>", with: text)
            return try parse(Self.message(infos: [info])).first?.severity
        }
        #expect(try severity("<severity>Unknown</severity>", level: "3; orange; Severe") == .severe)
        #expect(try severity("", level: "4; red; Extreme") == .extreme)
        #expect(try severity("", level: "2; yellow") == .moderate)
        #expect(try severity("<severity>Minor</severity>", level: "4; red; Extreme") == .minor)
        #expect(CAPAlert.severity(awarenessLevel: "1; green; Minor") == .minor)
        #expect(CAPAlert.severity(awarenessLevel: "x") == .unknown)
    }

    @Test func languagesAndTheDefaultOfCAP() throws {
        let infos = [Self.info(language: nil, event: "Gale"), Self.info(language: "de-DE", event: "Sturm")]
        #expect(try parse(Self.message(infos: infos), languages: ["fr"]).map(\.event) == ["Gale"])  // en-US
        #expect(try parse(Self.message(infos: infos), languages: ["de"]).map(\.event) == ["Sturm"])
        let noEnglish = [Self.info(language: "fr", event: "Vent"), Self.info(language: "it", event: "Vento")]
        #expect(try parse(Self.message(infos: noEnglish), languages: ["ja"]).map(\.event) == ["Vent"])
        #expect(CAPAlert.primaryLanguage("nn") == "no" && CAPAlert.primaryLanguage("sr-latn") == "sr")
    }

    @Test func twoBlocksInOneLanguageAreTwoAlerts() throws {
        let infos = [Self.info(event: "Gale"), Self.info(event: "Snow"), Self.info(language: "de", event: "Sturm")]
        let alerts = try parse(Self.message(identifier: "m-1", infos: infos))
        #expect(alerts.map(\.event) == ["Gale", "Snow"])
        #expect(alerts.map(\.id) == ["m-1", "m-1#2"])
    }

    @Test func badValuesAreRefusedNamingTheElement() throws {
        let cases: [(String, String, String)] = [
            (
                Self.message(sent: "2024-01-10 08:00", infos: [Self.info()]), "alert.sent",
                "is not a time with a UTC offset"
            ),
            (Self.message(sent: "2024-01-10T08:00:00", infos: [Self.info()]), "alert.sent", "is not a time"),
            (
                Self.message(infos: [Self.info(), Self.info(fields: "<onset>tomorrow</onset>")]), "alert.info[1].onset",
                "\"tomorrow\" is not a time"
            ),
            (
                Self.message(infos: [
                    Self.info(areas: [Self.area("X", "<polygon>52.5,abc 52.6,13 52.7,13.1</polygon>")])
                ]),
                "alert.info[0].area[0].polygon[0]", "\"52.5,abc\" is not a point"
            ),
            (
                Self.message(infos: [Self.info(areas: [Self.area("X", "<polygon>95,13 52.6,13 52.7,13.1</polygon>")])]),
                "alert.info[0].area[0].polygon[0]", "is not a point"
            ),
            (
                Self.message(infos: [Self.info(areas: [Self.area("X", "<polygon>52.5,13 52.6,13</polygon>")])]),
                "alert.info[0].area[0].polygon[0]", "a polygon of 2 points"
            ),
            (
                Self.message(infos: [Self.info(areas: [Self.area("X", "<circle>52.5,13</circle>")])]),
                "alert.info[0].area[0].circle[0]", "is not a circle"
            ),
            (
                Self.message(infos: [Self.info(areas: ["<area><polygon>\(Self.aroundBerlin)</polygon></area>"])]),
                "alert.info[0].area[0].areaDesc", "is missing"
            ),
            (
                Self.message(references: "test@example.org,a-1", infos: [Self.info()]), "alert.references",
                "is not a sender,identifier,sent triple"
            ),
            (
                Self.message(
                    infos: [
                        Self.info(
                            fields: "<parameter><valueName>eventEndingTime</valueName><value>soon</value></parameter>")
                    ]), "alert.info[0].parameter[0].value", "is not a time"
            ),
            (
                Self.message(identifier: String(repeating: "x", count: 600), infos: [Self.info()]), "alert.identifier",
                "longer than 512 bytes"
            ),
            (Self.message(infos: ["<info><language>en</language></info>"]), "alert.info[0].event", "is missing"),
        ]
        for (text, field, problem) in cases {
            let error = refusal(text)
            #expect(error?.field == field, "\(field)")
            #expect(error?.description.contains(problem) == true, "\(error?.description ?? "parsed")")
            #expect(error?.provider == "test")
        }
    }

    @Test func requiredElementsOfTheMessage() throws {
        for element in ["identifier", "sender", "sent", "status", "msgType"] {
            let text = Self.message(infos: [Self.info()])
                .replacing("<\(element)>", with: "<x\(element)>")
                .replacing("</\(element)>", with: "</x\(element)>")
            let error = refusal(text)
            #expect(error?.field == "alert.\(element)")
            #expect(error?.problem == .missing)
        }
    }

    /// The fuzzing campaign's `alerts` target (not run here) on every
    /// recording, cut short and with bytes changed: each must return.
    @Test func theAlertsFuzzTargetReturnsOnEveryRecordingCutAndChanged() throws {
        let names = try TestFile.names(in: Fixtures.directory + "/alerts")
        #expect(names.count >= 8)
        for name in names {
            let bytes = try Fixtures.bytes("alerts/" + name)
            FuzzTargets.alerts(bytes)
            for length in stride(from: 0, to: min(bytes.count, 12_000), by: 997) {
                FuzzTargets.alerts(Array(bytes[0..<length]))
            }
            var changed = bytes
            for index in stride(from: 7, to: min(changed.count, 12_000), by: 509) { changed[index] ^= 0x21 }
            FuzzTargets.alerts(changed)
        }
    }

    @Test func aDocumentThatIsNotACAPAlert() throws {
        let feed = try #require(refusal("<feed xmlns='http://www.w3.org/2005/Atom'/>"))
        #expect(feed.description == "test response: a <feed>, not a CAP <alert>")
        let html = try #require(refusal("<html><body>Bad gateway</html>"))
        guard case .notXML(let xml) = html.problem else {
            Issue.record("\(html)")
            return
        }
        #expect(xml.problem.hasPrefix("the end tag </html> does not match <body>"))
        #expect(html.description.hasPrefix("test response is not well-formed XML (the end tag </html>"))
    }
}
