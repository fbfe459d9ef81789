/// IDL `AlertSourceStatus`: what one official alert service costs, in
/// `GetStatus`, beside the forecast providers' `ProviderStatus`.
public struct AlertSourceStatus: Codable, Sendable, Equatable {
    /// The service's name (`AlertSource.name`: "nws", "dwd", …).
    public var name: String
    /// The places it is asked for (their ids).
    public var places: [LocationID]
    /// Seconds between two polls of a place (before jitter): the service's terms.
    public var pollingSeconds: Double
    /// The feed requests the places cost a day at that interval: one a round
    /// for each distinct question (places asking the same share it), CAP
    /// documents not counted.
    public var requestsPerDay: Double
    /// Requests made today (UTC) and this month, feeds and CAP documents,
    /// and the calls the service counts for them.
    public var requestsToday: Int
    public var callsToday: Double
    public var requestsThisMonth: Int
    public var callsThisMonth: Double
    /// Of today's requests, those answered "not modified" (304).
    public var unchangedToday: Int
    /// Of today's requests, those for CAP documents.
    public var documentsToday: Int
    /// The requests raind allows itself a day (its book in the ledger); nil from an older raind.
    public var dailyBudget: Double?
    /// Failed polls since the service last answered; nil from an older raind.
    public var failures: Int?
    /// Until when (Unix seconds) raind leaves the service alone after failures; nil when it does not.
    public var backoffUntil: Double?
    /// Each of its places' pace now (`AlertPace`); nil from an older raind.
    public var paces: [AlertPace]?

    public init(
        name: String, places: [LocationID], pollingSeconds: Double, requestsPerDay: Double, usage: BudgetUsage,
        unchangedToday: Int, documentsToday: Int, dailyBudget: Double? = nil, failures: Int? = nil,
        backoffUntil: Double? = nil, paces: [AlertPace]? = nil
    ) {
        self.paces = paces
        self.name = name
        self.places = places
        self.pollingSeconds = pollingSeconds
        self.requestsPerDay = requestsPerDay
        self.requestsToday = usage.requestsToday
        self.callsToday = usage.callsToday
        self.requestsThisMonth = usage.requestsThisMonth
        self.callsThisMonth = usage.callsThisMonth
        self.unchangedToday = unchangedToday
        self.documentsToday = documentsToday
        self.dailyBudget = dailyBudget
        self.failures = failures
        self.backoffUntil = backoffUntil
    }
}
