import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The nowcast's short refreshes on the fake clock: only while wanted, only
/// for the selected place, only within what the budgets leave after the
/// regular schedule, and what a whole day of them costs per provider.
final class NowcastSchedulingTests: XCTestCase {
    /// 2026-01-15 00:00 UTC: a whole UTC day follows.
    static let midnight = 1_768_435_200.0

    /// The policies the daemon builds from the defaults (Refresher.policy).
    static let openMeteo = RefreshPolicy(
        interval: 1800, staleAfter: 900, dailyBudget: 1500, callsPerRequest: OpenMeteo.callsPerRequest,
        nowcastInterval: 900)
    static let pirateWeather = RefreshPolicy(
        interval: 1800, staleAfter: 900, dailyBudget: 322, monthlyBudget: 10_000, callsPerRequest: 1,
        nowcastInterval: 600)

    let selected = LocationID("selected")

    /// One UTC day of scheduled refreshes, every one succeeding: requests,
    /// calls, whether the budget ever refused a refresh, and whether the
    /// nowcast was still active at the end.
    func simulateDay(
        _ policy: RefreshPolicy, places: Int, wanted: Bool
    )
        -> (requests: Int, calls: Double, selectedRequests: Int, exhausted: Bool, activeAtEnd: Bool)
    {
        var s = RefreshScheduler(policy: policy)
        let ids = [selected] + (1..<places).map { LocationID("other\($0)") }
        s.track(ids)
        s.setNowcastWanted(wanted, selected: selected, now: Self.midnight)
        var time = Self.midnight
        var selectedRequests = 0
        var exhausted = false
        let end = Self.midnight + 86400
        while time < end {
            if s.exhaustedBudget(now: time) != nil { exhausted = true }
            for id in s.dueRefreshes(ids, now: time) {
                s.started(id, now: time)
                s.succeeded(id, now: time, expiresAt: nil, selected: id == selected)
                if id == selected { selectedRequests += 1 }
            }
            guard let next = s.nextWake(ids, now: time) else { break }
            time = max(next, time + 1)
        }
        let usage = s.usage(now: end - 1)
        return (usage.requestsToday, usage.callsToday, selectedRequests, exhausted, s.nowcastActive(now: end - 1))
    }

    func testWanted_selectedPlaceFollowsTheShortInterval_othersDoNot() {
        var s = RefreshScheduler(policy: Self.openMeteo)
        let other = LocationID("other")
        s.track([selected, other])
        s.setNowcastWanted(true, selected: selected, now: 0)
        s.started(selected, now: 0); s.succeeded(selected, now: 0, expiresAt: nil, selected: true)
        s.started(other, now: 0); s.succeeded(other, now: 0, expiresAt: nil, selected: false)
        XCTAssertTrue((900...990).contains(s.places[selected]!.nextDue!), "\(s.places[selected]!.nextDue!)")
        XCTAssertTrue((5400...5940).contains(s.places[other]!.nextDue!), "the background interval is untouched")
        // Nobody left to use it: back to the regular interval from the last fetch.
        s.setNowcastWanted(false, selected: selected, now: 100)
        XCTAssertEqual(s.places[selected]!.nextDue, 1800)
        s.setNowcastWanted(true, selected: selected, now: 200)
        XCTAssertEqual(s.places[selected]!.nextDue, 900)
    }

    /// A selection made after midnight asks today's budget whether the
    /// nowcast is affordable, not the budget of the day the place was last fetched.
    func testSelectionAfterMidnight_asksTodaysBudget() {
        var policy = Self.pirateWeather
        policy.dailyBudget = 100
        policy.monthlyBudget = nil
        policy.jitterFraction = 0
        var s = RefreshScheduler(policy: policy)
        let other = LocationID("other")
        s.track([selected, other])
        let lateYesterday = Self.midnight - 3600
        s.setNowcastWanted(true, selected: selected, now: lateYesterday)
        for id in [selected, other] {
            s.started(id, now: lateYesterday)
            s.succeeded(id, now: lateYesterday, expiresAt: nil, selected: id == selected)
        }
        var usage = BudgetUsage()
        usage.add(calls: 99, now: lateYesterday)
        s.restoreBudget(usage)
        XCTAssertFalse(s.nowcastAffordable(now: lateYesterday), "yesterday's budget was spent")
        XCTAssertTrue(s.nowcastAffordable(now: Self.midnight + 60), "today's is whole")
        s.selectionChanged(to: other, from: selected, now: Self.midnight + 60)
        XCTAssertEqual(s.places[other]!.nextDue, lateYesterday + 600, "the short interval, as today allows")
        XCTAssertEqual(s.places[selected]!.nextDue, lateYesterday + 1800 * 3, "back to the background interval")
    }

