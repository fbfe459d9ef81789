import TestSupport
import XCTest

@testable import RainCore

/// Why another provider serves a place (`ProviderFailover`, `ProviderChange`):
/// English as the daemon writes it whatever its locale, and again in the
/// reader's language from the failure's wording, through the real glibc and
/// catalogues; a reason raindctl cannot write again is shown as sent.
final class ProviderFailoverTests: XCTestCase {
    static let timedOut = RefreshFailure(
        error: .offline,
        wording: FailureWording(.timedOut, ["url": "https://x.example/v1", "detail": ""]))
    static let webPage = RefreshFailure(
        error: .providerError, wording: FailureWording(.webPage, ["provider": "open-meteo"]), httpStatus: 200)
    static let unavailable = RefreshFailure(
        error: .providerError,
        wording: FailureWording(.serverError, ["provider": "open-meteo", "status": "503"]), httpStatus: 503)

    override func setUpWithError() throws {
        try XCTSkipIf(FailureWordingTests.catalogues == nil, "msgfmt is not installed")
    }

    func german<T>(_ body: () -> T) throws -> T { try XCTUnwrap(Localization.with(locale: "de_DE.UTF-8", body)) }

    func testTheFirstChoicesFailure_isShortenedInEnglish_andInTheReadersLanguage() throws {
        let failover = try german { ProviderFailover(provider: "open-meteo", lastFailure: Self.webPage) }
        XCTAssertEqual(failover.reason, "open-meteo answered with a web page", "English whatever the daemon's locale")
        XCTAssertEqual(failover.wording?.kind, "webPage")
        XCTAssertEqual(try german { failover.localizedReason }, "open-meteo antwortete mit einer Webseite")
        XCTAssertEqual(
            Localization.with(locale: "fr_FR.UTF-8") { failover.localizedReason },
            "open-meteo a répondu par une page web")
        XCTAssertEqual(Localization.with(locale: "C") { failover.localizedReason }, failover.reason)
        let slow = ProviderFailover(provider: "open-meteo", lastFailure: Self.timedOut)
        XCTAssertEqual(slow.reason, "the request to https://x.example/v1 timed out")
        XCTAssertEqual(
            try german { slow.localizedReason },
            "die Anfrage an https://x.example/v1 lief in eine Zeitübersc…", "60 characters at most, in any language")
    }

    func testAnHTTPStatus_andNotAsked() throws {
        let refused = ProviderFailover(provider: "open-meteo", lastFailure: Self.unavailable)
        XCTAssertEqual(refused.reason, "HTTP 503")
        XCTAssertEqual(try german { refused.localizedReason }, "HTTP 503")
        let unasked = try german { ProviderFailover(provider: "open-meteo", lastFailure: nil) }
        XCTAssertEqual(unasked.reason, "not asked")
        XCTAssertNil(unasked.wording)
        XCTAssertEqual(try german { unasked.localizedReason }, "noch nicht abgefragt")
    }

    func testAReasonOtherThanItsWordingsEnglish_isShownAsSent() throws {
        // Another version's words, or a wording that does not say the reason.
        var other = ProviderFailover(provider: "open-meteo", lastFailure: Self.webPage)
        other.reason = "the upstream is on fire"
        XCTAssertEqual(try german { other.localizedReason }, "the upstream is on fire")
        let newer = ProviderFailover(
            provider: "open-meteo", reason: "solar flare", wording: FailureWording(kind: "solarFlare", parameters: [:]))
        XCTAssertEqual(try german { newer.localizedReason }, "solar flare")
    }

    func testAWordingLargerThanTheCacheKeeps_isDropped_andRefusedFromTheCache() throws {
        var huge = Self.webPage
        huge.wording?.parameters["problem"] = String(repeating: "x", count: 5000)
        let failover = ProviderFailover(provider: "open-meteo", lastFailure: huge)
        XCTAssertNil(failover.wording, "the reason alone, as before")
        XCTAssertEqual(failover.reason, "open-meteo answered with a web page")
        var forecast = Forecast(provider: "metno", fetchedAt: 1_768_466_880)
        forecast.failover = ProviderFailover(provider: "open-meteo", reason: "HTTP 503", wording: huge.wording)
        XCTAssertEqual(forecast.validationProblem()?.field, "failover.wording")
        forecast.failover = ProviderFailover(provider: "open-meteo", lastFailure: Self.unavailable)
        XCTAssertNil(forecast.validationProblem())
    }

