import RainCore

extension RefreshScheduler.Refusal {
    /// What a person is told when the scheduler refuses a refresh: what
    /// stops it, what raind does meanwhile, and what to change. `policy`
    /// names the budgets; `now` says how long a back-off still lasts.
    public func failure(policy: RefreshPolicy, now: Double) -> RefreshFailure {
        switch self {
        case .offline:
            return RefreshFailure(error: .offline, wording: FailureWording(.offline, [:]))
        case .unauthorized(let failure):
            return failure
        case .quotaExhausted(.day, let resetsAt):
            let budget = BudgetUsage.text(calls: policy.dailyBudget)
            return RefreshFailure(
                error: .quotaExhausted, wording: FailureWording(.dailyBudgetUsed, ["budget": budget]),
                retryAfter: resetsAt)
        case .quotaExhausted(.month, let resetsAt):
            let budget = BudgetUsage.text(calls: policy.monthlyBudget ?? 0)
            return RefreshFailure(
                error: .quotaExhausted, wording: FailureWording(.monthlyBudgetUsed, ["budget": budget]),
                retryAfter: resetsAt)
        case .keptForSelected(let period, let resetsAt):
            let budget = BudgetUsage.text(calls: period == .day ? policy.dailyBudget : policy.monthlyBudget ?? 0)
            return RefreshFailure(
                error: .quotaExhausted,
                wording: FailureWording(period == .day ? .dailyBudgetKept : .monthlyBudgetKept, ["budget": budget]),
                retryAfter: resetsAt)
        case .backingOff(let until, let last):
            let wait = Int(min(max(until - now, 0), 1e9).rounded(.up))
            return RefreshFailure(
                error: last?.error ?? .providerError,
                wording: FailureWording(
                    .backingOff, ["problem": last?.message ?? "unknown error", "seconds": String(wait)],
                    cause: last?.wording),
                httpStatus: last?.httpStatus, retryAfter: until)
        }
    }
}
