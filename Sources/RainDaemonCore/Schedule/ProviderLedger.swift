import RainCore

/// The one book of every upstream service raind asks (docs/SCHEDULING.md,
/// "One ledger"): per service its health and back-off
/// (`ProviderHealthBook`), its daily and monthly budgets in its own units
/// (`ProviderBudgets`) and its per-minute pacing. Forecast refreshes, their
/// failovers and the requests beside them (air quality) all spend and refund
/// here; the scheduler's and the status's totals are read from it, never
/// counted beside it.
///
/// Pure: the daemon passes the wall-clock time (`now`, for the UTC day and
/// month) and the monotonic time (`monotonic`, for the last minute's pacing),
/// and writes `usage(_:now:)` to its files after each `spend` and `refund`.
public struct ProviderLedger: Sendable {
    /// Each service's budget and what it has counted.
    public private(set) var budgets = ProviderBudgets()
    /// Each service's failures and back-off.
    public private(set) var health: ProviderHealthBook
    /// The one service that serves every place (`Name=`), whose book is then
    /// the total; nil when several may (`Name=auto`), whose books count in
    /// units that do not add up.
    public var sole: ProviderName?
    /// The most calls each service allows in a minute, for those that set a limit.
    private var perMinute: [ProviderName: Double] = [:]
    /// The calls sent to each paced service in the last minute, on the monotonic clock.
    private var lastMinute: [ProviderName: [Sent]] = [:]
    /// The services polled on their own schedule beside the forecasts (the
    /// official alert services, `ProviderName.alerts(_:)`): their books never
    /// count in the forecasts' total, which paces the forecast schedule.
    public private(set) var apart: Set<ProviderName> = []

    private struct Sent: Sendable {
        var at: Double
        var calls: Double
    }

    /// `seed` seeds the back-offs' jitter (tests pass their own).
    public init(seed: UInt64) {
        health = ProviderHealthBook(seed: seed)
    }

    // MARK: Limits and persistence

    /// New limits for `name`; what it has counted is kept. `perMinute`: the
    /// most calls it allows in a minute (nil: no limit). `apart`: a service
    /// polled beside the forecasts, outside their total.
    public mutating func setLimits(
        _ name: ProviderName, daily: Double, monthly: Double?, callsPerRequest: Double, perMinute: Double? = nil,
        apart: Bool = false
    ) {
        budgets.setLimits(name, daily: daily, monthly: monthly, callsPerRequest: callsPerRequest)
        self.perMinute[name] = perMinute
        if apart { self.apart.insert(name) } else { self.apart.remove(name) }
    }

    /// What `name` had counted before a restart: its own file's count; for
    /// the sole service, also the total's file, which raind before the
    /// ledger counted on its own (air requests included) — the larger count
    /// of today wins, so a restart never renews a budget.
    public mutating func restore(_ name: ProviderName, usage: BudgetUsage?, total: BudgetUsage? = nil, now: Double) {
        var best = usage?.current(now: now)
        if name == sole, let total = total?.current(now: now) {
            if best == nil || total.callsToday > best?.callsToday ?? 0
                || (total.callsToday == best?.callsToday && total.callsThisMonth > best?.callsThisMonth ?? 0)
            {
                best = total
            }
        }
        guard let best else { return }
        budgets.restore(name, usage: best)
    }

    // MARK: Choosing

    /// The service of `chain` to ask first at `now`: the first that `usable`
    /// allows (configured, within what the budget keeps back) and is
    /// within its budget and not backing off; when all such are backing off,
    /// the one whose back-off ends first; nil when none can be asked.
    public func choose(
        _ chain: [ProviderName], now: Double, usable: (ProviderName) -> Bool = { _ in true }
    ) -> ProviderName? {
        health.candidates(chain, now: now, usable: { usable($0) && budgets.exhausted($0, now: now) == nil }).first
    }

    /// The service of `chain` to ask after those in `asked` failed in one
    /// refresh: the next not asked yet that `usable` allows, within its budget
    /// and not backing off; nil when there is none.
    public func next(
        after asked: Set<ProviderName>, in chain: [ProviderName], now: Double,
        usable: (ProviderName) -> Bool = { _ in true }
    ) -> ProviderName? {
        chain.first { name in
            !asked.contains(name) && usable(name) && budgets.exhausted(name, now: now) == nil
                && health.isAvailable(name, now: now)
        }
    }

    /// When (wall clock) `name` may next be asked, after `now`: `now` when it
    /// may be at once, else the latest of the end of its back-off, its last
    /// minute's opening and its budget's renewal; nil when it refused raind
    /// (asked again only after a reload).
    public func next(_ name: ProviderName, after now: Double, monotonic: Double) -> Double? {
        let record = health[name]
        if record.refused { return nil }
        var opens = now
        if let until = record.backoffUntil { opens = max(opens, until) }
        opens = max(opens, now + max(0, paceOpens(name, monotonic: monotonic) - monotonic))
        if let (_, resetsAt) = budgets.exhausted(name, now: now) { opens = max(opens, resetsAt) }
        return opens
    }

    // MARK: Spending

    /// One request to `name` went out, counted as `calls` (nil: one request's cost).
    public mutating func spend(_ name: ProviderName, calls: Double? = nil, now: Double, monotonic: Double) {
        let cost = calls ?? budgets[name]?.callsPerRequest ?? 1
        if let calls {
            budgets.sent(name, calls: calls, now: now)
        } else {
            budgets.sent(name, now: now)
        }
        if perMinute[name] != nil { lastMinute[name, default: []].append(Sent(at: monotonic, calls: cost)) }
    }

