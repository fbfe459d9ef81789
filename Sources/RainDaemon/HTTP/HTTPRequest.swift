/// A GET request for `HTTPClient`: where, with which extra header fields, and
/// the limits that keep a misbehaving server from holding the daemon.
///
/// `url` may carry a secret (an API key in its path or query). Only
/// `redactedURL` is ever shown: in logs, in `HTTPFailure` messages, and when the
/// request itself is printed or dumped.
public struct HTTPRequest: Sendable {
    /// The URL fetched, secret included. Never log it.
    public var url: String
    /// `url` with its secret replaced, e.g. `.../forecast/<redacted>/52.2,6.9`.
    /// The caller builds it because only the caller knows where the secret is;
    /// for a URL without one it is the URL itself.
    public var redactedURL: String
    /// Extra request header fields, such as `If-None-Match` or
    /// `If-Modified-Since`. Names and values must not contain line breaks.
    public var headers: [String: String]
    /// Longest wait for the connection, TLS handshake included (CURLOPT_CONNECTTIMEOUT_MS).
    public var connectTimeout: Duration
    /// Longest time for the whole transfer, redirects included (CURLOPT_TIMEOUT_MS).
    public var totalTimeout: Duration
    /// Stall detection: the transfer is aborted when it moves fewer than
    /// `stallBytesPerSecond` bytes per second for this long, whole seconds
    /// (CURLOPT_LOW_SPEED_TIME / CURLOPT_LOW_SPEED_LIMIT).
    public var stallTimeout: Duration
    public var stallBytesPerSecond: Int
    /// Largest body accepted, after decompression. A larger one ends the transfer
    /// with `HTTPFailure.Kind.bodyTooLarge` instead of growing memory.
    public var maxBodyBytes: Int

    public init(
        url: String, redactedURL: String, headers: [String: String] = [:],
        connectTimeout: Duration = .seconds(10), totalTimeout: Duration = .seconds(30),
        stallTimeout: Duration = .seconds(15), stallBytesPerSecond: Int = 1,
        maxBodyBytes: Int = 4 * 1024 * 1024
    ) {
        self.url = url
        self.redactedURL = redactedURL
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.stallTimeout = stallTimeout
        self.stallBytesPerSecond = stallBytesPerSecond
        self.maxBodyBytes = maxBodyBytes
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "GET \(redactedURL)" }
    public var debugDescription: String { "HTTPRequest(GET \(redactedURL))" }
    /// `dump` and debuggers see the redacted URL only.
    public var customMirror: Mirror {
        Mirror(self, children: ["redactedURL": redactedURL, "headers": headers.keys.sorted()])
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a positive duration never becomes 0
    /// (which libcurl reads as "no timeout"); at least 1.
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(max(1, millis))
    }

    /// Whole seconds, rounded up; at least 1.
    var curlSeconds: Int {
        let (seconds, attoseconds) = components
        return Int(max(1, seconds + (attoseconds > 0 ? 1 : 0)))
    }
}
