import CCurl
import CShims
import RainCore

/// Why a request produced no response, in kinds a user (or the scheduler) can
/// act on. The message names the request by its redacted URL only; libcurl's
/// own detail text is scrubbed of the URL's secret before it is kept.
public struct HTTPFailure: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The host (or the proxy) name did not resolve: offline, or DNS trouble.
        case dnsFailed
        /// No connection: refused, unreachable, or no route.
        case connectFailed
        /// The TLS handshake or the certificate check failed.
        case tlsFailed
        /// The connect, total or stall timeout ran out.
        case timedOut
        /// The connection broke, or closed without a complete response.
        case connectionLost
        /// The body ended before the length the server announced.
        case truncated
        /// The body was larger than `HTTPRequest.maxBodyBytes`.
        case bodyTooLarge(limit: Int)
        /// More redirects than the client follows.
        case tooManyRedirects(limit: Int)
        /// A redirect led to another server (host or port) than the one
        /// asked, whose answer raind does not take: `origin` is where.
        case redirectedElsewhere(origin: String)
        /// The URL or a header field could not be used.
        case invalidRequest
        /// libcurl could not be loaded (`raind_curl_load`): not installed, or broken.
        case libcurlUnavailable
        /// Anything else, with libcurl's text for it.
        case other(String)
    }

    public let kind: Kind
    /// The request's URL with its secret removed.
    public let redactedURL: String
    /// libcurl's detailed message (CURLOPT_ERRORBUFFER) or ours, already scrubbed; may be empty.
    public let detail: String

    public init(_ kind: Kind, redactedURL: String, detail: String = "") {
        self.kind = kind
        self.redactedURL = redactedURL
        self.detail = detail
    }

    /// What failed, on which URL, and what to do about it.
    public var message: String {
        let url = redactedURL
        let because = detail.isEmpty ? "" : " (\(detail))"
        switch kind {
        case .dnsFailed:
            return
                "could not resolve the host of \(url)\(because); check the network connection and DNS, or the provider's BaseURL="
        case .connectFailed:
            return
                "could not connect to \(url)\(because); check the network connection, any proxy in http_proxy/https_proxy, or that the server at BaseURL= is up"
        case .tlsFailed:
            return
                "the TLS connection to \(url) failed\(because); check the system clock and CA certificates, or a proxy intercepting TLS"
        case .timedOut:
            return
                "the request to \(url) timed out\(because); the provider or the network is slow, it will be retried later"
        case .connectionLost:
            return "the connection to \(url) broke before a complete response\(because); it will be retried later"
        case .truncated:
            return "the response from \(url) ended before its announced length\(because); it will be retried later"
        case .bodyTooLarge(let limit):
            return
                "the response from \(url) is larger than the limit of \(limit) bytes; check that BaseURL= points at the weather API"
        case .tooManyRedirects(let limit):
            return "the request to \(url) was redirected more than \(limit) times; check BaseURL="
        case .redirectedElsewhere(let origin):
            return
                "the request to \(url) was redirected to another server (\(origin)), whose answer raind does not take; check BaseURL= (it should name the server that answers)"
        case .invalidRequest:
            return "the request to \(url) could not be made\(because); check BaseURL="
        case .libcurlUnavailable:
            return
                "raind cannot make the request to \(url): libcurl could not be loaded\(because); install libcurl (Debian's libcurl4 package) and restart raind"
        case .other(let text):
            return "the request to \(url) failed: \(text)\(because)"
        }
    }

    public var description: String { message }

    /// Whether the request surely never left this machine: libcurl could
    /// not be loaded. (A URL libcurl refuses may come from a redirect, after
    /// the provider was asked.)
    public var neverSent: Bool { kind == .libcurlUnavailable }
}

extension HTTPFailure.Kind {
    /// The kind for a transfer that ended with `code` (not CURLE_OK).
    /// `bodyLimitHit` tells a CURLE_WRITE_ERROR caused by our own body cap apart.
    init(_ code: CURLcode, bodyLimit: Int, bodyLimitHit: Bool, redirectLimit: Int) {
        if bodyLimitHit {
            self = .bodyTooLarge(limit: bodyLimit)
            return
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .dnsFailed
        case CURLE_COULDNT_CONNECT:
            self = .connectFailed
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            self = .tlsFailed
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            self = .connectionLost
        case CURLE_PARTIAL_FILE:
            self = .truncated
        case CURLE_FILESIZE_EXCEEDED:
            self = .bodyTooLarge(limit: bodyLimit)
        case CURLE_TOO_MANY_REDIRECTS:
            self = .tooManyRedirects(limit: redirectLimit)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            self = .invalidRequest
        default:
            self = .other(String(cString: raind_curl_easy_strerror(code)))
        }
    }
}
