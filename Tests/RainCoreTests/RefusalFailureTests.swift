import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// What a person reads when the scheduler refuses a refresh, without a daemon.
final class RefusalFailureTests: XCTestCase {
    let policy = RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 322, monthlyBudget: 10_000)
    let now = 1_800_000_000.0

    func testOffline_saysCachedDataIsStillServed() {
        let failure = RefreshScheduler.Refusal.offline.failure(policy: policy, now: now)
        XCTAssertEqual(failure.error, .offline)
        XCTAssertTrue(failure.message.contains("network is down"), failure.message)
        XCTAssertNil(failure.retryAfter)
    }

    func testRefusedCredentials_areTheProvidersOwnWords() {
        let refused = RefreshFailure(error: .providerError, message: "the API key is wrong", httpStatus: 401)
        XCTAssertEqual(RefreshScheduler.Refusal.unauthorized(refused).failure(policy: policy, now: now), refused)
    }

    func testAUsedUpBudget_namesItsSize_whenItResets_andTheKeyToRaise() {
        let day = RefreshScheduler.Refusal.quotaExhausted(.day, resetsAt: now + 3600).failure(policy: policy, now: now)
        XCTAssertEqual(day.error, .quotaExhausted)
        XCTAssertEqual(day.retryAfter, now + 3600)
        XCTAssertTrue(day.message.contains("daily budget of 322 upstream calls"), day.message)
        XCTAssertTrue(day.message.contains("[Refresh] DailyBudget="), day.message)
        let month = RefreshScheduler.Refusal.quotaExhausted(.month, resetsAt: now + 86_400)
            .failure(policy: policy, now: now)
        XCTAssertTrue(month.message.contains("monthly budget of 10,000 upstream calls"), month.message)
        XCTAssertTrue(month.message.contains("resets on the 1st"), month.message)
        XCTAssertTrue(month.message.contains("[Refresh] MonthlyBudget="), month.message)
    }

    func testBackingOff_keepsTheLastFailuresKind_andCountsTheWaitFromNow() {
        let last = RefreshFailure(error: .offline, message: "could not connect", httpStatus: nil)
        let failure = RefreshScheduler.Refusal.backingOff(until: now + 90.2, last).failure(policy: policy, now: now)
        XCTAssertEqual(failure.error, .offline)
        XCTAssertEqual(failure.retryAfter, now + 90.2)
        XCTAssertEqual(
            failure.message, "the provider failed recently (could not connect); raind retries in 91 s")
        let unknown = RefreshScheduler.Refusal.backingOff(until: now - 5, nil).failure(policy: policy, now: now)
        XCTAssertEqual(unknown.error, .providerError)
        XCTAssertTrue(unknown.message.hasSuffix("(unknown error); raind retries in 0 s"), unknown.message)
    }
}
