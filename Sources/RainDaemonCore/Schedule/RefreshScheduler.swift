import RainCore

/// Decides what to fetch and when to wake next, from the places, what is
/// known about each one's data, in-flight requests, failures, reachability,
/// the daily and monthly budgets and the clock. Pure: the daemon feeds it events and the
/// time, and performs what it says. Times are Unix seconds.
public struct RefreshScheduler: Sendable {
    /// What the scheduler knows about one place.
    public struct PlaceState: Equatable, Sendable {
        /// When the data was last fetched or confirmed (304); nil when there is none.
        public var lastSuccess: Double?
        /// When the next scheduled refresh is due (interval, provider expiry, jitter).
        public var nextDue: Double?
        public var inFlight = false
        public var consecutiveFailures = 0
        /// No request before this (backoff, `Retry-After`).
        public var retryNotBefore: Double?
        public var lastFailure: RefreshFailure?

        public init() {}
    }

    /// Why a request may not be made now.
    public enum Refusal: Equatable, Sendable {
        case offline
        /// The provider refused the credentials (401/403); nothing is asked until the configuration changes.
        case unauthorized(RefreshFailure)
        case quotaExhausted(BudgetPeriod, resetsAt: Double)
        /// What is left of the budget is kept for the selected place's refreshes.
        case keptForSelected(BudgetPeriod, resetsAt: Double)
        case backingOff(until: Double, RefreshFailure?)
    }

    public var policy: RefreshPolicy
    public private(set) var places: [LocationID: PlaceState] = [:]
    /// Whether the machine has a network route (from the network monitor). No
    /// request is made without one.
    public private(set) var networkUp = true
    /// Whether the last request reached the provider. A failure to connect
    /// does not stop requests (backoff paces them, and the next success
    /// restores this), it only changes what is reported.
    public private(set) var providerReachable = true
    /// What is reported as reachability: a route, and the provider answering.
    public var online: Bool { networkUp && providerReachable }
    public private(set) var unauthorized: RefreshFailure?
    /// The last 429 with a wait, which holds every place: a provider's rate
    /// limit counts the client's requests, not one place's.
    public private(set) var rateLimited: RefreshFailure?
    /// Requests and counted calls of the current day and month (as last counted; see `usage(now:)`).
    public private(set) var budgetUsage = BudgetUsage()
    /// Whether someone can use the selected place's nowcast now (a
    /// subscriber is connected, notifications are on); see `setNowcastWanted`.
    public private(set) var nowcastWanted = false
    private var random: SplitMix64

    public init(policy: RefreshPolicy, seed: UInt64 = 0x5EED) {
        self.policy = policy
        self.random = SplitMix64(seed: seed)
    }

    // MARK: Facts fed in

    /// Keeps state for exactly these places (added ones start unknown, removed ones are forgotten).
    public mutating func track(_ ids: [LocationID]) {
        let wanted = Set(ids)
        for id in places.keys where !wanted.contains(id) { places[id] = nil }
        for id in ids where places[id] == nil { places[id] = PlaceState() }
    }

    /// Data loaded from the cache at start: fresh as of `fetchedAt`. A
    /// `fetchedAt` after `now` cannot be true (the clock was set back, or the
    /// file was edited): such data counts as stale and is due at once. An
    /// `expiresAt` further out than `HTTPCachePolicy.maximumFreshness` is cut there.
    public mutating func restored(_ id: LocationID, fetchedAt: Double, expiresAt: Double?, selected: Bool, now: Double)
    {
        var state = places[id] ?? PlaceState()
        if fetchedAt > now {
            state.lastSuccess = nil
            state.nextDue = now
        } else {
            let expiry = expiresAt.map { min($0, now + HTTPCachePolicy.maximumFreshness) }
            state.lastSuccess = fetchedAt
            state.nextDue = scheduledDue(after: fetchedAt, expiresAt: expiry, selected: selected, jitter: false)
        }
        places[id] = state
    }

