import RainCore
import XCTest

@testable import RainDaemonCore

/// The one book of every upstream service: forecasts, failovers and the
/// requests beside them spend and refund in it, on the tests' clocks.
final class ProviderLedgerTests: XCTestCase {
    /// 2026-03-10 12:00 UTC.
    let noon: Double = 1_773_144_000

    private func ledger(sole: ProviderName? = .openMeteo, perMinute: Double? = nil) -> ProviderLedger {
        var ledger = ProviderLedger(seed: 7)
        ledger.sole = sole
        ledger.setLimits(.openMeteo, daily: 100, monthly: nil, callsPerRequest: 3.1, perMinute: perMinute)
        ledger.setLimits(.pirateWeather, daily: 322, monthly: 10_000, callsPerRequest: 1)
        ledger.setLimits(.brightSky, daily: 144, monthly: nil, callsPerRequest: 1)
        return ledger
    }

    func testForecastsAndRequestsBesideThemSpendFromOneBook() {
        var ledger = ledger()
        ledger.spend(.openMeteo, now: noon, monotonic: 10)  // a forecast
        ledger.spend(.openMeteo, calls: 1, now: noon + 1, monotonic: 11)  // an alert poll counted as one call
        XCTAssertNil(ledger.spend(.openMeteo, beside: 5, reserve: (0, 0), now: noon + 2, monotonic: 12))  // air
        let usage = ledger.usage(.openMeteo, now: noon + 3)
        XCTAssertEqual(usage.requestsToday, 3)
        XCTAssertEqual(usage.callsToday, 9.1, accuracy: 1e-9)
        let total = ledger.total(of: [.openMeteo], now: noon + 3)
        XCTAssertEqual(total.usage, usage, "with one provider, the total is its book")
        XCTAssertEqual(total.daily, 100)
        XCTAssertTrue(total.addsUp)
    }

    func testARequestBesideTheForecastsLeavesTheirReserve() {
        var ledger = ledger()
        for second in 0..<20 { ledger.spend(.openMeteo, now: noon + Double(second), monotonic: Double(second)) }
        // 62 calls spent; 10 requests of 3.1 kept back leave 7 calls.
        let refused = ledger.spend(.openMeteo, beside: 8, reserve: (10, 10), now: noon + 30, monotonic: 30)
        XCTAssertEqual(refused?.0, .day)
        XCTAssertEqual(refused?.resetsAt, BudgetUsage.dayStart(noon) + 86400)
        XCTAssertEqual(ledger.usage(.openMeteo, now: noon + 30).requestsToday, 20, "a refusal counts nothing")
        XCTAssertNil(ledger.spend(.openMeteo, beside: 6, reserve: (10, 10), now: noon + 31, monotonic: 31))
    }

    func testARequestThatNeverReachedTheProviderIsRefunded() {
        var ledger = ledger(perMinute: 6.2)
        ledger.spend(.openMeteo, now: noon, monotonic: 100)
        ledger.spend(.openMeteo, now: noon, monotonic: 101)
        XCTAssertFalse(ledger.paceAllows(.openMeteo, monotonic: 102))
        ledger.refund(.openMeteo, now: noon + 1)
        XCTAssertEqual(ledger.usage(.openMeteo, now: noon + 1).requestsToday, 1)
        XCTAssertEqual(ledger.usage(.openMeteo, now: noon + 1).callsToday, 3.1, accuracy: 1e-9)
        XCTAssertTrue(ledger.paceAllows(.openMeteo, monotonic: 102), "the refund gives the minute back too")
        XCTAssertNil(ledger.spend(.openMeteo, beside: 2, reserve: (0, 0), now: noon + 2, monotonic: 103))
        ledger.refund(.openMeteo, calls: 2, now: noon + 3)
        XCTAssertEqual(ledger.usage(.openMeteo, now: noon + 3).callsToday, 3.1, accuracy: 1e-9)
    }

