/// Decides what to fetch and when to wake next, from the places, what is
/// known about each one's data, in-flight requests, failures, reachability,
/// the daily budget and the clock. Pure: the daemon feeds it events and the
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
        case quotaExhausted(resetsAt: Double)
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
    public private(set) var callsToday = 0
    /// Start (Unix seconds, UTC midnight) of the day `callsToday` counts.
    public private(set) var budgetDay: Double = 0
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

    /// Data loaded from the cache at start: fresh as of `fetchedAt`.
    public mutating func restored(_ id: LocationID, fetchedAt: Double, expiresAt: Double?, selected: Bool) {
        var state = places[id] ?? PlaceState()
        state.lastSuccess = fetchedAt
        state.nextDue = scheduledDue(after: fetchedAt, expiresAt: expiresAt, selected: selected, jitter: false)
        places[id] = state
    }

    /// Calls counted before a restart, so restarting raind does not renew the budget.
    public mutating func restoreBudget(day: Double, calls: Int) {
        budgetDay = day
        callsToday = max(0, calls)
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
    public mutating func selectionChanged(to selected: LocationID?, from previous: LocationID?) {
        for (id, isSelected) in [(previous, false), (selected, true)] {
            guard let id, var state = places[id], let last = state.lastSuccess else { continue }
            state.nextDue = last + policy.interval(selected: isSelected)
            places[id] = state
        }
    }

    /// A request for `id` went out; it counts against the budget.
    public mutating func started(_ id: LocationID, now: Double) {
        rollBudgetDay(now: now)
        callsToday += 1
        places[id, default: PlaceState()].inFlight = true
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
    public mutating func failed(_ id: LocationID, now: Double, failure: RefreshFailure) {
        var state = places[id] ?? PlaceState()
        state.inFlight = false
        state.consecutiveFailures += 1
        state.lastFailure = failure
        let exponent = Double(min(state.consecutiveFailures - 1, 20))
        var delay = min(policy.backoffCeiling, policy.backoffBase * pow2(exponent))
        delay *= 1 + policy.jitterFraction * random.nextUnit()
        var notBefore = now + delay
        if let retryAfter = failure.retryAfter { notBefore = max(notBefore, retryAfter) }
        state.retryNotBefore = notBefore
        places[id] = state
        if failure.httpStatus == 401 || failure.httpStatus == 403 { unauthorized = failure }
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
    public func refusal(for id: LocationID, now: Double, ignoringBackoff: Bool = false) -> Refusal? {
        if !networkUp { return .offline }
        if let unauthorized { return .unauthorized(unauthorized) }
        if callsUsed(now: now) >= policy.dailyBudget { return .quotaExhausted(resetsAt: dayStart(now) + 86400) }
        if let state = places[id], let notBefore = state.retryNotBefore, notBefore > now {
            if !ignoringBackoff { return .backingOff(until: notBefore, state.lastFailure) }
            if let retryAfter = state.lastFailure?.retryAfter, retryAfter > now {
                return .backingOff(until: retryAfter, state.lastFailure)
            }
        }
        return nil
    }

    /// The places a "became active" moment should refresh: stale, not in
    /// flight, allowed now. Fresh places cost nothing.
    public func staleRefreshes(_ ids: [LocationID], now: Double) -> [LocationID] {
        ids.filter { id in
            isStale(id, now: now) && places[id]?.inFlight != true && refusal(for: id, now: now) == nil
        }
    }

    /// The places whose scheduled time has come and may be fetched now.
    public func dueRefreshes(_ ids: [LocationID], now: Double) -> [LocationID] {
        ids.filter { id in
            guard let state = places[id], !state.inFlight else { return false }
            return (state.nextDue ?? now) <= now && refusal(for: id, now: now) == nil
        }
    }

    /// When something may next be due: the earliest scheduled refresh or end of
    /// a backoff, the budget's reset when it is exhausted; nil when nothing can
    /// happen without an outside event (offline, unauthorized, no places).
    public func nextWake(_ ids: [LocationID], now: Double) -> Double? {
        if !networkUp || unauthorized != nil { return nil }
        if callsUsed(now: now) >= policy.dailyBudget { return dayStart(now) + 86400 }
        var earliest: Double?
        for id in ids {
            guard let state = places[id], !state.inFlight else { continue }
            var due = state.nextDue ?? now
            if let notBefore = state.retryNotBefore { due = max(due, notBefore) }
            earliest = min(earliest ?? due, due)
        }
        return earliest
    }

    public func callsUsed(now: Double) -> Int {
        dayStart(now) == budgetDay ? callsToday : 0
    }

    // MARK: Internals

    /// The interval after `time`, or the provider's expiry when later, plus jitter.
    private mutating func scheduledDue(after time: Double, expiresAt: Double?, selected: Bool, jitter: Bool) -> Double {
        let interval = policy.interval(selected: selected)
        var due = time + interval
        if let expiresAt, expiresAt > due { due = expiresAt }
        if jitter { due += interval * policy.jitterFraction * random.nextUnit() }
        return due
    }

    private mutating func rollBudgetDay(now: Double) {
        let today = dayStart(now)
        if today != budgetDay {
            budgetDay = today
            callsToday = 0
        }
    }

    private func dayStart(_ now: Double) -> Double { (now / 86400).rounded(.down) * 86400 }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
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