    /// The wall clock jumped by `delta` seconds (set back: negative) while the
    /// time that really passed is known from the monotonic clock. Every time
    /// the scheduler holds moves with it, so intervals, backoffs and waits
    /// keep their length: a clock set back a day does not stop refreshes for a
    /// day, one set forward a week does not make everything overdue at once
    /// beyond what was due anyway.
    public mutating func clockJumped(by delta: Double) {
        guard delta.isFinite, delta != 0 else { return }
        for (id, var state) in places {
            state.lastSuccess = state.lastSuccess.map { $0 + delta }
            state.nextDue = state.nextDue.map { $0 + delta }
            state.retryNotBefore = state.retryNotBefore.map { $0 + delta }
            if let retryAfter = state.lastFailure?.retryAfter { state.lastFailure?.retryAfter = retryAfter + delta }
            places[id] = state
        }
        if let until = rateLimited?.retryAfter { rateLimited?.retryAfter = until + delta }
    }
    /// Calls counted before a restart, so restarting raind does not renew the budget.
    public mutating func restoreBudget(_ usage: BudgetUsage) {
        budgetUsage = usage
    }

    /// The network monitor's view. A network coming back is assumed to reach
    /// the provider until a request says otherwise.
    public mutating func setNetworkUp(_ up: Bool) {
        if up && !networkUp { providerReachable = true }
        networkUp = up
    }

    /// New rules; `credentialsChanged` (the provider, its URL or its key changed)
    /// gives refused credentials another chance.
    public mutating func reconfigure(_ policy: RefreshPolicy, credentialsChanged: Bool = true) {
        self.policy = policy
        if credentialsChanged { unauthorized = nil }
    }

    /// The selection moved: the newly selected place follows the selected
    /// interval from its last fetch, the previous one the background interval.
    public mutating func selectionChanged(to selected: LocationID?, from previous: LocationID?, now: Double) {
        for (id, isSelected) in [(previous, false), (selected, true)] {
            guard let id, var state = places[id], let last = state.lastSuccess else { continue }
            // Whether the nowcast is affordable is a question about today's budget, not the day of `last`.
            state.nextDue = last + interval(selected: isSelected, now: now)
            places[id] = state
        }
    }

    /// Someone can use the nowcast now, or no longer: the selected place
    /// (`selected`) is due one nowcast interval after its last fetch, or
    /// back to the regular interval.
    public mutating func setNowcastWanted(_ wanted: Bool, selected: LocationID?, now: Double) {
        guard wanted != nowcastWanted else { return }
        nowcastWanted = wanted
        guard let selected, var state = places[selected], let last = state.lastSuccess else { return }
        state.nextDue = last + interval(selected: true, now: now)
        places[selected] = state
    }

    /// A request for `id` went out; it counts against the budgets as the provider counts it.
    public mutating func started(_ id: LocationID, now: Double) {
        budgetUsage.add(calls: policy.callsPerRequest, now: now)
        places[id, default: PlaceState()].inFlight = true
    }

    /// A refresh is under way but waits for the provider's per-minute
    /// limit (the refresher's pacing): the place is not due meanwhile, and
    /// nothing is counted until it is `started`.
    public mutating func waiting(_ id: LocationID) {
        places[id, default: PlaceState()].inFlight = true
    }

    /// One more request of a refresh `started` counted went out (a provider
    /// that asks several questions for one forecast).
    public mutating func sent(now: Double) {
        budgetUsage.add(calls: policy.callsPerRequest, now: now)
    }

    /// The request `started` counted never left this machine (libcurl could
    /// not be loaded): the budgets get it back.
    public mutating func notSent(now: Double) {
        budgetUsage.withdraw(calls: policy.callsPerRequest, now: now)
    }

