/// A complete HTTP response, whatever its status: a 404 or a 503 is a response
/// too, and deciding what a status means is the caller's business.
public struct HTTPResponse: Equatable, Sendable {
    /// The HTTP protocol version the response came over (CURLINFO_HTTP_VERSION).
    public enum Version: String, Equatable, Sendable {
        case http1_0 = "HTTP/1.0"
        case http1_1 = "HTTP/1.1"
        case http2 = "HTTP/2"
        case http3 = "HTTP/3"
        case unknown = "HTTP/?"
    }

    /// The final status code, after redirects (CURLINFO_RESPONSE_CODE).
    public var status: Int
    /// Header fields of the final response, by lower-cased name (`etag`,
    /// `last-modified`, `cache-control`, `expires`, `retry-after`, `date`,
    /// `content-type`, ...); repeated fields joined with ", ".
    public var headers: [String: String]
    /// The body, already decoded from any Content-Encoding (gzip, br, zstd, deflate).
    public var body: [UInt8]
    public var version: Version

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], version: Version = .http1_1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.version = version
    }

    /// A header field by name, in any case.
    public subscript(header name: String) -> String? { headers[name.lowercased()] }
}
