import RainCore

/// A national or worldwide service raind asks what a weather station
/// measured, to judge the forecasts of the places near it
/// (docs/OBSERVATIONS.md). Like a `WeatherProvider` or an `AlertSource`,
/// what differs between services is in the source's two files: its plan
/// (this protocol's requests, terms and coverage: `NAMEObservationSource.swift`)
/// and its parser (`NAMEObservationSource+Parsing.swift`). What every
/// source shares — HTTP, the ledger, the choice of a place's station
/// (`VerifyingStation`), the checks of every value
/// (`Observation.validationProblem`) — is written once, outside them.
///
/// A place's station is found once (`stationPlan`, `parseStations`), then
/// polled (`request(for:)`, `parseObservation`): places near one station
/// share its request.
public protocol ObservationSource: Sendable {
    /// The name in `Observation.source`, in status and in the ledger
    /// (`ProviderName.observations(_:)`).
    var name: String { get }
    /// Where requests go unless `[Observations] BaseURL=` says otherwise, without a trailing slash.
    var defaultBaseURL: String { get }
    /// The credit the service's licence asks for, shown next to its observations.
    var attribution: Attribution { get }
    /// The service's rules, which raind follows.
    var terms: ObservationSourceTerms { get }
    /// How to find the stations near `place`: a lookup first (the NWS's
    /// `/points`, whose answer is kept as `lookup`), then the request whose
    /// answer lists them; or why the source does not cover the place.
    func stationPlan(for place: Location, lookup: ProviderLookup?) -> ObservationStationPlan
    /// What a `.lookup` request's successful answer says, to keep with the place.
    func parseLookup(_ body: [UInt8], now: Double) throws(ProviderParseError) -> ProviderLookup
    /// The stations a `.stations` request's successful answer names, each
    /// at most once, at most `VerifyingStation.maximumCandidates`.
    func parseStations(_ body: [UInt8], now: Double) throws(ProviderParseError) -> [ObservationStation]
    /// The request for `station`'s latest observation: one for every place
    /// the station verifies.
    func request(for station: ObservationStation) -> ProviderRequest
    /// The latest observation in a poll's successful answer, with the
    /// values it marks bad left out. Throws on an answer that is not the
    /// service's, a value of the wrong kind, or no observation at all.
    func parseObservation(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> Observation
    /// The request for `station`'s observations from `since` to now, read
    /// once for a new place's backfill (docs/ACCURACY.md, "Backfill").
    func historyRequest(for station: ObservationStation, since: Double, now: Double) -> ProviderRequest
    /// Every observation of `station` in a history request's successful
    /// answer, with the values it marks bad left out, in any order. Throws
    /// on an answer that is not the service's or a value of the wrong kind.
    func parseHistory(
        _ body: [UInt8], station: ObservationStation, now: Double
    ) throws(ProviderParseError) -> [Observation]
}

extension ObservationSource {
    /// Never asked unless the source's plan has a lookup (the NWS's).
    public func parseLookup(_ body: [UInt8], now: Double) throws(ProviderParseError) -> ProviderLookup {
        throw ProviderParseError(provider: name, field: "", problem: .invalidValue("no lookup is made"))
    }
}

extension ObservationSources {
    /// A UTC instant as the services' history requests take it: `2026-07-22T14:00:00Z`.
    static func instant(_ unixSeconds: Double) -> String {
        let time = CivilDateTime(unixSeconds: unixSeconds.rounded(.down), utcOffsetSeconds: 0)
        let year = String(time.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-"
            + CivilDateTime.twoDigits(time.month) + "-" + CivilDateTime.twoDigits(time.day) + "T"
            + CivilDateTime.twoDigits(time.hour) + ":" + CivilDateTime.twoDigits(time.minute) + ":"
            + CivilDateTime.twoDigits(time.second) + "Z"
    }
}

/// How an observation source finds the stations near a place.
public enum ObservationStationPlan: Equatable, Sendable {
    /// First this request, whose answer `parseLookup` reads and raind keeps
    /// with the place; then the plan is asked again with it.
    case lookup(ProviderRequest)
    /// This request, whose answer `parseStations` reads.
    case stations(ProviderRequest)
    /// The source does not cover the place; the reason is shown to people.
    case notCovered(String)
}

/// An observation source's rules, which raind follows for every request to it.
public struct ObservationSourceTerms: Equatable, Sendable {
    /// The countries (ISO 3166-1 alpha-2, upper case) whose stations the
    /// service reports; nil: the whole world.
    public var countries: Set<String>?
    /// Seconds between polls of a station: never shorter than an hour
    /// (`minimumPollingInterval`), whatever the service renews.
    public var pollingInterval: Double
    /// Polls are delayed by a random 0...`jitterFraction` of the interval.
    public var jitterFraction: Double
    /// Send the last answer's `ETag` and `Last-Modified` back.
    public var conditionalRequests: Bool
    /// How long a place's station is kept before it is looked for again
    /// (stations open, close and move rarely).
    public var stationLifetime: Double
    /// What a request costs and the quota it counts against.
    public var quota: ProviderQuota

    /// Observations are hourly at most stations (METAR, SYNOP): asking
    /// more often would mostly fetch the same report (the bound,
    /// docs/OBSERVATIONS.md, "Cost").
    public static let minimumPollingInterval: Double = 3600

    public init(
        countries: Set<String>?, pollingInterval: Double, jitterFraction: Double = 0.1,
        conditionalRequests: Bool = true, stationLifetime: Double = 7 * 86_400, quota: ProviderQuota
    ) {
        precondition(
            pollingInterval >= Self.minimumPollingInterval, "observation sources are polled at most hourly")
        self.countries = countries
        self.pollingInterval = pollingInterval
        self.jitterFraction = jitterFraction
        self.conditionalRequests = conditionalRequests
        self.stationLifetime = stationLifetime
        self.quota = quota
    }

    /// Whether the service reports stations in the country `code`
    /// (ISO 3166-1 alpha-2, any case); a place of unknown country is asked for.
    public func covers(countryCode code: String) -> Bool {
        guard let countries, !code.isEmpty else { return true }
        return countries.contains(code.uppercased())
    }

    /// The requests raind allows itself a day for `stations` stations:
    /// twice what polling each every `pollingInterval` asks (for the
    /// station searches, the polls after a resume or reload, and the
    /// jitter), and at least 50. Like the alert services', no service sets
    /// a number; this keeps a fault in raind from asking without end.
    public func dailyBudget(stations: Int) -> Double {
        max(50, (2 * Double(max(0, stations)) * 86_400 / pollingInterval).rounded(.up))
    }
}
