import RainCore
import RainDaemonCore

/// What every poller (forecasts, air quality, official alerts) shares
/// about asking an upstream service: the request as raind sends it
/// (`User-Agent` with `[Provider] Contact=`, the conditional headers, the
/// timeouts, the body limit), the answer read into a typed `Outcome`, and
/// the refund rule. What a status means beyond that — a provider's refusal
/// wording, its own error bodies — stays with the provider.
struct UpstreamClient: Sendable {
    /// `User-Agent` with `[Provider] Contact=`, for services that require
    /// identification; nil: the HTTP client's own (`raind/VERSION (+URL)`).
    let userAgent: String?
    let connectTimeout: Int
    let totalTimeout: Int
    /// Largest body accepted; a larger one is an error, not memory growth.
    static let maximumBodyBytes = 4 << 20

    init(configuration: Configuration) {
        userAgent = configuration.contact.map { RaindVersion.userAgent(contact: $0) }
        connectTimeout = configuration.connectTimeoutSeconds
        totalTimeout = configuration.timeoutSeconds
    }

    /// The request for `url` (`redactedURL` where it carries a secret) with
    /// the service's `headers`, conditional on `etag` and `lastModified` when given.
    func request(
        _ url: String, redactedURL: String? = nil, headers: [String: String] = [:], etag: String? = nil,
        lastModified: String? = nil
    ) -> HTTPRequest {
        var headers = headers
        if let userAgent { headers["User-Agent"] = userAgent }
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return HTTPRequest(
            url: url, redactedURL: redactedURL ?? url, headers: headers, connectTimeout: .seconds(connectTimeout),
            totalTimeout: .seconds(totalTimeout), maxBodyBytes: Self.maximumBodyBytes)
    }

    /// What became of one request.
    enum Outcome: Equatable {
        /// 200, or 203 (met.no: a product about to be withdrawn, still served).
        case answered(HTTPResponse)
        /// 304: what raind holds is still current.
        case notModified(HTTPResponse)
        /// Any other status: the service refused or failed, and asked to
        /// be left alone until `retryAfter` (its `Retry-After`) when it did.
        case refused(HTTPResponse, retryAfter: Double?)
        /// The transfer failed after the request may have reached the service: it counts.
        case failed(HTTPFailure)
        /// The request never reached the service: it counts nothing (`refundable`).
        case unreached(HTTPFailure)

        /// Whether what was spent for the request is given back.
        var refundable: Bool {
            if case .unreached = self { return true }
            return false
        }

        /// In a few words, for a poller without words of its own: "HTTP 503", or the transport's message.
        var problem: String? {
            switch self {
            case .answered, .notModified: return nil
            case .refused(let response, _): return "HTTP \(response.status)"
            case .failed(let failure), .unreached(let failure): return failure.message
            }
        }
    }

    /// `result` read into an `Outcome`; `now` reads a `Retry-After` date.
    static func outcome(_ result: Result<HTTPResponse, HTTPFailure>, now: Double) -> Outcome {
        switch result {
        case .failure(let failure):
            return neverReached(failure) ? .unreached(failure) : .failed(failure)
        case .success(let response) where response.status == 200 || response.status == 203:
            return .answered(response)
        case .success(let response) where response.status == 304:
            return .notModified(response)
        case .success(let response):
            let retryAfter = response[header: "retry-after"].flatMap {
                HTTPCachePolicy.retryAfter($0, now: now, serverDate: response[header: "date"])
            }
            return .refused(response, retryAfter: retryAfter)
        }
    }

    /// The refund rule: a request never reached the service when libcurl
    /// could not send it at all, or the service's name could not be
    /// resolved or its address connected to (nothing was asked of it).
    static func neverReached(_ failure: HTTPFailure) -> Bool {
        failure.neverSent || failure.kind == .dnsFailed || failure.kind == .connectFailed
    }
}
