/// IDL `Status`: what `GetStatus` and the Subscribe snapshot report.
public struct WeatherStatus: Codable, Sendable, Equatable {
    public var version: String
    public var uptimeSeconds: Double
    public var provider: String
    public var online: Bool
    public var units: UnitSystem
    public var refreshMinutes: Int
    public var locations: Int
    public var selected: Location?
    public var lastRefresh: Double?
    public var lastError: RefreshFailure?
    public var nextRefresh: Double?
    public var callsToday: Int
    public var dailyBudget: Int
    public var subscribers: Int

    public init(
        version: String, uptimeSeconds: Double, provider: String, online: Bool, units: UnitSystem,
        refreshMinutes: Int, locations: Int, selected: Location?, lastRefresh: Double?, lastError: RefreshFailure?,
        nextRefresh: Double?, callsToday: Int, dailyBudget: Int, subscribers: Int
    ) {
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.provider = provider
        self.online = online
        self.units = units
        self.refreshMinutes = refreshMinutes
        self.locations = locations
        self.selected = selected
        self.lastRefresh = lastRefresh
        self.lastError = lastError
        self.nextRefresh = nextRefresh
        self.callsToday = callsToday
        self.dailyBudget = dailyBudget
        self.subscribers = subscribers
    }
}
