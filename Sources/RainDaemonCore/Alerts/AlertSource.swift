import RainCore

/// An official warning service raind asks for the alerts in force at a
/// place, whichever forecast provider gives the place's forecast. Like a
/// `WeatherProvider`, everything that differs between services is in the
/// source's own file: how to ask (`plan`), what the answers mean
/// (`parseFeed`, and `parseDocument` for a service that links each warning
/// as a CAP document fetched once), and its terms. What every source shares
/// — HTTP, validation, caching, the life of an alert from onset to
/// cancellation (`AlertLifecycle`) — is written once, outside it.
///
/// Sources are listed in one table, `AlertSources.all`, which also chooses
/// the source responsible for a place (by its country); nothing else
/// switches on a source's name.
public protocol AlertSource: Sendable {
    /// The name in `Alert.source`, in status and in `[Alerts] Sources=`.
    var name: String { get }
    /// Where requests go unless configured otherwise, without a trailing slash.
    var defaultBaseURL: String { get }
    /// The credit the service's licence asks for, shown next to its alerts.
    var attribution: Attribution { get }
    /// The service's rules, which raind follows.
    var terms: AlertSourceTerms { get }
    /// What to ask for the alerts at `place`: one or more requests made
    /// together, or nothing for a place the service does not cover.
    /// Coordinates are sent with `terms.coordinateDigits` decimals.
    /// `languages`: the reader's languages, most preferred first (ISO 639-1
    /// codes, "de", "en"); a source that answers in several asks for, and
    /// keeps, the first it has, else English, else its own first.
    func plan(for place: Location, languages: [String], now: Double) -> AlertPlan
    /// The same, knowing what lookups raind keeps for the place (a forecast
    /// provider's or an observation source's, `ProviderLookup`): a service
    /// that answers by area asks for the place's area when one names it
    /// (the NWS's zones, `NWSAlertZones`), so places in one area ask one
    /// question. By default, `plan(for:languages:now:)`.
    func plan(for place: Location, lookups: [ProviderLookup], languages: [String], now: Double) -> AlertPlan
    /// What the successful answers to `asked` (the plan's request paths)
    /// say of the place's area, for the next plan: a lookup to keep (the
    /// DWD's warn cell, `DWDWarnCell`), one to drop, or nothing. By
    /// default, nothing.
    func areaLookup(_ answers: [[UInt8]], asked: [String], for place: Location, now: Double) -> AlertAreaLookup
    /// The successful (200) answers of a plan's requests, in its order: the
    /// alerts they hold that concern `place` (matched by the area's outline
    /// where one is given), and the CAP documents to fetch for the rest of
    /// an alert's text. Throws on a body that is not the service's answer.
    func parseFeed(
        _ answers: [[UInt8]], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> AlertFeed
    /// A CAP document named by `parseFeed`'s `documents` (fetched once and
    /// kept while its alerts last): the alerts in it that concern `place`.
    func parseDocument(
        _ body: [UInt8], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> [WeatherAlert]
    /// Whether a document that gave the place no alert names no area raind
    /// could place at all (no outline, only codes it cannot tell), so that
    /// people are told such warnings exist instead of seeing none.
    func namesNoPlaceableArea(_ document: [UInt8]) -> Bool
}

extension AlertSource {
    /// A source that asks by point only.
    public func plan(for place: Location, lookups: [ProviderLookup], languages: [String], now: Double) -> AlertPlan {
        plan(for: place, languages: languages, now: now)
    }

    /// A source whose answers name no area.
    public func areaLookup(_ answers: [[UInt8]], asked: [String], for place: Location, now: Double) -> AlertAreaLookup {
        .unchanged
    }

    /// Never asked unless the source's feed names documents.
    public func parseDocument(
        _ body: [UInt8], for place: Location, languages: [String], now: Double
    ) throws(ProviderParseError) -> [WeatherAlert] {
        throw ProviderParseError(provider: name, field: "", problem: .invalidValue("no documents are fetched"))
    }

    /// A source whose documents all carry outlines.
    public func namesNoPlaceableArea(_ document: [UInt8]) -> Bool { false }
}

/// What to ask an alert source for a place.
public enum AlertPlan: Equatable, Sendable {
    /// These requests, made together; their answers go to `parseFeed` in this order.
    case requests([ProviderRequest])
    /// The source does not cover the place; the reason is shown to people.
    case notCovered(String)
}

/// What a poll's answers say of the area a place is asked by (`AlertSource.areaLookup`).
public enum AlertAreaLookup: Equatable, Sendable {
    /// Nothing to change.
    case unchanged
    /// Keep this lookup for the place, under the source's book.
    case keep(ProviderLookup)
    /// The answer names no usable area (why, for the log): nothing is kept
    /// and the place keeps the point query.
    case ignored(String)
    /// The area kept is wrong (why, for the log): forget it, and ask by point again.
    case drop(String)
}

/// What a source's feed says about a place.
public struct AlertFeed: Equatable, Sendable {
    /// The alerts the feed itself describes (each with `source` set).
    public var alerts: [WeatherAlert]
    /// CAP documents to fetch for alerts the feed only names, by their full
    /// URL; raind fetches each once and keeps it while its alerts last.
    public var documents: [String]
    /// Warnings the answer says exist but does not hold, or that raind
    /// left out past a bound (`AlertLimits`): how many, and why. A feed is
    /// never taken for the whole answer when it is not: the place's service
    /// says so (`AlertService.unread`).
    public var unread: Int
    public var unreadReason: String?

    public init(alerts: [WeatherAlert], documents: [String] = [], unread: Int = 0, unreadReason: String? = nil) {
        self.alerts = alerts
        self.documents = documents
        self.unread = unread
        self.unreadReason = unreadReason
    }

    /// `alerts`, read from the first `AlertLimits.alertsPerFeed` of an
    /// answer's `count` entries: those past the bound are counted unread.
    public init(alerts: [WeatherAlert], cutFrom count: Int) {
        let beyond = max(0, count - AlertLimits.alertsPerFeed)
        self.init(
            alerts: alerts, unread: beyond, unreadReason: beyond > 0 ? Self.beyond(AlertLimits.alertsPerFeed) : nil)
    }

    /// Why warnings past `limit` in one answer are left out.
    public static func beyond(_ limit: Int) -> String {
        "more than \(limit) in one answer, the rest left out"
    }
}

/// An alert source's rules, which raind follows for every request to it.
public struct AlertSourceTerms: Equatable, Sendable {
    /// The countries (ISO 3166-1 alpha-2, upper case) the service issues
    /// warnings for.
    public var countries: Set<String>
    /// Seconds between polls of a place, never shorter than the service's
    /// own update rate.
    public var pollingInterval: Double
    /// Seconds between polls of a place with no alert and a calm forecast
    /// (`AlertPacing`): 30 min, never shorter than `pollingInterval`.
    public var calmPollingInterval: Double
    /// Polls are delayed by a random 0...`jitterFraction` of the interval.
    public var jitterFraction: Double
    /// Send the last answer's `ETag` and `Last-Modified` back.
    public var conditionalRequests: Bool
    /// Decimals of the coordinates sent.
    public var coordinateDigits: Int
    /// What a request costs and the quota it counts against.
    public var quota: ProviderQuota

    public init(
        countries: Set<String>, pollingInterval: Double, jitterFraction: Double = 0.1,
        conditionalRequests: Bool = true, coordinateDigits: Int = 2, quota: ProviderQuota,
        calmPollingInterval: Double = 1800
    ) {
        self.countries = countries
        self.pollingInterval = pollingInterval
        self.calmPollingInterval = max(pollingInterval, calmPollingInterval)
        self.jitterFraction = jitterFraction
        self.conditionalRequests = conditionalRequests
        self.coordinateDigits = coordinateDigits
        self.quota = quota
    }

    /// The requests raind allows itself a day for `places` places
    /// (docs/ALERTS.md, "Budgets"): twice what polling each place every
    /// `pollingInterval` asks, for the CAP documents the feeds name, the
    /// polls after a resume or a reload and the jitter, and at least 100.
    /// No service sets a number; this keeps a fault in raind from asking
    /// without end, and the service's book shows it.
    public func dailyBudget(places: Int) -> Double {
        max(100, (2 * Double(max(0, places)) * 86_400 / pollingInterval).rounded(.up))
    }
}
