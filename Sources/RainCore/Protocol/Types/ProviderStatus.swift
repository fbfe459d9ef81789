/// IDL `ProviderStatus`: one provider's health and budget in `GetStatus`.
public struct ProviderStatus: Codable, Sendable, Equatable {
    public var name: String
    /// The places it serves now (their ids).
    public var places: [LocationID]
    /// Whether it may be asked now: not backing off, not refusing raind.
    public var available: Bool
    /// Failures since its last success.
    public var failures: Int
    /// Not asked before this, after failures; nil when it may be.
    public var backoffUntil: Double?
    public var lastSuccess: Double?
    /// Its last failure, until it answers again.
    public var lastError: RefreshFailure?
    /// Requests to it today (UTC) and the calls it counts for them, against its own budget.
    public var requestsToday: Int
    public var callsToday: Double
    public var dailyBudget: Double
    public var requestsThisMonth: Int
    public var callsThisMonth: Double
    /// nil when its quota is not monthly and none is configured.
    public var monthlyBudget: Double?
    /// Of `places`, those it serves because the scores put it first, and why (docs/ACCURACY.md); nil when none.
    public var chosen: [ProviderChoice]?

    public init(
        name: String, places: [LocationID], available: Bool, failures: Int, backoffUntil: Double?,
        lastSuccess: Double?, lastError: RefreshFailure?, usage: BudgetUsage, dailyBudget: Double,
        monthlyBudget: Double?
    ) {
        self.name = name
        self.places = places
        self.available = available
        self.failures = failures
        self.backoffUntil = backoffUntil
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.requestsToday = usage.requestsToday
        self.callsToday = usage.callsToday
        self.dailyBudget = dailyBudget
        self.requestsThisMonth = usage.requestsThisMonth
        self.callsThisMonth = usage.callsThisMonth
        self.monthlyBudget = monthlyBudget
    }
}