    /// Spends `calls` of `name`'s budget on a request beside the forecasts
    /// (air quality) when they fit with `reserve` requests of the day and
    /// month kept back for the forecasts; nil when counted, else the budget
    /// that cannot afford it and when it renews (nothing counted).
    public mutating func spend(
        _ name: ProviderName, beside calls: Double, reserve: (day: Double, month: Double), now: Double,
        monotonic: Double
    ) -> (BudgetPeriod, resetsAt: Double)? {
        if let refused = budgets.exhausted(name, calls: calls, reserve: reserve, now: now) { return refused }
        spend(name, calls: calls, now: now, monotonic: monotonic)
        return nil
    }

    /// A request counted by `spend` never reached `name` (`calls` as it was
    /// counted; nil: one request's cost): its budget and its last minute get it back.
    public mutating func refund(_ name: ProviderName, calls: Double? = nil, now: Double) {
        if let calls {
            budgets.notSent(name, calls: calls, now: now)
        } else {
            budgets.notSent(name, now: now)
        }
        if lastMinute[name]?.isEmpty == false { lastMinute[name]?.removeLast() }
    }

    /// The period whose budget one more request to `name` would exceed with
    /// `keepingBack` requests kept, and when it renews; nil when it fits.
    public func exhausted(
        _ name: ProviderName, now: Double, keepingBack: (day: Double, month: Double) = (0, 0)
    ) -> (BudgetPeriod, resetsAt: Double)? {
        budgets.exhausted(name, now: now, keepingBack: keepingBack)
    }

    // MARK: Pacing

    /// The calls sent to `name` in the 60 seconds before `monotonic`.
    private func recentCalls(_ name: ProviderName, monotonic: Double) -> [Sent] {
        (lastMinute[name] ?? []).filter { $0.at > monotonic - 60 }
    }

    /// Whether one more request to `name` keeps its last minute within its
    /// limit. With nothing sent in the last minute it always does, so a
    /// limit below one request's cost cannot hold a place forever.
    public mutating func paceAllows(_ name: ProviderName, monotonic: Double) -> Bool {
        guard let limit = perMinute[name] else { return true }
        let window = recentCalls(name, monotonic: monotonic)
        lastMinute[name] = window
        let recent = window.reduce(0) { $0 + $1.calls }
        let cost = budgets[name]?.callsPerRequest ?? 1
        return recent == 0 || recent + cost <= limit
    }

    /// When (monotonic) one more request to `name` fits its last minute:
    /// when enough of the oldest calls in the window have left it.
    public func paceOpens(_ name: ProviderName, monotonic: Double) -> Double {
        guard let limit = perMinute[name] else { return monotonic }
        let window = recentCalls(name, monotonic: monotonic)
        let cost = budgets[name]?.callsPerRequest ?? 1
        var recent = window.reduce(0) { $0 + $1.calls }
        for call in window {
            if recent == 0 || recent + cost <= limit { break }
            recent -= call.calls
            if recent == 0 || recent + cost <= limit { return call.at + 60 }
        }
        return monotonic
    }

    // MARK: Health

    /// `name` answered.
    public mutating func succeeded(_ name: ProviderName, now: Double) { health.succeeded(name, now: now) }

    /// `name` failed: it backs off (`ProviderHealthBook.failed`).
    public mutating func failed(_ name: ProviderName, failure: RefreshFailure, now: Double) {
        health.failed(name, failure: failure, now: now)
    }

    /// The network came back: a back-off failed transfers started ends (`ProviderHealthBook.networkBack`).
    @discardableResult
    public mutating func networkBack(_ name: ProviderName, now: Double) -> Bool {
        health.networkBack(name, now: now)
    }

    /// A reload gives every service that refused raind another chance.
    public mutating func configurationReloaded() { health.configurationReloaded() }

    /// The wall clock jumped by `delta`: back-offs keep their length.
    public mutating func clockJumped(by delta: Double) { health.clockJumped(by: delta) }

    // MARK: Reading

    /// `name`'s counts as they stand at `now`.
    public func usage(_ name: ProviderName, now: Double) -> BudgetUsage { budgets.usage(name, now: now) }

    /// The forecasts' total at `now`: the sole service's counts and budgets
    /// when one serves every place; else every forecast service's counts and
    /// the budgets of `names` (the services the places use) summed, for the
    /// scheduler's pace, which spreads all of them, with `addsUp` false: calls
    /// in different services' units, no number to show people. The services
    /// kept `apart` (alerts) never count in it.
    public func total(
        of names: some Sequence<ProviderName>, now: Double
    ) -> (usage: BudgetUsage, daily: Double, monthly: Double?, addsUp: Bool) {
        if let sole, let budget = budgets[sole] {
            return (usage(sole, now: now), budget.daily, budget.monthly, true)
        }
        var usage = BudgetUsage().current(now: now)
        var daily: Double = 0
        for name in budgets.budgets.keys where !apart.contains(name) {
            usage = usage.adding(self.usage(name, now: now))
        }
        for name in Set(names) { daily += budgets[name]?.daily ?? 0 }
        return (usage, daily, nil, false)
    }
}
