/// Why a request for weather failed, written once for both sides as
/// `PlaceWording` writes the answers about places: the daemon words its
/// message with it (English: its threads are in the C locale) and sends the
/// kind and parameters beside the message (`Failure.wording`,
/// `ProviderError.wording`), and raindctl words it again in the reader's
/// language, only when its English is exactly the message sent
/// (`localized(_:)`): a daemon of another version is shown as it wrote.
///
/// Parameters are text: `provider`, `url` (without its key), `status`,
/// `seconds`, `limit`, `origin`, `problem`, and `detail` and `said`, which
/// carry their own parentheses or colon and are empty when there is nothing
/// to add (libcurl's or the provider's own English words, shown as they are).
public struct FailureWording: Codable, Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        // The transfer (libcurl).
        case dnsFailed, connectFailed, tlsFailed, timedOut, connectionLost, truncated, bodyTooLarge
        case tooManyRedirects, redirectedElsewhere, invalidRequest, libcurlUnavailable, requestFailed
        // The provider's answer.
        case webPage, unusableForecast, proxyRefused, proxyRefusedKey, keylessRefused, keyRefused, notFound
        case rateLimited, rateLimitedAsked, rateLimitedFor, serverError, serverErrorAsked, badRequest
        case unexpectedStatus
        // The schedule's refusals.
        case offline, dailyBudgetUsed, monthlyBudgetUsed, dailyBudgetKept, monthlyBudgetKept, backingOff
    }

    /// A `Kind`'s name; another name (a newer daemon's) is shown as sent.
    public var kind: String
    public var parameters: [String: String]

    /// A wording as it arrived (a kind this version may not know).
    public init(kind: String, parameters: [String: String]) {
        self.kind = kind
        self.parameters = parameters
    }

    /// `cause`: the wording of the failure a `backingOff` names as
    /// `problem`, kept among the parameters as `cause` (its kind) and
    /// `cause.NAME` (its parameters), so a wording never nests.
    public init(_ kind: Kind, _ parameters: [String: String], cause: FailureWording? = nil) {
        self.kind = kind.rawValue
        self.parameters = parameters
        if let cause {
            self.parameters["cause"] = cause.kind
            for (name, value) in cause.parameters where !name.hasPrefix("cause") {
                self.parameters["cause." + name] = value
            }
        }
    }

    /// The failure a `backingOff` names, from its `cause` parameters.
    var cause: FailureWording? {
        guard let kind = parameters["cause"] else { return nil }
        var named: [String: String] = [:]
        for (name, value) in parameters where name.hasPrefix("cause.") { named[String(name.dropFirst(6))] = value }
        return FailureWording(kind: kind, parameters: named)
    }

    /// The sentence in the calling thread's language; nil for a kind this
    /// version does not know or a parameter missing.
    public var text: String? {
        guard let kind = Kind(rawValue: kind) else { return nil }
        let p = parameters
        let needed: [String]
        switch kind {
        case .dnsFailed, .connectFailed, .tlsFailed, .timedOut, .connectionLost, .truncated, .invalidRequest,
            .libcurlUnavailable:
            needed = ["url", "detail"]
        case .bodyTooLarge, .tooManyRedirects: needed = ["url", "limit"]
        case .redirectedElsewhere: needed = ["url", "origin"]
        case .requestFailed: needed = ["url", "problem", "detail"]
        case .webPage, .notFound: needed = ["provider"]
        case .unusableForecast: needed = ["provider", "problem"]
        case .proxyRefused, .proxyRefusedKey, .keylessRefused, .keyRefused, .serverError:
            needed = ["provider", "status"]
        case .serverErrorAsked: needed = ["provider", "status", "seconds"]
        case .rateLimited, .badRequest: needed = ["provider", "said"]
        case .rateLimitedAsked, .rateLimitedFor: needed = ["provider", "said", "seconds"]
        case .unexpectedStatus: needed = ["provider", "status", "said"]
        case .offline: needed = []
        case .dailyBudgetUsed, .monthlyBudgetUsed, .dailyBudgetKept, .monthlyBudgetKept: needed = ["budget"]
        case .backingOff: needed = ["problem", "seconds"]
        }
        guard needed.allSatisfy({ p[$0] != nil }) else { return nil }
        // Numbers in the reader's digit grouping and separator (`1.500`).
        let numbers: Set<String> = ["budget", "limit", "seconds"]
        let conventions = LocaleConventions.current
        let v = { (name: String) in numbers.contains(name) ? conventions.number(p[name] ?? "") : p[name] ?? "" }
        switch kind {
        case .dnsFailed:
            return tr(
                "could not resolve the host of {url}{detail}; check the network connection and DNS, or the provider's BaseURL=",
                ["url": v("url"), "detail": v("detail")])
        case .connectFailed:
            return tr(
                "could not connect to {url}{detail}; check the network connection, any proxy in http_proxy/https_proxy, or that the server at BaseURL= is up",
                ["url": v("url"), "detail": v("detail")])
        case .tlsFailed:
            return tr(
                "the TLS connection to {url} failed{detail}; check the system clock and CA certificates, or a proxy intercepting TLS",
                ["url": v("url"), "detail": v("detail")])
        case .timedOut:
            return tr(
                "the request to {url} timed out{detail}; the provider or the network is slow, it will be retried later",
                ["url": v("url"), "detail": v("detail")])
        case .connectionLost:
            return tr(
                "the connection to {url} broke before a complete response{detail}; it will be retried later",
                ["url": v("url"), "detail": v("detail")])
        case .truncated:
            return tr(
                "the response from {url} ended before its announced length{detail}; it will be retried later",
                ["url": v("url"), "detail": v("detail")])
        case .bodyTooLarge:
            return tr(
                "the response from {url} is larger than the limit of {limit} bytes; check that BaseURL= points at the weather API",
                ["url": v("url"), "limit": v("limit")])
        case .tooManyRedirects:
            return tr(
                "the request to {url} was redirected more than {limit} times; check BaseURL=",
                ["url": v("url"), "limit": v("limit")])
        case .redirectedElsewhere:
            return tr(
                "the request to {url} was redirected to another server ({origin}), whose answer raind does not take; check BaseURL= (it should name the server that answers)",
                ["url": v("url"), "origin": v("origin")])
        case .invalidRequest:
            return tr(
                "the request to {url} could not be made{detail}; check BaseURL=",
                ["url": v("url"), "detail": v("detail")])
        case .libcurlUnavailable:
            return tr(
                "raind cannot make the request to {url}: libcurl could not be loaded{detail}; install libcurl (Debian's libcurl4 package) and restart raind",
                ["url": v("url"), "detail": v("detail")])
        case .requestFailed:
            return tr(
                "the request to {url} failed: {problem}{detail}",
                ["url": v("url"), "problem": v("problem"), "detail": v("detail")])
        case .webPage:
            return tr(
                "{provider} answered with a web page (a captive portal?), not a forecast; sign in to the network or check [Provider] BaseURL=; raind keeps the cached data and retries later",
                ["provider": v("provider")])
        case .unusableForecast:
            return tr(
                "{provider} sent an unusable forecast ({problem}); raind keeps the cached data and retries later",
                ["provider": v("provider"), "problem": v("problem")])
        case .proxyRefused:
            return tr(
                "{provider} refused the request through the site proxy (HTTP {status}): the proxy does not admit this machine; check the proxy (docs/DEPLOYMENT-PROXY.md), then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then",
                ["provider": v("provider"), "status": v("status")])
        case .proxyRefusedKey:
            return tr(
                "{provider} refused the request through the site proxy (HTTP {status}): the proxy's API key is wrong or the proxy does not admit this machine; check the proxy (docs/DEPLOYMENT-PROXY.md), then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then",
                ["provider": v("provider"), "status": v("status")])
        case .keylessRefused:
            return tr(
                "{provider} refused the request (HTTP {status}); it needs no API key, so check [Provider] BaseURL= and any proxy in between, then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then",
                ["provider": v("provider"), "status": v("status")])
        case .keyRefused:
            return tr(
                "{provider} refused the request (HTTP {status}): the API key is wrong or not allowed; fix it, then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then",
                ["provider": v("provider"), "status": v("status")])
        case .notFound:
            return tr(
                "{provider} answered 404 Not Found; check [Provider] BaseURL= (it should be the provider's base, without a path)",
                ["provider": v("provider")])
        case .rateLimited:
            return tr(
                "{provider} is rate-limiting raind (HTTP 429{said})", ["provider": v("provider"), "said": v("said")])
        case .rateLimitedAsked:
            return tr(
                "{provider} is rate-limiting raind (HTTP 429{said}); it asked raind to wait {seconds} s",
                ["provider": v("provider"), "said": v("said"), "seconds": v("seconds")])
        case .rateLimitedFor:
            return tr(
                "{provider} is rate-limiting raind (HTTP 429{said}); raind waits {seconds} s before asking again",
                ["provider": v("provider"), "said": v("said"), "seconds": v("seconds")])
        case .serverError:
            return tr(
                "{provider} failed (HTTP {status}); raind keeps the cached data and retries later",
                ["provider": v("provider"), "status": v("status")])
        case .serverErrorAsked:
            return tr(
                "{provider} failed (HTTP {status}); it asked raind to wait {seconds} s; raind keeps the cached data and retries later",
                ["provider": v("provider"), "status": v("status"), "seconds": v("seconds")])
        case .badRequest:
            return tr(
                "{provider} refused raind's request (HTTP 400{said}); raind retries later, and an update of raind may be needed if this persists",
                ["provider": v("provider"), "said": v("said")])
        case .unexpectedStatus:
            return tr(
                "{provider} answered HTTP {status}{said}, which raind does not expect; check [Provider] BaseURL=",
                ["provider": v("provider"), "status": v("status"), "said": v("said")])
        case .offline:
            return tr(
                "the network is down, so raind makes no requests; cached data is still served and refreshed when the network returns"
            )
        case .dailyBudgetUsed:
            return tr(
                "the daily budget of {budget} upstream calls is used up; it resets at 00:00 UTC (raise [Refresh] DailyBudget= to allow more)",
                ["budget": v("budget")])
        case .monthlyBudgetUsed:
            return tr(
                "the monthly budget of {budget} upstream calls is used up; it resets on the 1st at 00:00 UTC (raise [Refresh] MonthlyBudget= if your plan allows more)",
                ["budget": v("budget")])
        case .dailyBudgetKept:
            return tr(
                "what is left of the daily budget of {budget} upstream calls is kept for the selected place's refreshes; other places wait until it renews at 00:00 UTC (raise [Refresh] DailyBudget= to allow more)",
                ["budget": v("budget")])
        case .monthlyBudgetKept:
            return tr(
                "what is left of the monthly budget of {budget} upstream calls is kept for the selected place's refreshes; other places wait until it renews on the 1st at 00:00 UTC (raise [Refresh] MonthlyBudget= to allow more)",
                ["budget": v("budget")])
        case .backingOff:
            // The failure it names, in the same language when it is its wording's.
            let problem = cause.flatMap { $0.message == v("problem") ? $0.text : nil } ?? v("problem")
            return tr(
                "the provider failed recently ({problem}); raind retries in {seconds} s",
                ["problem": problem, "seconds": v("seconds")])
        }
    }

    /// The English sentence, as the daemon sends it whatever the thread's locale.
    public var message: String {
        let english = Localization.with(locale: "C") { text }
        return (english ?? text) ?? kind
    }

    /// `message` in the reader's language when it is this wording's English
    /// (`PlaceWording.matching`), else `message` as sent.
    public func localized(_ message: String) -> String {
        PlaceWording.matching(message, [{ text ?? "" }]) ?? message
    }

    /// `" (libcurl's words)"`, or nothing: the `detail` parameter.
    public static func detail(_ words: String) -> String { words.isEmpty ? "" : " (\(words))" }

    /// `": \"the provider's reason\""`, or nothing: the `said` parameter.
    public static func said(_ reason: String?) -> String { reason.map { ": \"\($0)\"" } ?? "" }
}

extension FailureWording {
    /// This wording with `transform` applied to every parameter (a secret
    /// cut out of what the provider echoed).
    public func mapping(_ transform: (String) -> String) -> FailureWording {
        var mapped = self
        mapped.parameters = parameters.mapValues(transform)
        return mapped
    }
}

extension RefreshFailure {
    /// The message and every parameter of its wording passed through `scrub`
    /// (`SecretScrubber`): nothing of a key leaves in either.
    public mutating func scrub(with scrub: (String) -> String) {
        message = scrub(message)
        wording = wording?.mapping(scrub)
    }

    /// The message in the reader's language where raindctl can word it again
    /// (`FailureWording`), else as the daemon sent it.
    public var localizedMessage: String { wording?.localized(message) ?? message }
}

extension ProviderError {
    public var localizedMessage: String { wording?.localized(message) ?? message }
}

extension QuotaExhausted {
    public var localizedMessage: String { wording?.localized(message) ?? message }
}

extension Offline {
    public var localizedMessage: String { wording?.localized(message) ?? message }
}

extension NotConfigured {
    public var localizedMessage: String { wording?.localized(message) ?? message }
}
