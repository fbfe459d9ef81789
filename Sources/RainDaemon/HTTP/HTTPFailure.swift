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
    public var message: String { wording.message }

    /// `message`'s kind and parameters, for a reader's language.
    public var wording: FailureWording {
        var parameters = ["url": redactedURL, "detail": FailureWording.detail(detail)]
        let kind: FailureWording.Kind
        switch self.kind {
        case .dnsFailed: kind = .dnsFailed
        case .connectFailed: kind = .connectFailed
        case .tlsFailed: kind = .tlsFailed
        case .timedOut: kind = .timedOut
        case .connectionLost: kind = .connectionLost
        case .truncated: kind = .truncated
        case .bodyTooLarge(let limit):
            kind = .bodyTooLarge
            parameters["limit"] = String(limit)
        case .tooManyRedirects(let limit):
            kind = .tooManyRedirects
            parameters["limit"] = String(limit)
        case .redirectedElsewhere(let origin):
            kind = .redirectedElsewhere
            parameters["origin"] = origin
        case .invalidRequest: kind = .invalidRequest
        case .libcurlUnavailable: kind = .libcurlUnavailable
        case .other(let text):
            kind = .requestFailed
            parameters["problem"] = text
        }
        return FailureWording(kind, parameters)
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