    /// New data (or a 304 confirming the old) arrived.
    public mutating func succeeded(_ id: LocationID, now: Double, expiresAt: Double?, selected: Bool) {
        var state = places[id] ?? PlaceState()
        state.inFlight = false
        state.lastSuccess = now
        state.consecutiveFailures = 0
        state.retryNotBefore = nil
        state.lastFailure = nil
        state.nextDue = scheduledDue(after: now, expiresAt: expiresAt, selected: selected, jitter: true)
        places[id] = state
        providerReachable = true
    }

    /// The request failed. Backs off exponentially with jitter up to the ceiling,
    /// honours `Retry-After`, stops everything on refused credentials, and
    /// marks the machine offline when the network was the cause.
    /// `holdsEveryPlace`: a refusal of the credentials (401/403) and a 429's
    /// wait hold every place, as they do with one provider; with several,
    /// they are one provider's, whose health keeps them.
    public mutating func failed(_ id: LocationID, now: Double, failure: RefreshFailure, holdsEveryPlace: Bool = true) {
        var state = places[id] ?? PlaceState()
        state.inFlight = false
        state.consecutiveFailures += 1
        state.lastFailure = failure
        var delay = RefreshPolicy.backoff(
            failures: state.consecutiveFailures, base: policy.backoffBase, ceiling: policy.backoffCeiling)
        delay *= 1 + policy.jitterFraction * random.nextUnit()
        var notBefore = now + delay
        if let retryAfter = failure.retryAfter { notBefore = max(notBefore, retryAfter) }
        state.retryNotBefore = notBefore
        places[id] = state
        if holdsEveryPlace, failure.httpStatus == 401 || failure.httpStatus == 403 { unauthorized = failure }
        if holdsEveryPlace, failure.httpStatus == 429, let until = failure.retryAfter,
            until > (rateLimited?.retryAfter ?? 0)
        {
            rateLimited = failure
        }
        // The provider answered (with an error) unless the request never reached it.
        providerReachable = failure.error != .offline
    }

    /// The request ended without an answer worth counting (cancelled on removal or shutdown).
    public mutating func abandoned(_ id: LocationID) {
        places[id]?.inFlight = false
    }

    // MARK: Decisions

    /// Whether a place's data is missing or older than `StaleAfterMinutes=`.
    public func isStale(_ id: LocationID, now: Double) -> Bool {
        guard let last = places[id]?.lastSuccess else { return true }
        return now - last >= policy.staleAfter
    }

    /// Whether a request for `id` may go out now, and if not, why.
    /// `ignoringBackoff` (a person asked) skips our own backoff, never the
    /// provider's `Retry-After`.
    /// `selected`: the place is the selected one, which may spend what
    /// the budget keeps back for it (`RefreshPolicy.selectedRequestsLeft`).
    public func refusal(
        for id: LocationID, now: Double, ignoringBackoff: Bool = false, selected: Bool = true
    ) -> Refusal? {
        if !networkUp { return .offline }
        if let unauthorized { return .unauthorized(unauthorized) }
        if let (period, resetsAt) = exhaustedBudget(now: now) { return .quotaExhausted(period, resetsAt: resetsAt) }
        if !selected,
            let (period, resetsAt) = exhaustedBudget(now: now, keepingBack: policy.selectedRequestsLeft(now: now))
        {
            return .keptForSelected(period, resetsAt: resetsAt)
        }
        if let rateLimited, let until = rateLimited.retryAfter, until > now {
            return .backingOff(until: until, rateLimited)
        }
        if let state = places[id], let notBefore = state.retryNotBefore, notBefore > now {
            if !ignoringBackoff { return .backingOff(until: notBefore, state.lastFailure) }
            if let retryAfter = state.lastFailure?.retryAfter, retryAfter > now {
                return .backingOff(until: retryAfter, state.lastFailure)
            }
        }
        return nil
    }

    /// The places a "became active" moment should refresh: stale, not in
    /// flight, allowed now. Fresh places cost nothing. `selected`: the
    /// selected place's id, which the budget's reserve allows.
    public func staleRefreshes(_ ids: [LocationID], now: Double, selected: LocationID? = nil) -> [LocationID] {
        ids.filter { id in
            isStale(id, now: now) && places[id]?.inFlight != true
                && refusal(for: id, now: now, selected: selected == nil || id == selected) == nil
        }
    }

