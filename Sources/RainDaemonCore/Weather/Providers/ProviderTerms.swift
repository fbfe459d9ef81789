import RainCore

/// A provider's rules, which raind follows for every request to it.
public struct ProviderTerms: Equatable, Sendable {
    /// Requests need an API key (`[Provider] ApiKeyFile=` or the `api-key`
    /// credential) unless they go through a site proxy that holds it.
    public var needsKey: Bool
    /// The provider asks for a `User-Agent` that names the application and
    /// a way to reach its maintainers. raind always sends
    /// `raind/VERSION (+project URL)`; this says the provider requires it.
    public var requiresIdentification: Bool
    /// Send the last answer's `ETag` and `Last-Modified` back
    /// (`If-None-Match`, `If-Modified-Since`), so an unchanged forecast
    /// costs a 304 instead of a body.
    public var conditionalRequests: Bool
    /// How long an answer stays fresh when its headers (`Cache-Control`,
    /// `Expires`) say nothing; nil: only the interval decides.
    public var defaultLifetime: Double?
    /// Scheduled requests are delayed by a random 0...`jitterFraction` of
    /// their interval, so many machines do not ask in the same second.
    public var jitterFraction: Double
    /// Decimals of the coordinates sent (`ProviderQuery.gridDigits`): a grid
    /// coarse enough that a site proxy answers neighbours from one entry.
    public var coordinateDigits: Int
    /// What a request costs and the quota it counts against.
    public var quota: ProviderQuota
    /// Where the provider has data.
    public var coverage: ProviderCoverage
    /// How often, in minutes, the provider's short-range (nowcast) data is
    /// renewed: the selected place's refresh interval while its nowcast is
    /// in use, unless `[Nowcast] IntervalMinutes=` says otherwise.
    public var nowcastIntervalMinutes: Int
    /// The current conditions are a station's measurement, not a forecast:
    /// raind never corrects them by the provider's bias (docs/ACCURACY.md).
    public var currentMeasured = false

    public init(
        needsKey: Bool, requiresIdentification: Bool = false, conditionalRequests: Bool = true,
        defaultLifetime: Double? = nil, jitterFraction: Double = 0.1,
        coordinateDigits: Int = 2, quota: ProviderQuota, coverage: ProviderCoverage = .world,
        nowcastIntervalMinutes: Int
    ) {
        self.needsKey = needsKey
        self.requiresIdentification = requiresIdentification
        self.conditionalRequests = conditionalRequests
        self.defaultLifetime = defaultLifetime
        self.jitterFraction = jitterFraction
        self.coordinateDigits = coordinateDigits
        self.quota = quota
        self.coverage = coverage
        self.nowcastIntervalMinutes = nowcastIntervalMinutes
    }
}

/// What one of raind's forecast requests costs in the provider's own units,
/// and the free quota it counts against (docs/SCHEDULING.md).
public struct ProviderQuota: Equatable, Sendable {
    /// How many calls the provider counts for one HTTP request (Open-Meteo
    /// counts a request with many variables as several); a forecast of
    /// several requests (`ProviderPlan.forecast`) costs this for each.
    public var callsPerRequest: Double
    /// The period the provider's quota is counted over.
    public var period: BudgetPeriod
    /// The calls allowed per `period` on the free plan, when it has a limit
    /// raind must keep within; nil for a quota raind's default daily budget
    /// already keeps well inside.
    public var freeCalls: Int?
    /// For a fair-use provider that sets no number of calls: the requests
    /// per place and refresh interval raind keeps within (its daily budget
    /// is derived from the places and the interval, `ProviderBudgets.fairUseDaily`).
    public var fairUseRequestsPerPlaceAndInterval: Double?
    /// The calls the provider allows in any minute (its rate limit, in its
    /// own units like `freeCalls`); nil when it documents none. A large
    /// refresh is spread so the calls sent in the last 60 seconds stay
    /// within it (docs/SCHEDULING.md, "Pacing").
    public var callsPerMinute: Double?

    public init(
        callsPerRequest: Double, period: BudgetPeriod, freeCalls: Int?,
        fairUseRequestsPerPlaceAndInterval: Double? = nil, callsPerMinute: Double? = nil
    ) {
        self.callsPerRequest = callsPerRequest
        self.period = period
        self.freeCalls = freeCalls
        self.fairUseRequestsPerPlaceAndInterval = fairUseRequestsPerPlaceAndInterval
        self.callsPerMinute = callsPerMinute
    }
}

/// Where a provider has data.
public enum ProviderCoverage: Equatable, Sendable {
    /// Everywhere on Earth.
    case world
    /// The places in these countries (ISO 3166-1 alpha-2 codes, upper case).
    case countries(Set<String>)

    /// Whether a place with this country code lies where the provider has data.
    public func covers(countryCode: String) -> Bool {
        switch self {
        case .world: return true
        case .countries(let codes): return codes.contains(countryCode.uppercased())
        }
    }
}