    func testPacingHoldsTheLastMinuteWithinItsLimit() {
        var ledger = ledger(perMinute: 7)
        XCTAssertTrue(ledger.paceAllows(.openMeteo, monotonic: 0))
        ledger.spend(.openMeteo, now: noon, monotonic: 0)
        XCTAssertTrue(ledger.paceAllows(.openMeteo, monotonic: 5))
        ledger.spend(.openMeteo, now: noon + 5, monotonic: 5)
        XCTAssertFalse(ledger.paceAllows(.openMeteo, monotonic: 10), "9.3 calls would pass 7 a minute")
        XCTAssertEqual(ledger.paceOpens(.openMeteo, monotonic: 10), 60, "the first call leaves the window")
        XCTAssertEqual(ledger.next(.openMeteo, after: noon + 10, monotonic: 10), noon + 60)
        XCTAssertTrue(ledger.paceAllows(.openMeteo, monotonic: 60))
        XCTAssertTrue(ledger.paceAllows(.brightSky, monotonic: 10), "a provider without a limit is never paced")
    }

    func testChoiceAndFailoverFollowHealthAndBudgets() {
        var ledger = ledger(sole: nil)
        let chain: [ProviderName] = [.brightSky, .openMeteo, .pirateWeather]
        XCTAssertEqual(ledger.choose(chain, now: noon), .brightSky)
        let failure = RefreshFailure(error: .providerError, message: "HTTP 500", httpStatus: 500)
        ledger.failed(.brightSky, failure: failure, now: noon)
        XCTAssertEqual(ledger.choose(chain, now: noon + 1), .openMeteo)
        XCTAssertEqual(ledger.next(after: [.brightSky], in: chain, now: noon + 1), .openMeteo)
        XCTAssertEqual(
            ledger.next(after: [.brightSky, .openMeteo], in: chain, now: noon + 1), .pirateWeather)
        XCTAssertNil(ledger.next(after: Set(chain), in: chain, now: noon + 1))
        let backoff = ledger.health[.brightSky].backoffUntil ?? 0
        XCTAssertEqual(ledger.next(.brightSky, after: noon + 1, monotonic: 0), backoff)
        for second in 0..<32 { ledger.spend(.openMeteo, now: noon + Double(second), monotonic: Double(second)) }
        XCTAssertEqual(ledger.choose(chain, now: noon + 40), .pirateWeather, "Open-Meteo's day is spent")
        XCTAssertEqual(ledger.next(.openMeteo, after: noon + 40, monotonic: 40), BudgetUsage.dayStart(noon) + 86400)
        ledger.succeeded(.brightSky, now: noon + 41)
        XCTAssertEqual(ledger.choose(chain, now: noon + 41), .brightSky)
    }

    func testSeveralProvidersShowNoTotalThatSumsTheirUnits() {
        var ledger = ledger(sole: nil)
        ledger.spend(.openMeteo, now: noon, monotonic: 0)
        ledger.spend(.brightSky, now: noon, monotonic: 0)
        let total = ledger.total(of: [.openMeteo, .brightSky], now: noon)
        XCTAssertFalse(total.addsUp, "3.1 Open-Meteo calls and one Bright Sky call are no sum to show")
        XCTAssertEqual(total.usage.requestsToday, 2)
        XCTAssertEqual(total.daily, 244)
        // Each provider's own numbers add up against its own budget.
        XCTAssertEqual(ledger.usage(.openMeteo, now: noon).callsToday, 3.1, accuracy: 1e-9)
        XCTAssertEqual(ledger.usage(.brightSky, now: noon).callsToday, 1)
    }