    /// The places whose scheduled time has come and may be fetched now.
    public func dueRefreshes(_ ids: [LocationID], now: Double, selected: LocationID? = nil) -> [LocationID] {
        ids.filter { id in
            guard let state = places[id], !state.inFlight else { return false }
            return (state.nextDue ?? now) <= now
                && refusal(for: id, now: now, selected: selected == nil || id == selected) == nil
        }
    }

    /// When something may next be due: the earliest scheduled refresh or end of
    /// a backoff, the budget's reset when it is exhausted; nil when nothing can
    /// happen without an outside event (offline, unauthorized, no places).
    public func nextWake(_ ids: [LocationID], now: Double) -> Double? {
        if !networkUp || unauthorized != nil { return nil }
        if let (_, resetsAt) = exhaustedBudget(now: now) { return resetsAt }
        var earliest: Double?
        for id in ids {
            guard let state = places[id], !state.inFlight else { continue }
            var due = state.nextDue ?? now
            if let notBefore = state.retryNotBefore { due = max(due, notBefore) }
            if let until = rateLimited?.retryAfter { due = max(due, until) }
            earliest = min(earliest ?? due, due)
        }
        return earliest
    }

    // MARK: Nowcast

    /// Whether the selected place refreshes on the nowcast's short interval
    /// at `now`: the nowcast is on, someone can use it, and the budgets
    /// afford it.
    public func nowcastActive(now: Double) -> Bool {
        nowcastWanted && policy.nowcastInterval != nil && nowcastAffordable(now: now)
    }

    /// Whether one more request fits the budgets with what the regular
    /// schedule needs for the rest of the day (and of the month) kept back:
    /// the nowcast spends only what the regular refreshes do not need, so
    /// it can never starve them.
    public func nowcastAffordable(now: Double) -> Bool {
        let usage = usage(now: now)
        let cost = policy.callsPerRequest
        // Whole requests kept back, so the last regular refresh of the period is covered too.
        func reserve(days: Double) -> Double { (regularRequestsPerDay * days).rounded(.up) * cost }
        let dayLeft = (BudgetUsage.dayStart(now) + 86400 - now) / 86400
        if usage.callsToday + cost + reserve(days: dayLeft) > policy.dailyBudget { return false }
        if let monthly = policy.monthlyBudget {
            let daysLeft = (BudgetUsage.nextMonthStart(now) - now) / 86400
            if usage.callsThisMonth + cost + reserve(days: daysLeft) > monthly { return false }
        }
        return true
    }

    /// The forecast requests the regular schedule still makes in the rest of
    /// the UTC day and of the month containing `now`, in whole requests:
    /// what requests beside the forecasts (air quality) must leave.
    public func regularReserve(now: Double) -> (day: Double, month: Double) {
        let dayLeft = (BudgetUsage.dayStart(now) + 86400 - now) / 86400
        let monthLeft = (BudgetUsage.nextMonthStart(now) - now) / 86400
        return ((regularRequestsPerDay * dayLeft).rounded(.up), (regularRequestsPerDay * monthLeft).rounded(.up))
    }

    /// Whether a request of `calls` beside the forecasts fits the total
    /// budgets with `regularReserve` kept back; nil when it does, else the
    /// period it would overdraw and when that renews.
    public func besideExhausted(calls: Double, now: Double) -> (BudgetPeriod, resetsAt: Double)? {
        let usage = usage(now: now)
        let reserve = regularReserve(now: now)
        if usage.callsToday + calls + reserve.day * policy.callsPerRequest > policy.dailyBudget {
            return (.day, BudgetUsage.dayStart(now) + 86400)
        }
        if let monthly = policy.monthlyBudget,
            usage.callsThisMonth + calls + reserve.month * policy.callsPerRequest > monthly
        {
            return (.month, BudgetUsage.nextMonthStart(now))
        }
        return nil
    }

