import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The failures' sentences, written once for the daemon (English) and
/// raindctl (the reader's language), through the real glibc and catalogues.
final class FailureWordingTests: XCTestCase {
    static let catalogues: String? = {
        guard let directory = Catalogues.compiled else { return nil }
        Localization.bind(environment: ["RAIND_LOCALE_DIR": directory], executablePath: nil)
        return directory
    }()

    /// Every parameter any kind takes, so each kind renders.
    static let everything = [
        "provider": "open-meteo", "url": "https://api.open-meteo.com/v1/forecast", "status": "503",
        "seconds": "1200", "limit": "4194304", "origin": "https://elsewhere.example", "budget": "1500",
        "problem": "hourly.time: expected an array", "detail": " (Connection refused)", "said": ": \"Too many\"",
    ]

    func testEveryKind_rendersInEnglishAndInEachCatalogue_keepingItsNumbersInTheLocalesWay() throws {
        try XCTSkipIf(Self.catalogues == nil, "msgfmt is not installed")
        for kind in FailureWording.Kind.allCases {
            let wording = FailureWording(kind, Self.everything)
            let english = try XCTUnwrap(Localization.with(locale: "C") { wording.text } ?? nil, kind.rawValue)
            XCTAssertEqual(wording.message, english)
            XCTAssertFalse(english.contains("{"), english)
            let german = try XCTUnwrap(Localization.with(locale: "de_DE.UTF-8") { wording.localized(english) })
            XCTAssertNotEqual(german, english, kind.rawValue)
            XCTAssertFalse(german.contains("{"), german)
        }
        let budget = FailureWording(.dailyBudgetUsed, ["budget": "1500"])
        XCTAssertTrue(budget.message.contains("daily budget of 1,500 upstream calls"), budget.message)
        let german = Localization.with(locale: "de_DE.UTF-8") { budget.localized(budget.message) }
        XCTAssertEqual(
            german,
            "das Tagesbudget von 1.500 Abrufen beim Anbieter ist aufgebraucht; es beginnt um 00:00 UTC neu ([Refresh] DailyBudget= erhöhen, um mehr zu erlauben)"
        )
    }

    func testTheSameEnglishAsTheDaemonWroteBefore() {
        XCTAssertEqual(
            FailureWording(.serverErrorAsked, ["provider": "open-meteo", "status": "503", "seconds": "120"]).message,
            "open-meteo failed (HTTP 503); it asked raind to wait 120 s; raind keeps the cached data and retries later")
        XCTAssertEqual(
            FailureWording(.rateLimited, ["provider": "metno", "said": FailureWording.said(nil)]).message,
            "metno is rate-limiting raind (HTTP 429)")
        XCTAssertEqual(
            FailureWording(.timedOut, ["url": "https://x.example/", "detail": FailureWording.detail("")]).message,
            "the request to https://x.example/ timed out; the provider or the network is slow, it will be retried later"
        )
    }

    func testAnUnknownKindOrAMissingParameter_showsTheMessageAsSent() {
        let newer = FailureWording(kind: "solarFlare", parameters: [:])
        XCTAssertNil(newer.text)
        XCTAssertEqual(newer.localized("the sun interfered"), "the sun interfered")
        let partial = FailureWording(.serverError, ["provider": "open-meteo"])
        XCTAssertNil(partial.text)
        XCTAssertEqual(partial.localized("open-meteo failed"), "open-meteo failed")
    }

    func testAMessageOtherThanTheWordingsEnglish_isShownAsSent() throws {
        try XCTSkipIf(Self.catalogues == nil, "msgfmt is not installed")
        let wording = FailureWording(.notFound, ["provider": "metno"])
        let shown = Localization.with(locale: "de_DE.UTF-8") { wording.localized("an older daemon's words") }
        XCTAssertEqual(shown, "an older daemon's words")
    }

    /// A reader whose locale words failures as the daemon does (English,
    /// numbers as C writes them) is shown the message as sent, worded
    /// nowhere again; any other reader has it worded again in their way.
    func testAnEnglishReader_isShownTheMessageAsSent() throws {
        try XCTSkipIf(Self.catalogues == nil, "msgfmt is not installed")
        XCTAssertEqual(Localization.with(locale: "C") { FailureWording.readerWordsAsDaemon() }, true)
        XCTAssertEqual(Localization.with(locale: "C.UTF-8") { FailureWording.readerWordsAsDaemon() }, true)
        XCTAssertEqual(Localization.with(locale: "en_GB.UTF-8") { FailureWording.readerWordsAsDaemon() }, true)
        // A catalogue of its own (en_US), another language, another way with numbers: worded again.
        XCTAssertEqual(Localization.with(locale: "en_US.UTF-8") { FailureWording.readerWordsAsDaemon() }, false)
        XCTAssertEqual(Localization.with(locale: "de_DE.UTF-8") { FailureWording.readerWordsAsDaemon() }, false)
        var german = try XCTUnwrap(Localization.with(locale: "de_DE.UTF-8") { LocaleConventions.current })
        XCTAssertFalse(german.writesNumbersAsC)
        german.decimalSeparator = "."
        german.groupSeparator = ","
        XCTAssertTrue(german.writesNumbersAsC, "the numbers alone decide")
        let budget = FailureWording(.dailyBudgetUsed, ["budget": "1500"], cause: nil)
        for locale in ["C.UTF-8", "en_GB.UTF-8"] {
            XCTAssertEqual(Localization.with(locale: locale) { budget.localized(budget.message) }, budget.message)
            XCTAssertEqual(
                Localization.with(locale: locale) { budget.localized("an older daemon's words") },
                "an older daemon's words")
            let failed = AlertService(source: "dwd", problem: budget.message, wording: budget)
            XCTAssertEqual(Localization.with(locale: locale) { failed.localizedProblem }, budget.message)
        }
    }

