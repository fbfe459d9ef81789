/// A weather service raind can ask for a place's forecast. Everything that
/// differs between providers is here, in the provider's own file: how to ask
/// (`request`), what the answer means (`parseForecast`, `refusal`), and its
/// terms (`terms`: key, identification, conditional requests, freshness,
/// jitter, quota, coverage). What every provider shares — timeouts, HTTP
/// statuses, validating every value, scrubbing secrets, caching — is the
/// daemon's (`WeatherSource`), so it is written once.
///
/// Providers are listed in one table, `WeatherProviders.all`; nothing else
/// switches on a provider's name. docs/ARCHITECTURE.md ("Adding a provider")
/// says what a new one needs: its file, its recorded answers under
/// `Tests/Fixtures/Providers/NAME/`, and its line in the table, after which
/// the conformance suite (`ProviderConformanceTests`) runs it.
public protocol WeatherProvider: Sendable {
    /// The name in `[Provider] Name=`, in `Forecast.provider` and in messages.
    var name: ProviderName { get }
    /// Where requests go unless `[Provider] BaseURL=` says otherwise, without a trailing slash.
    var defaultBaseURL: String { get }
    /// The credit the provider's licence asks for, shown next to its data.
    var attribution: Attribution { get }
    /// The provider's rules, which raind follows.
    var terms: ProviderTerms { get }

    /// The forecast request for `place`, to append to the base URL: path,
    /// query and the provider's own headers. `units` is the unit system the
    /// person reads in; a provider that answers in any units is asked for
    /// SI, which raind converts on display. `key` is the API key when the
    /// provider takes one (`terms.needsKey`) and raind holds it; nil through
    /// a site proxy, which adds its own. Coordinates are sent with
    /// `terms.coordinateDigits` decimals, never more.
    func request(for place: Location, units: UnitSystem, key: String?) -> ProviderRequest

    /// Normalizes a successful (200) answer's body into a `Forecast` in SI
    /// units, stamped with this provider's name. `fetchedAt` is when the data
    /// was made (Unix seconds). Throws on a body that is not the provider's
    /// forecast; `leftOut` is told of a part that was present but unusable
    /// (a nowcast), and why. Values are checked again by the caller
    /// (`Forecast.validationProblem()`), whatever the provider.
    func parseForecast(
        _ body: [UInt8], fetchedAt: Double, leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast

    /// The provider's own words in a refusal's body (a 400 or 429), and what
    /// they say about when to ask again; nil when it writes none.
    func refusal(in body: [UInt8], now: Double) -> ProviderRefusal?
}

/// Path, query and headers of one forecast request, relative to the base URL.
public struct ProviderRequest: Equatable, Sendable {
    /// `/v1/forecast?latitude=...`: appended to the base URL as it is.
    public var path: String
    /// The provider's own headers (an `Accept`, say); raind adds the
    /// conditional ones when `terms.conditionalRequests`.
    public var headers: [String: String]

    public init(path: String, headers: [String: String] = [:]) {
        self.path = path
        self.headers = headers
    }
}

/// What a provider said when it refused a request.
public struct ProviderRefusal: Equatable, Sendable {
    /// The provider's reason, one line, bounded: shown to people and logged.
    public var reason: String
    /// When to ask again, if the reason says (a rate limit it names).
    public var retryAfter: Double?

    public init(reason: String, retryAfter: Double? = nil) {
        self.reason = reason
        self.retryAfter = retryAfter
    }
}
