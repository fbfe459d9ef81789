/// Every change raind publishes. One enum, one publisher; subscribers get
/// these, encoded once, in the order they happened.
public enum Event: Equatable, Sendable {
    case locationAdded(Location)
    case locationRemoved(Location)
    case locationSelected(Location)
    /// A saved place changed: the place that follows the machine moved to
    /// another town (renamed, new position), or the follow flag moved.
    case locationChanged(Location)
    case settingsChanged(Settings)
    case weatherUpdated(LocationID, Forecast)
    case reachabilityChanged(online: Bool)
    case refreshStarted([LocationID])
    case refreshFailed(LocationID, RefreshFailure)
    case alertsChanged(LocationID, [WeatherAlert])
    /// The selected place's rain outlook changed materially (`NowcastChange`);
    /// the nowcast is nil when the data no longer has one.
    case nowcastChanged(LocationID, Nowcast?, NowcastChange)
    /// Another provider serves the place now (failover, or its first choice back).
    case providerChanged(LocationID, ProviderChange)

    /// The wire name (`LocationAdded`, ...), declared once.
    public var name: EventName {
        switch self {
        case .locationAdded: return .locationAdded
        case .locationRemoved: return .locationRemoved
        case .locationSelected: return .locationSelected
        case .locationChanged: return .locationChanged
        case .settingsChanged: return .settingsChanged
        case .weatherUpdated: return .weatherUpdated
        case .reachabilityChanged: return .reachabilityChanged
        case .refreshStarted: return .refreshStarted
        case .refreshFailed: return .refreshFailed
        case .alertsChanged: return .alertsChanged
        case .nowcastChanged: return .nowcastChanged
        case .providerChanged: return .providerChanged
        }
    }
}

/// Event names as they appear on the wire and in `Subscribe(events:)` filters.
public enum EventName: String, WireEnum {
    case locationAdded = "LocationAdded"
    case locationRemoved = "LocationRemoved"
    case locationSelected = "LocationSelected"
    case locationChanged = "LocationChanged"
    case settingsChanged = "SettingsChanged"
    case weatherUpdated = "WeatherUpdated"
    case reachabilityChanged = "ReachabilityChanged"
    case refreshStarted = "RefreshStarted"
    case refreshFailed = "RefreshFailed"
    case alertsChanged = "AlertsChanged"
    case nowcastChanged = "NowcastChanged"
    case providerChanged = "ProviderChanged"
}

/// Why fetching a place's weather failed, in terms a person can act on.
public struct RefreshFailure: Equatable, Sendable, Error, Codable {
    /// The Varlink error this maps to (`Offline`, `ProviderError`, `QuotaExhausted`, ...).
    public var error: WeatherErrorName
    /// What happened and what to do, never containing the API key.
    public var message: String
    /// HTTP status, when the provider answered.
    public var httpStatus: Int?
    /// When the provider asked us to wait until (Unix seconds), from `Retry-After`.
    public var retryAfter: Double?
    /// When it happened (Unix seconds); set where a failure is recorded.
    public var time: Double?
    /// The message's kind and parameters, for a reader's language (`FailureWording`).
    public var wording: FailureWording?

    public init(
        error: WeatherErrorName, message: String, httpStatus: Int? = nil, retryAfter: Double? = nil, time: Double? = nil
    ) {
        self.error = error
        self.message = message
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.time = time
    }

    /// A failure whose message is `wording`'s English.
    public init(error: WeatherErrorName, wording: FailureWording, httpStatus: Int? = nil, retryAfter: Double? = nil) {
        self.init(error: error, message: wording.message, httpStatus: httpStatus, retryAfter: retryAfter)
        self.wording = wording
    }
}
