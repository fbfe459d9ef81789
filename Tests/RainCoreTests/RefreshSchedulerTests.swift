import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The scheduler with a fake clock: `now` is just a number the test moves.
final class RefreshSchedulerTests: XCTestCase {
    let paris = LocationID("paris"), oslo = LocationID("oslo")
    var policy: RefreshPolicy {
        var policy = RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 10)
        policy.jitterFraction = 0.1
        return policy
    }

    /// `dailyBudget`: 10 calls by default, for the budget's tests; a schedule's tests give one that funds it.
    func scheduler(dailyBudget: Double = 10) -> RefreshScheduler {
        var funded = policy
        funded.dailyBudget = dailyBudget
        var scheduler = RefreshScheduler(policy: funded)
        scheduler.track([paris, oslo])
        return scheduler
    }

    func testNewPlaces_areStaleAndDueAtOnce() {
        let s = scheduler()
        XCTAssertTrue(s.isStale(paris, now: 1000))
        XCTAssertEqual(s.dueRefreshes([paris, oslo], now: 1000), [paris, oslo])
        XCTAssertEqual(s.nextWake([paris, oslo], now: 1000), 1000)
    }

    func testSuccess_schedulesSelectedOnIntervalWithJitter_othersLessOften() {
        var s = scheduler(dailyBudget: 1000)
        s.started(paris, now: 0); s.succeeded(paris, now: 0, expiresAt: nil, selected: true)
        s.started(oslo, now: 0); s.succeeded(oslo, now: 0, expiresAt: nil, selected: false)
        let parisDue = s.places[paris]!.nextDue!
        let osloDue = s.places[oslo]!.nextDue!
        XCTAssertTrue((1800...1980).contains(parisDue), "\(parisDue)")
        XCTAssertTrue((5400...5940).contains(osloDue), "\(osloDue)")
        XCTAssertEqual(s.dueRefreshes([paris, oslo], now: 1700), [])
        XCTAssertEqual(s.nextWake([paris, oslo], now: 10), parisDue)
        XCTAssertEqual(s.dueRefreshes([paris, oslo], now: parisDue), [paris])
    }

    func testProviderExpiryLaterThanInterval_isHonoured() {
        var s = scheduler()
        s.started(paris, now: 0)
        s.succeeded(paris, now: 0, expiresAt: 3600, selected: true)
        XCTAssertGreaterThanOrEqual(s.places[paris]!.nextDue!, 3600)
    }

    func testStaleRefreshes_skipFreshAndInFlightPlaces() {
        var s = scheduler()
        s.started(paris, now: 0); s.succeeded(paris, now: 0, expiresAt: nil, selected: true)
        s.started(oslo, now: 0)
        XCTAssertEqual(s.staleRefreshes([paris, oslo], now: 100), [], "paris fresh, oslo in flight")
        XCTAssertEqual(s.staleRefreshes([paris, oslo], now: 901), [paris])
    }

    func testFailures_backOffExponentiallyUpToCeiling() {
        var s = scheduler()
        s.reconfigure(RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 100))
        var delays: [Double] = []
        var now = 0.0
        for _ in 0..<10 {
            s.started(paris, now: now)
            s.failed(paris, now: now, failure: RefreshFailure(error: .providerError, message: "500", httpStatus: 500))
            let until = s.places[paris]!.retryNotBefore!
            delays.append(until - now)
            now = until
        }
        XCTAssertEqual(delays[0], 60, accuracy: 6.01)
        XCTAssertEqual(delays[1], 120, accuracy: 12.01)
        XCTAssertEqual(delays[2], 240, accuracy: 24.01)
        XCTAssertTrue(delays.allSatisfy { $0 <= 3600 * 1.1 }, "\(delays)")
        XCTAssertEqual(delays.last!, 3600, accuracy: 360.01)
        guard case .backingOff? = s.refusal(for: paris, now: now - 1) else { return XCTFail("expected backoff") }
        XCTAssertNil(s.refusal(for: paris, now: now))
    }

    func testRetryAfter_laterThanBackoff_wins() {
        var s = scheduler()
        s.started(paris, now: 0)
        s.failed(
            paris, now: 0,
            failure: RefreshFailure(error: .providerError, message: "429", httpStatus: 429, retryAfter: 7200))
        XCTAssertEqual(s.places[paris]!.retryNotBefore, 7200)
        XCTAssertEqual(s.nextWake([paris], now: 10), 7200)
    }

    func testUnauthorized_stopsEverythingUntilReconfigured() {
        var s = scheduler()
        s.started(paris, now: 0)
        s.failed(paris, now: 0, failure: RefreshFailure(error: .providerError, message: "bad key", httpStatus: 401))
        guard case .unauthorized? = s.refusal(for: oslo, now: 99_999) else { return XCTFail("expected unauthorized") }
        XCTAssertNil(s.nextWake([paris, oslo], now: 10), "no wake-ups while the key is refused")
        s.reconfigure(policy)
        XCTAssertNil(s.refusal(for: oslo, now: 99_999))
    }

    func testBudget_isEnforcedAndResetsAtUTCMidnight() {
        var s = scheduler()
        let day = 20_000 * 86400.0
        for i in 0..<10 {
            s.started(i % 2 == 0 ? paris : oslo, now: day + Double(i)); s.abandoned(paris); s.abandoned(oslo)
        }
        XCTAssertEqual(s.usage(now: day + 100).callsToday, 10)
        XCTAssertEqual(s.refusal(for: paris, now: day + 100), .quotaExhausted(.day, resetsAt: day + 86400))
        XCTAssertEqual(s.nextWake([paris], now: day + 100), day + 86400)
        XCTAssertEqual(s.usage(now: day + 86400).callsToday, 0)
        XCTAssertNil(s.refusal(for: paris, now: day + 86400))
    }

    func testBudget_countsTheProvidersCalls_andRefusesARequestThatWouldOverdrawIt() {
        // Open-Meteo counts raind's request as 3 calls: 10 calls allow 3 requests, not 4.
        var s = RefreshScheduler(
            policy: RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 10, callsPerRequest: 3))
        s.track([paris])
        let day = 20_000 * 86400.0
        for i in 0..<3 {
            XCTAssertNil(s.refusal(for: paris, now: day + Double(i)))
            s.started(paris, now: day + Double(i))
            s.abandoned(paris)
        }
        XCTAssertEqual(s.usage(now: day + 10).requestsToday, 3)
        XCTAssertEqual(s.usage(now: day + 10).callsToday, 9)
        XCTAssertEqual(s.refusal(for: paris, now: day + 10), .quotaExhausted(.day, resetsAt: day + 86400))
    }

    /// Issue 24: the first 483 new places spent the day's budget and the
    /// selected place then got QuotaExhausted. Other places now leave what
    /// the selected place's refreshes need for the rest of the day.
    func testOtherPlaces_leaveTheSelectedPlacesRefreshesOfTheDay_theSelectedIsNeverStarved() {
        var s = RefreshScheduler(
            policy: RefreshPolicy(interval: 3600, staleAfter: 900, dailyBudget: 100, callsPerRequest: 1))
        s.track([paris, oslo])
        let day = 20_000 * 86400.0
        let noon = day + 12 * 3600
        XCTAssertEqual(s.policy.selectedRequestsLeft(now: noon).day, 12, "one an hour until midnight")
        var spent = 0
        while s.refusal(for: oslo, now: noon, selected: false) == nil {
            s.started(oslo, now: noon)
            s.abandoned(oslo)
            spent += 1
        }
        XCTAssertEqual(spent, 100 - 12, "other places stop where the selected place's share begins")
        XCTAssertEqual(
            s.refusal(for: oslo, now: noon, selected: false), .keptForSelected(.day, resetsAt: day + 86400))
        let message = RefreshScheduler.Refusal.keptForSelected(.day, resetsAt: day + 86400)
            .failure(policy: s.policy, now: noon).message
        XCTAssertTrue(
            message.hasPrefix("what is left of the daily budget of 100 upstream calls is kept for the selected place"))
        for hour in 0..<12 {
            let now = noon + Double(hour) * 3600
            XCTAssertNil(s.refusal(for: paris, now: now, selected: true), "the selected place at \(hour) h")
            s.started(paris, now: now)
            s.abandoned(paris)
        }
        XCTAssertEqual(s.usage(now: noon + 12 * 3600 - 1).callsToday, 100, "the whole budget, and no more")
    }

    /// Issue 24: with the default budget the regular schedule fits about 28
    /// places; beyond, the other places' interval is stretched to fit, and
    /// says so, instead of places silently falling behind.
    func testManyPlaces_stretchTheOtherPlacesIntervalToFitTheDailyBudget() {
        var s = RefreshScheduler(
            policy: RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 1500, callsPerRequest: 3.1))
        s.track((0..<28).map { LocationID("p\($0)") })
        XCTAssertEqual(s.backgroundInterval, 5400, "28 places fit the default budget")
        XCTAssertFalse(s.backgroundIntervalStretched)
        s.track((0..<250).map { LocationID("p\($0)") })
        XCTAssertTrue(s.backgroundIntervalStretched)
        XCTAssertLessThanOrEqual(s.regularRequestsPerDay * 3.1, 1500, "the whole schedule fits the budget")
        XCTAssertGreaterThan(s.regularRequestsPerDay * 3.1, 1400, "and uses it")
        // 483.9 requests a day, 48 for the selected place: 249 others every 13 h 43 min.
        XCTAssertEqual(s.backgroundInterval, 49_380)
    }

    func testNotSent_givesTheRequestBack_butNotAcrossMidnight() {
        var s = RefreshScheduler(
            policy: RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 10, callsPerRequest: 3))
        s.track([paris])
        let day = 20_000 * 86400.0
        s.started(paris, now: day + 1)
        s.started(paris, now: day + 2)
        s.notSent(now: day + 2)
        XCTAssertEqual(s.usage(now: day + 3).requestsToday, 1)
        XCTAssertEqual(s.usage(now: day + 3).callsToday, 3)
        XCTAssertEqual(s.usage(now: day + 3).requestsThisMonth, 1)
        // A request counted yesterday is not taken from today's count.
        s.notSent(now: day + 86400 + 1)
        XCTAssertEqual(s.usage(now: day + 86400 + 2).requestsToday, 0)
        XCTAssertEqual(s.usage(now: day + 86400 + 2).callsToday, 0)
    }

    func testMonthlyBudget_isEnforcedAndResetsOnTheFirst() {
        var policy = RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 5, monthlyBudget: 12)
        policy.jitterFraction = 0
        var s = RefreshScheduler(policy: policy)
        s.track([paris])
        let first = CivilDateTime(year: 2026, month: 2, day: 1).unixSeconds(utcOffsetSeconds: 0)
        // 5 a day for two days, then 2 on the third: the month's 12 are spent.
        for (dayIndex, count) in [(0, 5), (1, 5), (2, 2)] {
            for i in 0..<count {
                let now = first + Double(dayIndex) * 86400 + Double(i)
                XCTAssertNil(s.refusal(for: paris, now: now), "day \(dayIndex) call \(i)")
                s.started(paris, now: now)
                s.abandoned(paris)
            }
        }
        let later = first + 2 * 86400 + 100
        XCTAssertEqual(s.usage(now: later).callsThisMonth, 12)
        XCTAssertEqual(s.usage(now: later).callsToday, 2)
        let march = CivilDateTime(year: 2026, month: 3, day: 1).unixSeconds(utcOffsetSeconds: 0)
        XCTAssertEqual(s.refusal(for: paris, now: later), .quotaExhausted(.month, resetsAt: march))
        XCTAssertEqual(s.nextWake([paris], now: later), march)
        XCTAssertNil(s.refusal(for: paris, now: march))
        XCTAssertEqual(s.usage(now: march).callsThisMonth, 0)
    }

    /// docs/SCHEDULING.md: Pirate Weather's 10,000 calls a month, spread as
    /// 322 a day, last every month, the longest included.
    func testDefaultBudgets_perProvider() {
        var configuration = Configuration()
        XCTAssertEqual(configuration.effectiveDailyBudget, 1_500)
        XCTAssertNil(configuration.effectiveMonthlyBudget)
        configuration.provider = .pirateWeather
        XCTAssertEqual(configuration.effectiveMonthlyBudget, 10_000)
        XCTAssertEqual(configuration.effectiveDailyBudget, 322)
        XCTAssertLessThanOrEqual(configuration.effectiveDailyBudget * 31, 10_000)
        configuration.monthlyBudget = 20_000
        XCTAssertEqual(configuration.effectiveDailyBudget, 645)
        configuration.dailyBudget = 50
        XCTAssertEqual(configuration.effectiveDailyBudget, 50)
    }

    /// Open-Meteo's limits count the client's requests: a 429 for one place holds them all.
    func testRateLimit_holdsEveryPlace_untilItsWaitIsOver() {
        var s = scheduler()
        let failure = RefreshFailure(error: .providerError, message: "limit", httpStatus: 429, retryAfter: 1060)
        s.started(paris, now: 1000)
        s.failed(paris, now: 1000, failure: failure)
        XCTAssertEqual(s.refusal(for: oslo, now: 1001), .backingOff(until: 1060, failure))
        XCTAssertEqual(s.refusal(for: oslo, now: 1001, ignoringBackoff: true), .backingOff(until: 1060, failure))
        XCTAssertEqual(s.nextWake([oslo], now: 1001), 1060)
        XCTAssertNil(s.refusal(for: oslo, now: 1060))
    }

    func testOffline_refusesAndSleeps_thenStalePlacesRefreshOnReturn() {
        var s = scheduler()
        s.setNetworkUp(false)
        XCTAssertEqual(s.refusal(for: paris, now: 0), .offline)
        XCTAssertNil(s.nextWake([paris], now: 0))
        XCTAssertEqual(s.staleRefreshes([paris, oslo], now: 0), [])
        s.setNetworkUp(true)
        XCTAssertEqual(s.staleRefreshes([paris, oslo], now: 0), [paris, oslo])
    }

    func testUnreachableProvider_isReportedButRetriedWithBackoff_andSuccessRestoresIt() {
        var s = scheduler()
        s.started(paris, now: 0)
        s.failed(paris, now: 0, failure: RefreshFailure(error: .offline, message: "connection refused"))
        XCTAssertFalse(s.online)
        guard case .backingOff? = s.refusal(for: paris, now: 1) else { return XCTFail("expected backoff") }
        XCTAssertNil(s.refusal(for: paris, now: 1, ignoringBackoff: true), "a person's refresh may try again")
        s.started(paris, now: 100)
        s.succeeded(paris, now: 100, expiresAt: nil, selected: true)
        XCTAssertTrue(s.online)
    }

    func testPersonsRefresh_stillHonoursRetryAfter() {
        var s = scheduler()
        s.started(paris, now: 0)
        s.failed(
            paris, now: 0,
            failure: RefreshFailure(error: .providerError, message: "429", httpStatus: 429, retryAfter: 500))
        XCTAssertEqual(
            s.refusal(for: paris, now: 10, ignoringBackoff: true), .backingOff(until: 500, s.places[paris]!.lastFailure)
        )
    }

    func testTrack_forgetsRemovedPlaces() {
        var s = scheduler()
        s.track([paris])
        XCTAssertNil(s.places[oslo])
    }
}