    func testAnAlertServiceKeepsItsOwnBookApartFromTheForecastsTotal() {
        var ledger = ledger(sole: nil)
        let alerts = ProviderName.alerts("nws")
        ledger.setLimits(alerts, daily: 576, monthly: nil, callsPerRequest: 1, apart: true)
        ledger.spend(.brightSky, now: noon, monotonic: 0)
        for second in 0..<3 { ledger.spend(alerts, now: noon + Double(second), monotonic: Double(second)) }
        let total = ledger.total(of: [.brightSky], now: noon + 5)
        XCTAssertEqual(total.usage.requestsToday, 1, "alert polls never pace the forecasts")
        XCTAssertEqual(total.daily, 144)
        XCTAssertEqual(ledger.usage(alerts, now: noon + 5).requestsToday, 3)
        // Its own budget holds: spent, it opens when the UTC day ends.
        ledger.setLimits(alerts, daily: 3, monthly: nil, callsPerRequest: 1, apart: true)
        XCTAssertEqual(ledger.next(alerts, after: noon + 5, monotonic: 5), 1_773_187_200, "midnight UTC")
        // Back-off after failures, as a provider's.
        ledger.setLimits(alerts, daily: 576, monthly: nil, callsPerRequest: 1, apart: true)
        ledger.failed(alerts, failure: RefreshFailure(error: .offline, message: "down"), now: noon + 10)
        XCTAssertGreaterThanOrEqual(ledger.next(alerts, after: noon + 10, monotonic: 10) ?? 0, noon + 70)
    }

    func testACountSurvivesARestart() {
        var before = ledger()
        before.spend(.openMeteo, now: noon, monotonic: 0)
        XCTAssertNil(before.spend(.openMeteo, beside: 5, reserve: (0, 0), now: noon, monotonic: 0))
        var after = ledger()
        after.restore(.openMeteo, usage: before.usage(.openMeteo, now: noon), now: noon + 60)
        XCTAssertEqual(after.usage(.openMeteo, now: noon + 60), before.usage(.openMeteo, now: noon + 60))
        // The total's file of an older raind counted more today: the larger count wins for the sole provider.
        var older = BudgetUsage()
        older.add(calls: 50, now: noon)
        var upgraded = ledger()
        upgraded.restore(.openMeteo, usage: before.usage(.openMeteo, now: noon), total: older, now: noon + 60)
        XCTAssertEqual(upgraded.usage(.openMeteo, now: noon + 60).callsToday, 50)
        var other = ledger()
        other.restore(.brightSky, usage: nil, total: older, now: noon + 60)
        XCTAssertEqual(other.usage(.brightSky, now: noon + 60).callsToday, 0, "the total is the sole provider's")
        // Yesterday's count renews today.
        var tomorrow = ledger()
        tomorrow.restore(.openMeteo, usage: before.usage(.openMeteo, now: noon), now: noon + 86400)
        XCTAssertEqual(tomorrow.usage(.openMeteo, now: noon + 86400).requestsToday, 0)
    }

    func testABookFileIsReadBackOnlyAsRaindWritesIt() throws {
        var usage = BudgetUsage()
        usage.add(calls: 3.1, now: noon)
        usage.add(calls: 1.9, now: noon)
        let written = Array(usage.persisted.serialized().utf8)
        XCTAssertEqual(try BudgetUsage(persisted: written), usage, "what raind writes it reads back")
        let day = BudgetUsage.dayStart(noon)
        // A file from before monthly counting counts its day; the month starts from zero.
        let old = try BudgetUsage(persisted: Array(#"{"day": \#(day), "calls": 5}"#.utf8))
        XCTAssertEqual(old.requestsToday, 5)
        XCTAssertEqual(old.current(now: noon).requestsThisMonth, 0)
        let damaged: [(String, String)] = [
            ("[1, 2", "budget"),
            ("{}", "day"),
            (#"{"day": "\#(day)", "calls": 1}"#, "day"),
            (#"{"day": \#(day + 0.5), "calls": 1}"#, "day"),
            (#"{"day": 1e300, "calls": 1}"#, "day"),
            (#"{"day": \#(day), "calls": -4}"#, "calls"),
            (#"{"day": \#(day), "calls": 1e12}"#, "calls"),
            (#"{"day": \#(day), "calls": 3, "requests": 1.5}"#, "requests"),
            (#"{"day": \#(day), "calls": 3, "month": 7}"#, "month"),
            (#"{"day": \#(day), "calls": 3, "month": \#(day), "monthRequests": -1}"#, "monthRequests"),
        ]
        for (text, field) in damaged {
            XCTAssertThrowsError(try BudgetUsage(persisted: Array(text.utf8)), text) { error in
                XCTAssertEqual((error as? WireDecodingError)?.field, field, text)
            }
        }
    }
}
