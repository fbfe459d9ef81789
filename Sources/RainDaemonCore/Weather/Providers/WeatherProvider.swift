import RainCore

/// A weather service raind can ask for a place's forecast. Everything that
/// differs between providers is here, in the provider's own file: how to ask
/// (`plan`, in one request or several, after a lookup or not), what the
/// answers mean (`parseLookup`, `parseForecast`, `refusal`), and its
/// terms (`terms`: key, identification, conditional requests, freshness,
/// jitter, quota, coverage). What every provider shares — timeouts, HTTP
/// statuses, validating every value, scrubbing secrets, caching — is the
/// daemon's (`WeatherSource`), so it is written once.
///
/// Providers are listed in one table, `WeatherProviders.all`; nothing else
/// switches on a provider's name. docs/ARCHITECTURE.md ("Adding a provider")
/// says what a new one needs: its file, its recorded answers under
/// `Tests/Fixtures/`, and its line in the table, after which
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

    /// What to ask for `place`'s forecast at `now`: the forecast requests,
    /// made together (`.forecast`); first a lookup whose answer is kept with
    /// the place (`.lookup`, the NWS's `/points` for its office and grid);
    /// or nothing, for a place the provider has no data for (`.notCovered`).
    /// `units` is the unit system the person reads in; a provider that
    /// answers in any units is asked for SI, which raind converts on
    /// display. `key` is the API key when the provider takes one
    /// (`terms.needsKey`) and raind holds it; nil through a site proxy,
    /// which adds its own. `lookup` is the kept answer of an earlier lookup,
    /// while it has not expired. Coordinates are sent with
    /// `terms.coordinateDigits` decimals, never more.
    func plan(
        for place: Location, units: UnitSystem, key: String?, lookup: ProviderLookup?, now: Double
    )
        -> ProviderPlan

    /// What a `.lookup` request's successful (200) answer says, to keep with
    /// the place until its `expiresAt`. Throws on a body that is not the
    /// provider's answer; a place outside the provider's data is the error
    /// `.notCovered`.
    func parseLookup(_ body: [UInt8], for place: Location, now: Double) throws(ProviderParseError) -> ProviderLookup

    /// Normalizes the successful (200) answers of a `.forecast` plan's
    /// requests, in the plan's order, into a `Forecast` in SI units, stamped
    /// with this provider's name. `zone` holds the rules of the place's time
    /// zone (the provider's answer names it, else the place does), nil when
    /// the system does not know it: days a provider derives from hours are
    /// the place's days. `fetchedAt` is when the data was made (Unix seconds). Throws on an answer that is not the provider's;
    /// `leftOut` is told of a part that was present but unusable (a
    /// nowcast), and why. Values are checked again by the caller
    /// (`Forecast.validationProblem()`), whatever the provider.
    func parseForecast(
        _ answers: [[UInt8]], for place: Location, zone: TimeZoneRules?, fetchedAt: Double,
        leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast

    /// What each answer of a `.forecast` plan is, in the plan's order
    /// (`hourly`, `current`): the suffix of its recorded answers
    /// (`Tests/Fixtures/STEM-forecast-NAME.N-ROLE.json`). One role: a
    /// recording is `STEM-forecast-NAME.json`.
    var answerRoles: [String] { get }

    /// The provider's own words in a refusal's body (a 400 or 429), and what
    /// they say about when to ask again; nil when it writes none.
    func refusal(in body: [UInt8], now: Double) -> ProviderRefusal?

    /// The provider's air-quality service, a second kind of data per place
    /// (`AirQualityService`); nil for a provider without one.
    var airQuality: (any AirQualityService)? { get }
}

/// What to ask a provider for a place.
public enum ProviderPlan: Equatable, Sendable {
    /// These requests, made together; their answers go to `parseForecast`
    /// in this order.
    case forecast([ProviderRequest])
    /// First this request, whose answer `parseLookup` reads and raind keeps
    /// with the place; then the plan is asked again with it.
    case lookup(ProviderRequest)
    /// The provider has no data for the place; the reason is shown to people.
    case notCovered(String)
}

/// What a provider's lookup found for a place (the NWS's forecast office and
/// grid cell), kept with the place's cache until `expiresAt`. Values are
/// the provider's own, checked by its `plan` before use.
public struct ProviderLookup: Equatable, Sendable, Codable {
    /// At most `maximumValues` entries of at most `maximumLength` bytes each.
    public var values: [String: String]
    /// When to look up again (Unix seconds).
    public var expiresAt: Double

    public static let maximumValues = 16
    public static let maximumLength = 512

    public init(values: [String: String], expiresAt: Double) {
        self.values = values
        self.expiresAt = expiresAt
    }

    /// Why these values cannot be kept (too many, too long, control
    /// characters, an expiry that is not a time); nil when they can.
    public var validationProblem: String? {
        if values.count > Self.maximumValues { return "more than \(Self.maximumValues) values" }
        for (key, value) in values {
            if key.utf8.count > Self.maximumLength || value.utf8.count > Self.maximumLength {
                return "a value longer than \(Self.maximumLength) bytes"
            }
            if key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
                || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            {
                return "a control character in \(key)"
            }
        }
        guard expiresAt.isFinite, expiresAt >= 0 else { return "an expiry that is not a time" }
        return nil
    }
}

/// A provider that answers a place's forecast in one request and needs no
/// lookup (Open-Meteo, Pirate Weather): it writes the request and the
/// parser of its one answer, and gets the rest of `WeatherProvider` here.
public protocol SingleRequestProvider: WeatherProvider {
    /// The forecast request for `place` (see `WeatherProvider.plan`).
    func request(for place: Location, units: UnitSystem, key: String?) -> ProviderRequest

    /// Normalizes the one answer (see `WeatherProvider.parseForecast`);
    /// `zone`: the place's time zone, for a provider that derives days.
    func parseForecast(
        _ body: [UInt8], zone: TimeZoneRules?, fetchedAt: Double, leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast
}

extension WeatherProvider {
    /// Never asked unless the provider's plan has a lookup (the NWS's).
    public func parseLookup(
        _ body: [UInt8], for place: Location, now: Double
    ) throws(ProviderParseError)
        -> ProviderLookup
    {
        throw ProviderParseError(provider: name.rawValue, field: "", problem: .invalidValue("no lookup is made"))
    }

    /// Refuses answers that are not one for each of `answerRoles`.
    public func checkAnswerCount(_ answers: [[UInt8]]) throws(ProviderParseError) {
        let count = answerRoles.count
        guard answers.count != count else { return }
        throw ProviderParseError(
            provider: name.rawValue, field: "",
            problem: .invalidValue("expected \(count) answer\(count == 1 ? "" : "s"), got \(answers.count)"))
    }
}

extension SingleRequestProvider {
    /// Covered everywhere its `terms.coverage` says, in one request.
    public func plan(
        for place: Location, units: UnitSystem, key: String?, lookup: ProviderLookup?, now: Double
    )
        -> ProviderPlan
    {
        .forecast([request(for: place, units: units, key: key)])
    }

    public func parseForecast(
        _ answers: [[UInt8]], for place: Location, zone: TimeZoneRules?, fetchedAt: Double,
        leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast {
        try checkAnswerCount(answers)
        return try parseForecast(answers[0], zone: zone, fetchedAt: fetchedAt, leftOut: leftOut)
    }

    public var answerRoles: [String] { ["forecast"] }
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

extension ProviderLookup: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        values = try wire.stringMap("values")
        expiresAt = try wire.double("expiresAt")
    }
}