extension RefreshSchedulerTests {
    func testSelectionChange_movesTheNewSelectedPlaceToTheSelectedInterval() {
        var s = scheduler(dailyBudget: 1000)
        s.started(paris, now: 0); s.succeeded(paris, now: 0, expiresAt: nil, selected: true)
        s.started(oslo, now: 0); s.succeeded(oslo, now: 0, expiresAt: nil, selected: false)
        XCTAssertGreaterThanOrEqual(s.places[oslo]!.nextDue!, 5400)
        s.selectionChanged(to: oslo, from: paris, now: 10)
        XCTAssertEqual(s.places[oslo]!.nextDue, 1800)
        XCTAssertEqual(s.places[paris]!.nextDue, 5400)
    }
}

/// The scheduler when the wall clock is set (issue 9): `clockJumped` keeps
/// every wait its real length.
final class RefreshSchedulerClockTests: XCTestCase {
    let paris = LocationID("paris"), oslo = LocationID("oslo")

    func scheduler(now: Double) -> RefreshScheduler {
        var policy = RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 100)
        policy.jitterFraction = 0
        var s = RefreshScheduler(policy: policy)
        s.track([paris, oslo])
        for id in [paris, oslo] {
            s.started(id, now: now)
            s.succeeded(id, now: now, expiresAt: nil, selected: id == paris)
        }
        return s
    }

    func testClockSetBackADay_refreshesStillComeAtTheirInterval() {
        let start = 1_790_000_000.0
        var s = scheduler(now: start)
        // 10 minutes pass, then the clock is set back a day.
        let now = start + 600 - 86400
        s.clockJumped(by: -86400)
        XCTAssertFalse(s.isStale(paris, now: now), "the data is 10 minutes old, not -1 day")
        XCTAssertTrue(s.isStale(paris, now: now + 301))
        XCTAssertEqual(
            s.nextWake([paris, oslo], now: now), start + 1800 - 86400, "due 20 minutes later, not a day later")
        XCTAssertEqual(s.dueRefreshes([paris, oslo], now: start + 1800 - 86400), [paris])
    }

    func testClockSetForwardAWeek_startsNoStorm() {
        let start = 1_790_000_000.0
        var s = scheduler(now: start)
        let now = start + 600 + 7 * 86400
        s.clockJumped(by: 7 * 86400)
        XCTAssertEqual(s.dueRefreshes([paris, oslo], now: now), [], "nothing was due, nothing is")
        XCTAssertFalse(s.isStale(paris, now: now))
        XCTAssertEqual(s.nextWake([paris, oslo], now: now), start + 1800 + 7 * 86400)
    }

    func testBackoffAndRetryAfter_keepTheirLengthAcrossAJump() {
        let start = 1_790_000_000.0
        var s = scheduler(now: start)
        s.started(paris, now: start)
        s.failed(
            paris, now: start,
            failure: RefreshFailure(
                error: .providerError, message: "429", httpStatus: 429, retryAfter: start + 600))
        s.clockJumped(by: -86400)
        let notBefore = s.places[paris]!.retryNotBefore!
        XCTAssertEqual(notBefore, start + 600 - 86400)
        XCTAssertNotNil(s.refusal(for: paris, now: start + 599 - 86400, ignoringBackoff: true))
        XCTAssertNil(s.refusal(for: paris, now: start + 601 - 86400, ignoringBackoff: true))
    }

    func testRestoredDataFromTheFuture_isStaleAndDueNow() {
        var policy = RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 100)
        policy.jitterFraction = 0
        var s = RefreshScheduler(policy: policy)
        s.track([paris])
        s.restored(paris, fetchedAt: 2_000_000_000, expiresAt: nil, selected: true, now: 1_790_000_000)
        XCTAssertTrue(s.isStale(paris, now: 1_790_000_000))
        XCTAssertEqual(s.dueRefreshes([paris], now: 1_790_000_000), [paris])
        s.restored(paris, fetchedAt: 1_790_000_000 - 60, expiresAt: 1e15, selected: true, now: 1_790_000_000)
        XCTAssertLessThanOrEqual(s.nextWake([paris], now: 1_790_000_000)!, 1_790_000_000 + 6 * 3600)
    }
}