    /// A request beside the forecasts went out, counted as `calls`.
    public mutating func sentBeside(calls: Double, now: Double) {
        budgetUsage.add(calls: calls, now: now)
    }

    /// A request counted by `sentBeside` never reached the provider.
    public mutating func notSentBeside(calls: Double, now: Double) {
        budgetUsage.withdraw(calls: calls, now: now)
    }

    /// Requests the regular schedule makes in a day for the places tracked:
    /// the selected place every interval, the others every background interval.
    public var regularRequestsPerDay: Double {
        guard !places.isEmpty else { return 0 }
        let others = Double(places.count - 1)
        return 86400 / policy.interval + others * 86400 / backgroundInterval
    }

    /// How often the places other than the selected one refresh: the
    /// policy's background interval (max(3 × interval, 60 min)), stretched
    /// when that would not fit every place into the daily budget (and the
    /// monthly one spread over 31 days) after the selected place's
    /// refreshes, so places do not silently fall behind: with the default
    /// budget, past about 28 places. At most a day.
    public var backgroundInterval: Double {
        let base = policy.backgroundInterval
        let others = Double(max(0, places.count - 1))
        guard others > 0, policy.callsPerRequest > 0 else { return base }
        var requests = policy.dailyBudget / policy.callsPerRequest
        if let monthly = policy.monthlyBudget { requests = min(requests, monthly / 31 / policy.callsPerRequest) }
        let left = requests - 86400 / policy.interval
        guard left > 0 else { return 86400 }
        return min(86400, max(base, (86400 * others / left / 60).rounded(.up) * 60))
    }

    /// Whether `backgroundInterval` is longer than the policy's because of the budget.
    public var backgroundIntervalStretched: Bool { backgroundInterval > policy.backgroundInterval }

    /// Requests a day the nowcast adds when it runs all day: the selected
    /// place every nowcast interval instead of every interval.
    public var nowcastRequestsPerDay: Double {
        guard let short = policy.nowcastInterval, short < policy.interval else { return 0 }
        return 86400 / short - 86400 / policy.interval
    }

    /// The interval a place's next refresh follows.
    private func interval(selected: Bool, now: Double) -> Double {
        if selected, nowcastActive(now: now), let short = policy.nowcastInterval {
            return min(short, policy.interval)
        }
        return selected ? policy.interval : backgroundInterval
    }

    /// The requests and calls counted in the day and month containing `now`.
    public func usage(now: Double) -> BudgetUsage { budgetUsage.current(now: now) }

    /// The budget another request would overdraw, and when it renews; the
    /// month's is reported first, as it lasts longer.
    /// `keepingBack`: requests of the day and of the month that must stay unspent.
    public func exhaustedBudget(
        now: Double, keepingBack: (day: Double, month: Double) = (0, 0)
    ) -> (BudgetPeriod, resetsAt: Double)? {
        let usage = usage(now: now)
        let cost = policy.callsPerRequest
        if let monthly = policy.monthlyBudget, usage.callsThisMonth + cost * (1 + keepingBack.month) > monthly {
            return (.month, BudgetUsage.nextMonthStart(now))
        }
        if usage.callsToday + cost * (1 + keepingBack.day) > policy.dailyBudget {
            return (.day, BudgetUsage.dayStart(now) + 86400)
        }
        return nil
    }

    // MARK: Internals

    /// The interval after `time`, or the provider's expiry when later, plus jitter.
    private mutating func scheduledDue(after time: Double, expiresAt: Double?, selected: Bool, jitter: Bool) -> Double {
        let interval = interval(selected: selected, now: time)
        var due = time + interval
        if let expiresAt, expiresAt > due { due = expiresAt }
        if jitter { due += interval * policy.jitterFraction * random.nextUnit() }
        return due
    }

}

/// A small deterministic generator, so schedules are reproducible in tests.
struct SplitMix64: Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in 0..<1.
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