    func testBackingOff_wordsTheFailureItNamesInTheSameLanguage() throws {
        try XCTSkipIf(Self.catalogues == nil, "msgfmt is not installed")
        let cause = FailureWording(.notFound, ["provider": "metno"])
        let wording = FailureWording(.backingOff, ["problem": cause.message, "seconds": "30"], cause: cause)
        let german = try XCTUnwrap(Localization.with(locale: "de_DE.UTF-8") { wording.localized(wording.message) })
        XCTAssertTrue(
            german.hasPrefix("der Anbieter ist vor kurzem ausgefallen (metno antwortete 404 Not Found;"), german)
    }

    func testHostileParameters_areShownNotInterpreted() {
        let wording = FailureWording(.webPage, ["provider": "{provider}{said}%s\u{0}"])
        XCTAssertEqual(wording.text?.hasPrefix("{provider}{said}%s\u{0} answered with a web page"), true)
        let huge = FailureWording(.dailyBudgetUsed, ["budget": String(repeating: "9", count: 10_000)])
        XCTAssertNotNil(huge.text)
        let odd = FailureWording(.dailyBudgetUsed, ["budget": "-.5e3"])
        XCTAssertEqual(odd.text?.contains("budget of -.5e3 upstream"), true)
    }

    /// An alert service's or the air's last failure: worded again from its
    /// wording, a sentence raind marked from the catalogue, else as sent.
    func testAnAlertServicesOrTheAirsProblem_isSaidInTheReadersLanguage() throws {
        try XCTSkipIf(Self.catalogues == nil, "msgfmt is not installed")
        let wording = FailureWording(.timedOut, ["url": "https://warnings.example/", "detail": ""])
        let failed = AlertService(source: "dwd", problem: wording.message, wording: wording)
        XCTAssertEqual(
            Localization.with(locale: "de_DE.UTF-8") { failed.localizedProblem },
            "die Anfrage an https://warnings.example/ lief in eine Zeitüberschreitung; Anbieter oder Netzwerk sind langsam, sie wird später wiederholt"
        )
        let strasbourg = Location(
            id: LocationID("strasbourg-fr"), name: "Strasbourg", countryCode: "FR", latitude: 48.58, longitude: 7.75,
            timeZone: "Europe/Paris", source: .coordinates)
        guard case .notCovered(let reason) = DWDAlertSource().plan(for: strasbourg, languages: [], now: 0) else {
            return XCTFail("the DWD covers Strasbourg")
        }
        let outside = AlertService(source: "dwd", problem: reason)
        XCTAssertEqual(
            Localization.with(locale: "de_DE.UTF-8") { outside.localizedProblem }, "der DWD warnt nur für Deutschland")
        let status = AlertService(source: "dwd", problem: "HTTP 503")
        XCTAssertEqual(Localization.with(locale: "de_DE.UTF-8") { status.localizedProblem }, "HTTP 503")
        let other = AlertService(source: "dwd", problem: "an older daemon's words", wording: wording)
        XCTAssertEqual(Localization.with(locale: "de_DE.UTF-8") { other.localizedProblem }, "an older daemon's words")
        // Open-Meteo's air URL is long: the sentence raind keeps is whole, so it is still the wording's English.
        let path = OpenMeteoAirQuality().request(for: strasbourg, index: .european).request.path
        let slow = FailureWording(.timedOut, ["url": "https://air-quality-api.open-meteo.com" + path, "detail": ""])
        XCTAssertGreaterThan(slow.message.count, 400, slow.message)
        let kept = String(slow.message.prefix(AirQuality.maximumProblemCharacters))
        let air = AirQuality(
            provider: "open-meteo", fetchedAt: 1_768_466_880, index: .european, problem: kept, wording: slow)
        XCTAssertNil(air.validationProblem(), "what raind keeps, it reads back")
        XCTAssertEqual(
            Localization.with(locale: "fr_FR.UTF-8") { air.localizedProblem ?? "" }?.hasPrefix(
                "la requête vers https://air-quality-api.open-meteo.com/v1/air-quality?"), true)
        XCTAssertEqual(Localization.with(locale: "C") { air.localizedProblem ?? "" }, slow.message)
        var huge = air
        huge.wording = FailureWording(.timedOut, ["url": String(repeating: "x", count: 2000), "detail": ""])
        XCTAssertEqual(huge.validationProblem()?.field, "wording")
    }
}