    func testAChangesReason_namesTheProviderThatFailed_inEnglish_andInTheReadersLanguage() throws {
        let moved = try german {
            ProviderChange(provider: "metno", previous: "open-meteo", failed: "open-meteo", failure: Self.webPage)
        }
        XCTAssertEqual(moved.reason, "open-meteo: open-meteo answered with a web page")
        XCTAssertEqual(try german { moved.localizedReason }, "open-meteo: open-meteo antwortete mit einer Webseite")
        XCTAssertEqual(
            Localization.with(locale: "fr_FR.UTF-8") { moved.localizedReason },
            "open-meteo\u{A0}: open-meteo a répondu par une page web", "French puts a no-break space before a colon")
        let refused = ProviderChange(provider: "metno", previous: "open-meteo", failed: "open-meteo", failure: nil)
        XCTAssertEqual(refused.reason, "open-meteo: not available")
        XCTAssertEqual(try german { refused.localizedReason }, "open-meteo: nicht verfügbar")
        let back = try german { ProviderChange(provider: "open-meteo", previous: "metno", failed: nil, failure: nil) }
        XCTAssertEqual(back.reason, "open-meteo is this place's first choice and answers again")
        XCTAssertNil(back.wording)
        XCTAssertEqual(
            try german { back.localizedReason }, "open-meteo ist die erste Wahl für diesen Ort und antwortet wieder")
        let older = ProviderChange(provider: "metno", previous: "open-meteo", reason: "open-meteo: HTTP 503")
        XCTAssertEqual(try german { older.localizedReason }, "open-meteo: HTTP 503", "nothing to word again")
        let other = ProviderChange(
            provider: "metno", previous: "open-meteo", reason: "open-meteo: the upstream is on fire",
            wording: Self.webPage.wording)
        XCTAssertEqual(try german { other.localizedReason }, "open-meteo: the upstream is on fire", "as sent")
    }

    /// A move by the scores: English on the wire whatever the daemon's
    /// locale, in the reader's language and units in every view.
    func testAMoveByTheScores_saysWhyInEnglish_andInTheReadersLanguageAndUnits() throws {
        let choice = ProviderChoice(
            place: "oslo-no", provider: "metno", error: 1.1, other: "open-meteo", otherError: 1.9, hours: 212,
            station: "Oslo-Blindern")
        let moved = try german { ProviderChange(previous: "open-meteo", choice: choice) }
        XCTAssertEqual(moved.provider, "metno")
        XCTAssertEqual(
            moved.reason, "metno: 24 h temperature error 1.1 °C against open-meteo's 1.9 °C over 212 h at Oslo-Blindern"
        )
        XCTAssertEqual(
            try german { moved.localizedReason },
            "metno: 24-h-Temperaturfehler 1,1 °C gegenüber 1,9 °C bei open-meteo über 212 h an Oslo-Blindern")
        XCTAssertEqual(
            Localization.with(locale: "C") { choice.text(units: .us) },
            "metno: 24 h temperature error 2.0 °F against open-meteo's 3.4 °F over 212 h at Oslo-Blindern")
        var forecast = Forecast(provider: "metno", attribution: Attribution(text: "Data", url: ""), fetchedAt: 0)
        forecast.choice = choice
        let view = Localization.with(locale: "C") {
            ForecastPresenter(forecast: forecast, placeName: "Oslo", units: .si, now: 60).tooltipView()
        }
        XCTAssertTrue(
            view?.contains(
                "metno: 24 h temperature error 1.1 °C against open-meteo's 1.9 °C over 212 h at Oslo-Blindern · Data")
                == true, view ?? "")
    }
}
