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
    /// version does not know or a placeholder of its sentence without a
    /// parameter.
    public var text: String? {
        guard let kind = Kind(rawValue: kind) else { return nil }
        let english = Self.sentence(kind)
        // Numbers in the reader's digit grouping and separator (`1.500`).
        let conventions = LocaleConventions.current
        var values = parameters
        for name in ["budget", "limit", "seconds"] { values[name] = values[name].map(conventions.number) }
        // The failure a back-off names, in the same language when it is its wording's.
        if kind == .backingOff, let cause, let problem = values["problem"], cause.message == problem {
            values["problem"] = cause.text ?? problem
        }
        guard Self.placeholders(of: english).allSatisfy({ values[$0] != nil }) else { return nil }
        return Self.filling(Localization.translate(english), with: values)
    }

    /// Each kind's English sentence, with `{name}` for its parameters.
    static func sentence(_ kind: Kind) -> String {
        switch kind {
        case .dnsFailed:
            return Localization.marked(
                "could not resolve the host of {url}{detail}; check the network connection and DNS, or the provider's BaseURL="
            )
        case .connectFailed:
            return Localization.marked(
                "could not connect to {url}{detail}; check the network connection, any proxy in http_proxy/https_proxy, or that the server at BaseURL= is up"
            )
        case .tlsFailed:
            return Localization.marked(
                "the TLS connection to {url} failed{detail}; check the system clock and CA certificates, or a proxy intercepting TLS"
            )
        case .timedOut:
            return Localization.marked(
                "the request to {url} timed out{detail}; the provider or the network is slow, it will be retried later")
        case .connectionLost:
            return Localization.marked(
                "the connection to {url} broke before a complete response{detail}; it will be retried later")
        case .truncated:
            return Localization.marked(
                "the response from {url} ended before its announced length{detail}; it will be retried later")
        case .bodyTooLarge:
            return Localization.marked(
                "the response from {url} is larger than the limit of {limit} bytes; check that BaseURL= points at the weather API"
            )
        case .tooManyRedirects:
            return Localization.marked(
                "the request to {url} was redirected more than {limit} times; check BaseURL=")
        case .redirectedElsewhere:
            return Localization.marked(
                "the request to {url} was redirected to another server ({origin}), whose answer raind does not take; check BaseURL= (it should name the server that answers)"
            )
        case .invalidRequest:
            return Localization.marked(
                "the request to {url} could not be made{detail}; check BaseURL=")
        case .libcurlUnavailable:
            return Localization.marked(
                "raind cannot make the request to {url}: libcurl could not be loaded{detail}; install libcurl (Debian's libcurl4 package) and restart raind"
            )
        case .requestFailed:
            return Localization.marked(
                "the request to {url} failed: {problem}{detail}")
        case .webPage:
            return Localization.marked(
                "{provider} answered with a web page (a captive portal?), not a forecast; sign in to the network or check [Provider] BaseURL=; raind keeps the cached data and retries later"
            )
        case .unusableForecast:
            return Localization.marked(
                "{provider} sent an unusable forecast ({problem}); raind keeps the cached data and retries later")
        case .proxyRefused:
            return Localization.marked(
                "{provider} refused the request through the site proxy (HTTP {status}): the proxy does not admit this machine; check the proxy (docs/DEPLOYMENT-PROXY.md), then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then"
            )
        case .proxyRefusedKey:
            return Localization.marked(
                "{provider} refused the request through the site proxy (HTTP {status}): the proxy's API key is wrong or the proxy does not admit this machine; check the proxy (docs/DEPLOYMENT-PROXY.md), then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then"
            )
        case .keylessRefused:
            return Localization.marked(
                "{provider} refused the request (HTTP {status}); it needs no API key, so check [Provider] BaseURL= and any proxy in between, then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then"
            )
        case .keyRefused:
            return Localization.marked(
                "{provider} refused the request (HTTP {status}): the API key is wrong or not allowed; fix it, then reload raind (systemctl reload raind, or SIGHUP). No requests are made until then"
            )
        case .notFound:
            return Localization.marked(
                "{provider} answered 404 Not Found; check [Provider] BaseURL= (it should be the provider's base, without a path)"
            )
        case .rateLimited:
            return Localization.marked(
                "{provider} is rate-limiting raind (HTTP 429{said})")
        case .rateLimitedAsked:
            return Localization.marked(
                "{provider} is rate-limiting raind (HTTP 429{said}); it asked raind to wait {seconds} s")
        case .rateLimitedFor:
            return Localization.marked(
                "{provider} is rate-limiting raind (HTTP 429{said}); raind waits {seconds} s before asking again")
        case .serverError:
            return Localization.marked(
                "{provider} failed (HTTP {status}); raind keeps the cached data and retries later")
        case .serverErrorAsked:
            return Localization.marked(
                "{provider} failed (HTTP {status}); it asked raind to wait {seconds} s; raind keeps the cached data and retries later"
            )
        case .badRequest:
            return Localization.marked(
                "{provider} refused raind's request (HTTP 400{said}); raind retries later, and an update of raind may be needed if this persists"
            )
        case .unexpectedStatus:
            return Localization.marked(
                "{provider} answered HTTP {status}{said}, which raind does not expect; check [Provider] BaseURL=")
        case .offline:
            return Localization.marked(
                "the network is down, so raind makes no requests; cached data is still served and refreshed when the network returns"
            )
        case .dailyBudgetUsed:
            return Localization.marked(
                "the daily budget of {budget} upstream calls is used up; it resets at 00:00 UTC (raise [Refresh] DailyBudget= to allow more)"
            )
        case .monthlyBudgetUsed:
            return Localization.marked(
                "the monthly budget of {budget} upstream calls is used up; it resets on the 1st at 00:00 UTC (raise [Refresh] MonthlyBudget= if your plan allows more)"
            )
        case .dailyBudgetKept:
            return Localization.marked(
                "what is left of the daily budget of {budget} upstream calls is kept for the selected place's refreshes; other places wait until it renews at 00:00 UTC (raise [Refresh] DailyBudget= to allow more)"
            )
        case .monthlyBudgetKept:
            return Localization.marked(
                "what is left of the monthly budget of {budget} upstream calls is kept for the selected place's refreshes; other places wait until it renews on the 1st at 00:00 UTC (raise [Refresh] MonthlyBudget= to allow more)"
            )
        case .backingOff:
            return Localization.marked(
                "the provider failed recently ({problem}); raind retries in {seconds} s")
        }
    }

    /// The names between braces in `template`.
    static func placeholders(of template: String) -> [String] {
        let bytes = Array(template.utf8)
        return placeholderRanges(in: bytes).map { name(in: bytes, $0) }
    }

    /// `template` with each `{name}` replaced by its value in one pass, so a
    /// value that holds braces (what a provider echoed) is shown, never filled.
    static func filling(_ template: String, with values: [String: String]) -> String {
        let bytes = Array(template.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count + 64)
        var copied = 0
        for placeholder in placeholderRanges(in: bytes) {
            text += bytes[copied..<placeholder.lowerBound]
            if let value = values[name(in: bytes, placeholder)] {
                text += value.utf8
            } else {
                text += bytes[placeholder]
            }
            copied = placeholder.upperBound
        }
        text += bytes[copied...]
        return String(decoding: text, as: UTF8.self)
    }

    /// Where each `{name}` of a template lies, braces included, in order.
    /// Found on the bytes: a template is one of raind's sentences or its
    /// translation, whose braces are placeholders, and reading it a
    /// character at a time was most of writing a failure.
    private static func placeholderRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")),
            let close = bytes[open...].firstIndex(of: UInt8(ascii: "}"))
        {
            ranges.append(open..<(close + 1))
            index = close + 1
        }
        return ranges
    }

    /// The name of the placeholder at `range` (`{name}`).
    private static func name(in bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)], as: UTF8.self)
    }

    /// The English sentence, as the daemon sends it whatever the thread's locale.
    public var message: String {
        Localization.english { text } ?? kind
    }

    /// `message` in the reader's language when it is this wording's English
    /// (`PlaceWording.matching`), else `message` as sent.
    public func localized(_ message: String) -> String {
        if Self.readerWordsAsDaemon() { return message }
        return PlaceWording.matching(message, [{ text ?? "" }]) ?? message
    }

    /// `problem`, one of raind's English sentences (an alert service's or
    /// the air's last failure), in the reader's language: written again from
    /// `wording` when it is that wording's English, else the catalogue's text
    /// for it (a sentence raind marked, such as why no service covers a
    /// place), else as sent (`HTTP 503`, a parser's words).
    public static func localized(_ problem: String, wording: FailureWording?) -> String {
        if readerWordsAsDaemon() { return problem }
        if let wording, let text = PlaceWording.matching(problem, [{ wording.text ?? "" }]) { return text }
        return Localization.translate(problem)
    }

    /// Whether the calling thread words a failure as the daemon does (in C):
    /// English, its literals looked up in no catalogue, and numbers written
    /// as C writes them (`1,500`, `2.5`). Then a message that is a wording's
    /// English is already the reader's, and any other is shown as sent:
    /// either way the message as it came, with nothing worded twice to
    /// compare (most of a status with failures, for an English reader).
    static func readerWordsAsDaemon() -> Bool {
        !Localization.shouldLookUp() && LocaleConventions.current.writesNumbersAsC
    }

    /// `" (libcurl's words)"`, or nothing: the `detail` parameter.
    public static func detail(_ words: String) -> String { words.isEmpty ? "" : " (\(words))" }

    /// `": \"the provider's reason\""`, or nothing: the `said` parameter.
    public static func said(_ reason: String?) -> String { reason.map { ": \"\($0)\"" } ?? "" }
}

extension FailureWording {
    /// Whether raind keeps this wording in its cache with a forecast
    /// (`ProviderFailover`, an alert service's or the air's problem): a short
    /// kind and a few short parameters, no more than its failures write; what
    /// a cache file holds beyond it is refused.
    public var fitsCache: Bool {
        kind.utf8.count <= 64 && parameters.count <= 16
            && parameters.allSatisfy { $0.key.utf8.count <= 64 && $0.value.utf8.count <= 1024 }
    }

    /// This wording when raind keeps it (`fitsCache`), else nil: the English
    /// problem or reason beside it is kept alone, as before wordings.
    public var cacheable: FailureWording? { fitsCache ? self : nil }

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
