import RainCore

/// What a response's caching headers say about how long its data stays fresh,
/// and when a refused request may be retried (RFC 9111 §4.2, RFC 9110 §10.2.3).
///
/// Pure: it reads header values and a clock reading passed in, and answers in
/// absolute Unix seconds, so the scheduler can compare them with its own clock.
public struct HTTPCachePolicy: Equatable, Sendable {
    /// `Cache-Control: max-age=N`, in seconds. An unreadable value counts as 0
    /// (RFC 9111 §4.2.1: invalid freshness information means stale).
    public var maxAge: Int64?
    /// `Cache-Control: no-store`: the provider asks not to keep the data.
    public var noStore: Bool
    /// `Cache-Control: no-cache`: the data may be kept but must be revalidated before reuse.
    public var noCache: Bool
    /// `Expires`, in Unix seconds. An unreadable value (such as `0`) is the epoch:
    /// already expired, as RFC 9111 §5.3 asks.
    public var expires: Int64?
    /// `Date`: when the origin produced the response, by its clock.
    public var date: Int64?
    /// `Age`: seconds the response already spent in caches on the way.
    public var age: Int64?

    public init(
        maxAge: Int64? = nil, noStore: Bool = false, noCache: Bool = false,
        expires: Int64? = nil, date: Int64? = nil, age: Int64? = nil
    ) {
        self.maxAge = maxAge
        self.noStore = noStore
        self.noCache = noCache
        self.expires = expires
        self.date = date
        self.age = age
    }

    /// Reads `cache-control`, `expires`, `date` and `age` from headers keyed by
    /// lower-cased names (as `HTTPResponse.headers` are).
    public init(headers: [String: String]) {
        self.init(
            cacheControl: headers["cache-control"], expires: headers["expires"],
            date: headers["date"], age: headers["age"])
    }

    public init(cacheControl: String?, expires: String?, date: String?, age: String? = nil) {
        self.init()
        if let cacheControl { applyCacheControl(cacheControl) }
        if let expires { self.expires = HTTPDate.parse(expires.trimmed) ?? 0 }
        if let date { self.date = HTTPDate.parse(date.trimmed) }
        if let age { self.age = Self.deltaSeconds(age.trimmed) }
    }

    /// The Unix time until which the response is fresh, or nil when the headers
    /// say nothing about freshness (the caller then uses its own schedule).
    ///
    /// `no-store` and `no-cache` answer `now`: stale at once. `max-age` wins over
    /// `Expires`. `Expires` is measured from the response's own `Date` when it has
    /// one, so a local clock that is off does not stretch or shrink the lifetime.
    /// The `Age` header is subtracted; the apparent age from `Date` is not,
    /// because a local clock running ahead would then shorten every lifetime.
    ///
    /// The lifetime is capped at `maximumFreshness`: a provider (or a proxy)
    /// cannot push the next refresh days or years away.
    public func freshUntil(now: Double) -> Double? {
        if noStore || noCache { return now }
        let used = Double(max(0, age ?? 0))
        if let maxAge { return now + min(Self.maximumFreshness, max(0, Double(maxAge) - used)) }
        if let expires {
            let lifetime = date.map { Double(expires) - Double($0) } ?? (Double(expires) - now)
            return now + min(Self.maximumFreshness, max(0, lifetime - used))
        }
        return nil
    }

    /// How old the data already was on arrival: `Age` in seconds, 0 without
    /// one, capped at `maximumAge`. A site proxy serving its cached (or, with
    /// the provider down, stale) copy says so with `Age`; raind reports that
    /// age rather than pretending the data is new.
    public var dataAge: Double { min(Self.maximumAge, Double(max(0, age ?? 0))) }

    /// Longest age raind takes from `Age`: 30 days. A larger value is a
    /// broken cache, and a fetch time far in the past would not be truer.
    public static let maximumAge: Double = 30 * 86400

    /// Longest freshness raind takes from a response: 6 hours (docs/SCHEDULING.md).
    public static let maximumFreshness: Double = 6 * 3600
    /// Longest wait raind takes from `Retry-After`: 6 hours (docs/SCHEDULING.md).
    public static let maximumRetryAfter: Double = 6 * 3600

    /// The Unix time after which a request refused with `Retry-After` may be sent
    /// again, or nil when the value is neither delta-seconds nor an HTTP-date.
    ///
    /// An HTTP-date is taken relative to the response's `Date` when given
    /// (`serverDate`), so clock skew between raind and the provider does not
    /// matter; a time already past answers `now`.
    /// The wait is capped at `maximumRetryAfter`.
    public static func retryAfter(_ value: String, now: Double, serverDate: String? = nil) -> Double? {
        let text = value.trimmed
        let wait: Double
        if let seconds = deltaSeconds(text) {
            wait = Double(seconds)
        } else if let when = HTTPDate.parse(text) {
            if let serverDate, let origin = HTTPDate.parse(serverDate.trimmed) {
                wait = Double(when) - Double(origin)
            } else {
                wait = Double(when) - now
            }
        } else {
            return nil
        }
        return now + min(maximumRetryAfter, max(0, wait))
    }

    // MARK: Parsing

    private mutating func applyCacheControl(_ value: String) {
        for directive in Self.directives(value) {
            switch directive.name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                let seconds = directive.argument.flatMap(Self.deltaSeconds) ?? 0
                maxAge = min(maxAge ?? seconds, seconds)  // duplicates: the shorter one
            default: break  // s-maxage, public, private...: not for a private client cache
            }
        }
    }

    /// `name[=value]` pairs of a comma-separated directive list; names lower-cased,
    /// quoted values unquoted. Commas inside quotes do not split.
    static func directives(_ value: String) -> [(name: String, argument: String?)] {
        var result: [(String, String?)] = []
        var current = ""
        var quoted = false
        func flush() {
            let item = current.trimmed
            current = ""
            guard !item.isEmpty else { return }
            if let equals = item.firstIndex(of: "=") {
                let name = String(item[..<equals]).trimmed.lowercased()
                var argument = String(item[item.index(after: equals)...]).trimmed
                if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                    argument = String(argument.dropFirst().dropLast())
                }
                result.append((name, argument))
            } else {
                result.append((item.lowercased(), nil))
            }
        }
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted { flush() } else { current.append(character) }
        }
        flush()
        return result
    }

    /// RFC 9111 §1.2.2 delta-seconds: digits only; values past 2^31 are capped there.
    static func deltaSeconds(_ text: String) -> Int64? {
        guard !text.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int64(byte - UInt8(ascii: "0")), 1 << 31)
        }
        return value
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmed: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
