import RainCore

/// What raind remembers of each provider's health, to choose who answers for
/// a place (docs/PROVIDERS.md, "Failover"): a provider that failed is skipped
/// until its back-off ends (60 s, doubling with each further failure up to
/// an hour, longer when it asked for that with `Retry-After`; until the
/// configuration is reloaded when it refused raind's credentials or
/// identification), then asked again first, so raind moves back to a
/// preferred provider once it recovers. Pure: the daemon feeds it results
/// and the time.
public struct ProviderHealthBook: Sendable {
    /// One provider's record.
    public struct Health: Equatable, Sendable {
        /// Failures since the last success.
        public var consecutiveFailures = 0
        /// Not asked before this (Unix seconds); nil when it may be asked now.
        public var backoffUntil: Double?
        /// It refused raind (401, 403): not asked again until the configuration is reloaded.
        public var refused = false
        public var lastSuccess: Double?
        /// The last failure, its `time` set, until the next success.
        public var lastFailure: RefreshFailure?

        public init() {}
    }

    public private(set) var health: [ProviderName: Health] = [:]
    /// First back-off after a failure; doubles with each further one...
    public var backoffBase: Double = 60
    /// ...up to this ceiling.
    public var backoffCeiling: Double = 3600
    private var random: SplitMix64

    public init(seed: UInt64 = 0x4EA1) {
        random = SplitMix64(seed: seed)
    }

    public subscript(name: ProviderName) -> Health { health[name] ?? Health() }

    /// Whether `name` may be asked at `now`.
    public func isAvailable(_ name: ProviderName, now: Double) -> Bool {
        let record = self[name]
        if record.refused { return false }
        guard let until = record.backoffUntil else { return true }
        return until <= now
    }

    /// `name` answered.
    public mutating func succeeded(_ name: ProviderName, now: Double) {
        var record = self[name]
        record.consecutiveFailures = 0
        record.backoffUntil = nil
        record.refused = false
        record.lastSuccess = now
        record.lastFailure = nil
        health[name] = record
    }

    /// `name` failed with `failure` at `now`: it backs off, with jitter so
    /// machines that saw the same outage do not come back in the same second.
    public mutating func failed(_ name: ProviderName, failure: RefreshFailure, now: Double) {
        var record = self[name]
        record.consecutiveFailures += 1
        var recorded = failure
        recorded.time = now
        record.lastFailure = recorded
        var delay = RefreshPolicy.backoff(
            failures: record.consecutiveFailures, base: backoffBase, ceiling: backoffCeiling)
        delay *= 1 + 0.1 * random.nextUnit()
        var until = now + delay
        if let retryAfter = failure.retryAfter, retryAfter.isFinite { until = max(until, retryAfter) }
        record.backoffUntil = until
        if failure.httpStatus == 401 || failure.httpStatus == 403 { record.refused = true }
        health[name] = record
    }

    /// The network came back (or the machine woke): a back-off that
    /// failed transfers started (no route, no name, no connection) ends,
    /// since what made them fail is gone; one the service asked for
    /// (`Retry-After`, a 429 or 5xx) or a refusal stays. Whether one ended.
    @discardableResult
    public mutating func networkBack(_ name: ProviderName, now: Double) -> Bool {
        var record = self[name]
        guard let until = record.backoffUntil, until > now, !record.refused,
            let last = record.lastFailure, last.error == .offline, last.retryAfter == nil
        else { return false }
        record.backoffUntil = nil
        health[name] = record
        return true
    }

    /// A reload gives every provider that refused raind another chance.
    public mutating func configurationReloaded() {
        for (name, var record) in health where record.refused {
            record.refused = false
            health[name] = record
        }
    }

    /// The wall clock jumped by `delta`: back-offs keep their length.
    public mutating func clockJumped(by delta: Double) {
        guard delta.isFinite, delta != 0 else { return }
        for (name, var record) in health {
            record.backoffUntil = record.backoffUntil.map { $0 + delta }
            record.lastSuccess = record.lastSuccess.map { $0 + delta }
            if let time = record.lastFailure?.time { record.lastFailure?.time = time + delta }
            if let after = record.lastFailure?.retryAfter { record.lastFailure?.retryAfter = after + delta }
            health[name] = record
        }
    }

    /// The providers of `chain` to ask, in order, at `now`, of those
    /// `usable` allows (configured, within their budgets): the available
    /// ones; when every usable one is backing off, the one whose back-off
    /// ends first, so a place whose providers are all down is still asked
    /// at its own (backed-off) pace and comes back as soon as one does.
    /// Empty when none is usable.
    public func candidates(
        _ chain: [ProviderName], now: Double, usable: (ProviderName) -> Bool = { _ in true }
    ) -> [ProviderName] {
        let allowed = chain.filter { usable($0) && !self[$0].refused }
        let available = allowed.filter { isAvailable($0, now: now) }
        if !available.isEmpty { return available }
        guard let soonest = allowed.min(by: { (self[$0].backoffUntil ?? 0) < (self[$1].backoffUntil ?? 0) }) else {
            return []
        }
        return [soonest]
    }
}
