import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// When air quality is asked for, on the tests' clock, and what it may
/// spend of the provider's budget.
final class AirScheduleTests: XCTestCase {
    private let home = LocationID("home")
    private let away = LocationID("away")
    private let midnight = 1_768_435_200.0  // 2026-01-15T00:00Z

    /// A day of the schedule with every request answering at once: the
    /// requests made for each place.
    private func day(places: [LocationID], selected: LocationID?) -> [LocationID: Int] {
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0.1, seed: 42)
        schedule.track(places, selected: selected, now: midnight)
        var counts: [LocationID: Int] = [:]
        var time = midnight
        while let next = schedule.nextWake(), next < midnight + 86400 {
            time = max(time, next)
            for id in schedule.due(now: time) {
                schedule.started(id)
                counts[id, default: 0] += 1
                schedule.succeeded(id, now: time)
            }
        }
        return counts
    }

    func testADay_asksTheSelectedPlaceAtMostHourly_andTheOthersEveryThreeHours() {
        let counts = day(places: [home, away], selected: home)
        // Every 60 to 66 minutes from midnight: 22 to 24 requests.
        XCTAssertTrue((22...24).contains(counts[home] ?? 0), "\(counts)")
        // Every 180 to 198 minutes: 8 requests.
        XCTAssertTrue((8...8).contains(counts[away] ?? 0), "\(counts)")
    }

    func testTriggers_neverAskSooner_thanTheInterval() {
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0.1, seed: 1)
        schedule.track([home], selected: home, now: midnight)
        XCTAssertEqual(schedule.due(now: midnight), [home])
        schedule.started(home)
        XCTAssertEqual(schedule.due(now: midnight), [], "nothing twice while under way")
        schedule.succeeded(home, now: midnight)
        XCTAssertEqual(schedule.due(now: midnight + 3599), [])
        XCTAssertGreaterThanOrEqual(schedule.nextWake() ?? 0, midnight + 3600)
        XCTAssertLessThanOrEqual(schedule.nextWake() ?? .infinity, midnight + 3960)
    }

    func testFailures_backOffFrom60SecondsToTheInterval_andRetryAfterIsHonoured() {
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0, seed: 1)
        schedule.track([home], selected: home, now: midnight)
        var waits: [Double] = []
        var time = midnight
        for _ in 0..<8 {
            schedule.started(home)
            schedule.failed(home, now: time)
            let next = schedule.nextWake() ?? 0
            waits.append(next - time)
            time = next
        }
        XCTAssertEqual(waits, [60, 120, 240, 480, 960, 1920, 3600, 3600])
        schedule.started(home)
        schedule.failed(home, now: time, retryAfter: time + 7200)
        XCTAssertEqual(schedule.nextWake(), time + 7200)
        schedule.started(home)
        schedule.succeeded(home, now: time)
        XCTAssertEqual(schedule.places[home]?.failures, 0)
    }

    func testARestart_waitsForTheCachedDatasInterval_andDataFromTheFutureIsAskedAtOnce() {
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0.1, seed: 1)
        schedule.track([home, away], selected: home, now: midnight)
        schedule.restored(home, fetchedAt: midnight - 600, now: midnight)
        schedule.restored(away, fetchedAt: midnight + 5000, now: midnight)
        XCTAssertEqual(schedule.due(now: midnight), [away])
        XCTAssertEqual(schedule.places[home]?.due, midnight + 3000)
    }

    func testSelectingAnotherPlace_movesItToTheHourlyInterval() {
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0, seed: 1)
        schedule.track([home, away], selected: home, now: midnight)
        for id in [home, away] {
            schedule.started(id)
            schedule.succeeded(id, now: midnight)
        }
        XCTAssertEqual(schedule.places[away]?.due, midnight + 3 * 3600)
        schedule.selectionChanged(to: away, now: midnight + 600)
        XCTAssertEqual(schedule.places[away]?.due, midnight + 3600)
        XCTAssertEqual(schedule.places[home]?.due, midnight + 3 * 3600)
    }

    func testABudgetThatCannotAffordIt_defersItUntilTheBudgetRenews() {
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0, seed: 1)
        schedule.track([home], selected: home, now: midnight)
        schedule.deferred(home, until: midnight + 86400)
        XCTAssertEqual(schedule.due(now: midnight + 86399), [])
        XCTAssertEqual(schedule.due(now: midnight + 86400), [home])
    }

    // MARK: Budget

    func testAirRequests_leaveTheForecastsTheirRestOfTheDay() {
        var budgets = ProviderBudgets()
        budgets.setLimits(.openMeteo, daily: 200, monthly: nil, callsPerRequest: 3.1)
        var scheduler = RefreshScheduler(
            policy: RefreshPolicy(
                interval: 1800, staleAfter: 900, dailyBudget: 200, monthlyBudget: nil, callsPerRequest: 3.1,
                nowcastInterval: nil),
            seed: 1)
        scheduler.track([home])
        let noon = midnight + 43200
        // Half a day left of 48 forecast requests a day: 24 kept back, 74.4 calls.
        let reserve = scheduler.regularReserve(now: noon)
        XCTAssertEqual(reserve.day, 24)
        XCTAssertNil(budgets.exhausted(.openMeteo, calls: 1.9, reserve: reserve, now: noon))
        for _ in 0..<70 { budgets.sent(.openMeteo, calls: 1.9, now: noon) }
        // 133 calls spent + 1.9 + 74.4 kept back > 200: the air waits for tomorrow.
        XCTAssertEqual(
            budgets.exhausted(.openMeteo, calls: 1.9, reserve: reserve, now: noon)?.resetsAt, midnight + 86400)
        XCTAssertEqual(budgets.usage(.openMeteo, now: noon).callsToday, 133, accuracy: 1e-9)
        XCTAssertEqual(budgets.usage(.openMeteo, now: noon).requestsToday, 70)
        budgets.notSent(.openMeteo, calls: 1.9, now: noon)
        XCTAssertEqual(budgets.usage(.openMeteo, now: noon).requestsToday, 69)
    }

    func testAnUnreachableService_isRetriedForEveryPlaceAtOnce_atEachStepOfItsBackOff() {
        let places = (1...10).map { LocationID("place-\($0)") }
        var schedule = AirSchedule(updateInterval: 3600, jitterFraction: 0.1, seed: 7)
        schedule.track(places, selected: places[0], now: midnight)
        var wakes: [Double] = []
        var time = midnight
        // Ten minutes of a service that no request reaches.
        while let next = schedule.nextWake(), next < midnight + 600 {
            time = max(time, next)
            wakes.append(time - midnight)
            let due = schedule.due(now: time)
            for id in due { schedule.started(id) }
            for id in due { schedule.unreachable(id, now: time) }
        }
        XCTAssertEqual(wakes.count, 4, "one wake at once, then one per step: 60, 120, 240 s and their jitter: \(wakes)")
        for (step, backoff) in zip(wakes.indices.dropFirst(), [60.0, 120.0, 240.0]) {
            let waited = wakes[step] - wakes[step - 1]
            XCTAssertTrue((backoff...backoff * 1.1).contains(waited), "step \(step) waited \(waited) s")
        }
        // A failure of one place alone (its answer was broken) still backs off alone.
        schedule.started(places[1])
        schedule.failed(places[1], now: time)
        XCTAssertEqual(Set(schedule.due(now: time + 61)), [], "the others wait for their own time")
    }
}