    func testOff_orNotWanted_costsNothingMore() {
        var off = Self.openMeteo
        off.nowcastInterval = nil
        let notWanted = simulateDay(Self.openMeteo, places: 1, wanted: false)
        let disabled = simulateDay(off, places: 1, wanted: true)
        XCTAssertEqual(notWanted.requests, disabled.requests)
        XCTAssertTrue((44...48).contains(notWanted.requests), "every 30 min plus jitter: \(notWanted.requests)")
        XCTAssertEqual(RefreshScheduler(policy: off).nowcastRequestsPerDay, 0)
    }

    /// The figures docs/SCHEDULING.md states, measured on the fake clock.
    func testAWholeDayOfNowcast_perProvider_staysWithinTheBudgets() {
        XCTAssertEqual(RefreshScheduler(policy: Self.openMeteo).nowcastRequestsPerDay, 48)
        XCTAssertEqual(RefreshScheduler(policy: Self.pirateWeather).nowcastRequestsPerDay, 96)
        for (name, policy) in [("open-meteo", Self.openMeteo), ("pirateweather", Self.pirateWeather)] {
            for places in [1, 5] {
                let off = simulateDay(policy, places: places, wanted: false)
                let on = simulateDay(policy, places: places, wanted: true)
                print(
                    "\(name), \(places) place(s): nowcast off \(off.requests) requests = \(BudgetUsage.text(calls: off.calls)) calls; "
                        + "on \(on.requests) requests = \(BudgetUsage.text(calls: on.calls)) calls "
                        + "(daily budget \(BudgetUsage.text(calls: policy.dailyBudget)))")
                XCTAssertFalse(on.exhausted, "\(name), \(places): the budget never refuses a refresh")
                XCTAssertTrue(on.activeAtEnd, "\(name), \(places): the defaults afford a whole day")
                XCTAssertLessThanOrEqual(on.calls, policy.dailyBudget)
                let interval = policy.nowcastInterval!
                // The short interval plus up to 10 % jitter, all day long.
                let expected = Int((86400 / (interval * 1.1)).rounded(.down))...Int(86400 / interval) + 1
                XCTAssertTrue(expected.contains(on.selectedRequests), "\(name), \(places): \(on.selectedRequests)")
                if let monthly = policy.monthlyBudget {
                    XCTAssertLessThanOrEqual(on.calls * 31, monthly, "\(name), \(places): a month of such days fits")
                }
            }
        }
    }

    /// A budget too small for a whole day of nowcast: short refreshes run
    /// while they fit beside the regular schedule's needs, then stop, and
    /// the regular refreshes are never refused.
    func testTightBudget_nowcastYieldsToTheRegularSchedule() {
        var tight = Self.pirateWeather
        tight.dailyBudget = 100
        tight.monthlyBudget = nil
        let day = simulateDay(tight, places: 1, wanted: true)
        XCTAssertFalse(day.exhausted, "a regular refresh was refused")
        XCTAssertFalse(day.activeAtEnd, "the short refreshes stopped")
        XCTAssertLessThanOrEqual(day.calls, 100)
        XCTAssertGreaterThan(day.requests, 80, "but they ran while the budget allowed: \(day.requests)")
        // Within a monthly budget as well: what is left of the month keeps the regular refreshes.
        var monthly = Self.pirateWeather
        monthly.dailyBudget = 10_000
        monthly.monthlyBudget = 1500 + 17 * 48  // the 15th: 17 days left of January
        var s = RefreshScheduler(policy: monthly)
        s.track([selected])
        var usage = BudgetUsage()
        usage.add(calls: 1499, now: Self.midnight - 86400)
        s.restoreBudget(usage)
        XCTAssertTrue(s.nowcastAffordable(now: Self.midnight), "1499 used, 1 more, 17 days of 48 kept: 2316")
        usage.add(calls: 1, now: Self.midnight - 86400)
        s.restoreBudget(usage)
        XCTAssertFalse(s.nowcastAffordable(now: Self.midnight), "one call more would eat the regular refreshes' share")
    }
}
