/// IDL `Status`: what `GetStatus` and the Subscribe snapshot report.
public struct WeatherStatus: Codable, Sendable, Equatable {
    public var version: String
    public var uptimeSeconds: Double
    public var provider: String
    public var online: Bool
    public var units: UnitSystem
    public var refreshMinutes: Int
    /// How often the other places refresh now; nil from a raind without it.
    public var backgroundRefreshMinutes: Int?
    /// Whether that interval is stretched to fit the daily budget.
    public var backgroundStretched: Bool?
    /// `StaleAfterMinutes=`: data older than this is stale, for GetForecast and the bars alike; nil from a raind without it.
    public var staleAfterMinutes: Int?
    public var locations: Int
    public var selected: Location?
    public var lastRefresh: Double?
    public var lastError: RefreshFailure?
    public var nextRefresh: Double?
    /// Forecast requests made today (UTC).
    public var requestsToday: Int
    /// The calls the provider counts for them (Open-Meteo counts one per 10 variables).
    public var callsToday: Double
    public var dailyBudget: Double
    public var requestsThisMonth: Int
    public var callsThisMonth: Double
    /// nil when the provider's quota is not monthly and none is configured.
    public var monthlyBudget: Double?
    public var subscribers: Int
    /// The nowcast's short refreshes and their cost; nil from a raind without them.
    public var nowcast: NowcastStatus?
    /// Each provider the places can be served by: health and budget; nil from a raind without them.
    public var providers: [ProviderStatus]?
    /// Each official alert service polled and what it costs; nil from a raind without them.
    public var alertSources: [AlertSourceStatus]?
    /// Each saved place's official alert service, as GetForecast gives it; nil from a raind without them.
    public var placeAlertServices: [PlaceAlertService]?
    /// Whether `requestsToday` … `monthlyBudget` are one provider's calls
    /// against its own budget (true), or sums over providers counting in
    /// different units (false, `Name=auto`); nil from a raind without it.
    public var totalAddsUp: Bool?
    /// Each observation source polled and what it costs; nil from a raind without them.
    public var observationSources: [ObservationSourceStatus]?
    /// Each saved place's verifying station and latest observation; nil from a raind without them.
    public var placeObservations: [PlaceObservation]?

    public init(
        version: String, uptimeSeconds: Double, provider: String, online: Bool, units: UnitSystem,
        refreshMinutes: Int, locations: Int, selected: Location?, lastRefresh: Double?, lastError: RefreshFailure?,
        nextRefresh: Double?, usage: BudgetUsage, dailyBudget: Double, monthlyBudget: Double?,
        subscribers: Int, nowcast: NowcastStatus? = nil, providers: [ProviderStatus]? = nil,
        alertSources: [AlertSourceStatus]? = nil, backgroundRefreshMinutes: Int? = nil,
        backgroundStretched: Bool? = nil, staleAfterMinutes: Int? = nil, totalAddsUp: Bool? = nil,
        placeAlertServices: [PlaceAlertService]? = nil, observationSources: [ObservationSourceStatus]? = nil,
        placeObservations: [PlaceObservation]? = nil
    ) {
        self.observationSources = observationSources
        self.placeObservations = placeObservations
        self.totalAddsUp = totalAddsUp
        self.placeAlertServices = placeAlertServices
        self.backgroundRefreshMinutes = backgroundRefreshMinutes
        self.backgroundStretched = backgroundStretched
        self.staleAfterMinutes = staleAfterMinutes
        self.providers = providers
        self.alertSources = alertSources
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
        self.requestsToday = usage.requestsToday
        self.callsToday = usage.callsToday
        self.dailyBudget = dailyBudget
        self.requestsThisMonth = usage.requestsThisMonth
        self.callsThisMonth = usage.callsThisMonth
        self.monthlyBudget = monthlyBudget
        self.subscribers = subscribers
        self.nowcast = nowcast
    }
}
