extension RefreshScheduler.Refusal {
    /// What a person is told when the scheduler refuses a refresh: what
    /// stops it, what raind does meanwhile, and what to change. `policy`
    /// names the budgets; `now` says how long a back-off still lasts.
    public func failure(policy: RefreshPolicy, now: Double) -> RefreshFailure {
        switch self {
        case .offline:
            return RefreshFailure(
                error: .offline,
                message:
                    "the network is down, so raind makes no requests; cached data is still served and refreshed when the network returns"
            )
        case .unauthorized(let failure):
            return failure
        case .quotaExhausted(.day, let resetsAt):
            return RefreshFailure(
                error: .quotaExhausted,
                message:
                    "the daily budget of \(BudgetUsage.text(calls: policy.dailyBudget)) upstream calls is used up; it resets at 00:00 UTC (raise [Refresh] DailyBudget= to allow more)",
                retryAfter: resetsAt)
        case .quotaExhausted(.month, let resetsAt):
            return RefreshFailure(
                error: .quotaExhausted,
                message:
                    "the monthly budget of \(BudgetUsage.text(calls: policy.monthlyBudget ?? 0)) upstream calls is used up; it resets on the 1st at 00:00 UTC (raise [Refresh] MonthlyBudget= if your plan allows more)",
                retryAfter: resetsAt)
        case .keptForSelected(let period, let resetsAt):
            let budget = period == .day ? policy.dailyBudget : policy.monthlyBudget ?? 0
            let renews = period == .day ? "at 00:00 UTC" : "on the 1st at 00:00 UTC"
            return RefreshFailure(
                error: .quotaExhausted,
                message:
                    "what is left of the \(period == .day ? "daily" : "monthly") budget of \(BudgetUsage.text(calls: budget)) upstream calls is kept for the selected place's refreshes; other places wait until it renews \(renews) (raise [Refresh] \(period == .day ? "DailyBudget" : "MonthlyBudget")= to allow more)",
                retryAfter: resetsAt)
        case .backingOff(let until, let last):
            let wait = Int(min(max(until - now, 0), 1e9).rounded(.up))
            return RefreshFailure(
                error: last?.error ?? .providerError,
                message:
                    "the provider failed recently (\(last?.message ?? "unknown error")); raind retries in \(wait) s",
                httpStatus: last?.httpStatus, retryAfter: until)
        }
    }
}
