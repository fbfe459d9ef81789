import RainCore

/// The rules of freshness, from the configuration (docs/SCHEDULING.md).
public struct RefreshPolicy: Equatable, Sendable {
    /// How often the selected place refreshes (`IntervalMinutes=`).
    public var interval: Double
    /// Data older than this is stale: "became active" triggers refresh it (`StaleAfterMinutes=`).
    public var staleAfter: Double
    /// Calls (as the provider counts them) allowed per UTC day (`DailyBudget=`).
    public var dailyBudget: Double
    /// Calls allowed per UTC calendar month (`MonthlyBudget=`), for providers
    /// whose quota is monthly; nil when there is no monthly limit.
    public var monthlyBudget: Double?
    /// How many calls the provider counts for one forecast request.
    public var callsPerRequest: Double
    /// How often the selected place refreshes while its nowcast is in use
    /// (`[Nowcast] IntervalMinutes=`, else the provider's); nil when the
    /// nowcast is off or the provider has no short-range data.
    public var nowcastInterval: Double?
    /// First retry delay after a failure; doubles with each further failure...
    public var backoffBase: Double = 60
    /// ...up to this ceiling.
    public var backoffCeiling: Double = 3600
    /// Scheduled refreshes are delayed by a random 0...jitter fraction of their
    /// interval, so many machines do not hit the provider in the same second.
    public var jitterFraction: Double = 0.1

    public init(
        interval: Double, staleAfter: Double, dailyBudget: Double, monthlyBudget: Double? = nil,
        callsPerRequest: Double = 1, nowcastInterval: Double? = nil
    ) {
        self.interval = interval
        self.staleAfter = staleAfter
        self.dailyBudget = dailyBudget
        self.monthlyBudget = monthlyBudget
        self.callsPerRequest = callsPerRequest
        self.nowcastInterval = nowcastInterval
    }

    /// Places other than the selected one refresh three times less often, and
    /// at least hourly apart: they are looked at less, and each costs a call.
    public var backgroundInterval: Double { max(3 * interval, 3600) }

    public func interval(selected: Bool) -> Double { selected ? interval : backgroundInterval }

    /// Requests the selected place's regular refreshes still need in the UTC
    /// day and the month containing `now` (whole requests, rounded up): what
    /// other places may not spend, so many places never starve the one
    /// shown (docs/SCHEDULING.md, "Budgets").
    public func selectedRequestsLeft(now: Double) -> (day: Double, month: Double) {
        guard interval > 0 else { return (0, 0) }
        let day = ((BudgetUsage.dayStart(now) + 86400 - now) / interval).rounded(.up)
        let month = ((BudgetUsage.nextMonthStart(now) - now) / interval).rounded(.up)
        return (day, month)
    }
}

extension RefreshPolicy {
    /// The wait after `failures` failures in a row (at least 1): `base`,
    /// doubling with each further failure, never more than `ceiling`.
    public static func backoff(failures: Int, base: Double, ceiling: Double) -> Double {
        var delay = base
        for _ in 1..<max(1, min(failures, 30)) where delay < ceiling { delay *= 2 }
        return min(ceiling, delay)
    }
}
