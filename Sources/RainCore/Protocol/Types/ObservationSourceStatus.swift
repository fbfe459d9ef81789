/// IDL `ObservationSourceStatus`: what one observation source costs, in
/// `GetStatus`, beside the forecast providers' and the alert services'.
public struct ObservationSourceStatus: Codable, Sendable, Equatable {
    /// The source's name (`metar`, `nws`, `dwd`).
    public var name: String
    /// The stations it is polled for (their ids, sorted).
    public var stations: [String]
    /// The places those stations verify (their ids).
    public var places: [LocationID]
    /// Seconds between two polls of a station (before jitter): an hour or more.
    public var pollingSeconds: Double
    /// The polls the stations cost a day at that interval: one per station,
    /// however many places it verifies; station searches not counted.
    public var requestsPerDay: Double
    /// Requests made today (UTC) and this month, polls and station
    /// searches, and the calls the source counts for them.
    public var requestsToday: Int
    public var callsToday: Double
    public var requestsThisMonth: Int
    public var callsThisMonth: Double
    /// Of today's requests, those answered "not modified" (304).
    public var unchangedToday: Int
    /// The requests raind allows itself a day (its book in the ledger).
    public var dailyBudget: Double
    /// Failed requests since the source last answered.
    public var failures: Int
    /// Until when (Unix seconds) raind leaves the source alone after failures; nil when it does not.
    public var backoffUntil: Double?

    public init(
        name: String, stations: [String], places: [LocationID], pollingSeconds: Double, requestsPerDay: Double,
        usage: BudgetUsage, unchangedToday: Int, dailyBudget: Double, failures: Int, backoffUntil: Double? = nil
    ) {
        self.name = name
        self.stations = stations
        self.places = places
        self.pollingSeconds = pollingSeconds
        self.requestsPerDay = requestsPerDay
        self.requestsToday = usage.requestsToday
        self.callsToday = usage.callsToday
        self.requestsThisMonth = usage.requestsThisMonth
        self.callsThisMonth = usage.callsThisMonth
        self.unchangedToday = unchangedToday
        self.dailyBudget = dailyBudget
        self.failures = failures
        self.backoffUntil = backoffUntil
    }
}
