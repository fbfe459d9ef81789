import RainCore
import RainDaemonCore

/// The selected place's nowcast: whether anyone can use it (so its short
/// refreshes run), and when its outlook changed enough to publish
/// `NowcastChanged`. Holds the outlook last published (or found when the
/// place became selected), so a drift of small moves adds up to an event
/// rather than hiding under each step.
struct NowcastWatch {
    /// A subscriber is connected.
    var watching = false
    /// Rain-soon notifications can be shown: someone can use the nowcast
    /// even with no subscriber connected.
    var notificationsWant = false
    private var published: (id: LocationID, nowcast: Nowcast?)?

    /// Whether the selected place's short refreshes are wanted: someone can
    /// use them, and its data has a nowcast (a provider or a place without
    /// short-range data gains nothing from them).
    func wanted(hasNowcast: Bool) -> Bool { (watching || notificationsWant) && hasNowcast }

    /// The change to publish when `current`, the selected place's outlook as
    /// served, differs materially from the one last published; nil otherwise.
    mutating func change(of id: LocationID, to current: Nowcast?) -> NowcastChange? {
        let baseline = published?.id == id ? published?.nowcast : nil
        guard let change = NowcastChange.between(baseline, current) else { return nil }
        published = (id, current)
        return change
    }

    /// A restart or a new selection is no news: `nowcast` is the baseline.
    mutating func resetBaseline(_ id: LocationID?, _ nowcast: Nowcast?) {
        published = id.map { ($0, nowcast) }
    }

    /// The short refreshes' state and cost, for `GetStatus`.
    static func status(
        _ scheduler: RefreshScheduler, configuration: Configuration, now: Double
    ) -> NowcastStatus {
        let policy = scheduler.policy
        let configured =
            configuration.effectiveNowcastIntervalMinutes ?? configuration.defaultNowcastIntervalMinutes
        // Never slower than the regular interval, which the scheduler then follows.
        let minutes = min(configured, Int(policy.interval / 60))
        let requests = scheduler.nowcastRequestsPerDay
        return NowcastStatus(
            enabled: policy.nowcastInterval != nil, active: scheduler.nowcastActive(now: now),
            intervalMinutes: minutes, requestsPerDay: requests, callsPerDay: requests * policy.callsPerRequest)
    }
}
