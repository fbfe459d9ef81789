import Glibc
import RainCore
import RainDaemonCore
import RainSystem

/// The configured weather provider, ready to ask: its base URL, its key
/// and the request timeouts, around what every provider shares — HTTP
/// statuses, validation of every value, secrets scrubbed. What differs
/// between providers is the provider's (`WeatherProvider`). The API key
/// lives here and nowhere else; only redacted URLs leave.
public struct WeatherSource {
    public let provider: any WeatherProvider
    let baseURL: String
    let apiKey: String?
    /// `[Provider] Proxy=yes`: `baseURL` is a site proxy that holds the key.
    let viaProxy: Bool

    /// Builds the requests as every poller does (User-Agent, conditional headers, timeouts).
    let client: UpstreamClient
    /// Why no request can be made with this configuration (a missing key); nil when ready.
    public let configurationProblem: RefreshFailure?
    /// Something about the configuration to warn of that stops nothing (a
    /// key file other users can read), logged at start and at each reload.
    public let configurationWarning: String?
    /// Largest forecast body accepted; a larger one is an error, not memory growth.
    static let maximumBodyBytes = UpstreamClient.maximumBodyBytes

    /// The configured provider's name.
    public var name: ProviderName { provider.name }

    /// `User-Agent` with `[Provider] Contact=`, for providers that require
    /// identification; nil: the HTTP client's own (`raind/VERSION (+URL)`).
    var userAgent: String? { client.userAgent }

    /// The source of the configured provider (`Name=`), or with `Name=auto` the standard one.
    init(configuration: Configuration, credentialsDirectory: String?) {
        self.init(
            provider: configuration.provider ?? WeatherProviders.standard.name, configuration: configuration,
            credentialsDirectory: credentialsDirectory)
    }

    /// Builds `name`'s source from the configuration; a missing key for a
    /// provider that needs one is a `NotConfigured` failure kept for every request.
    init(provider name: ProviderName, configuration: Configuration, credentialsDirectory: String?) {
        provider = WeatherProviders.provider(name)
        client = UpstreamClient(configuration: configuration)
        viaProxy = configuration.proxy
        baseURL = configuration.baseURL ?? provider.defaultBaseURL
        if configuration.proxy {
            apiKey = nil
            configurationProblem = Self.proxyProblem(configuration)
            configurationWarning = nil
        } else if provider.terms.needsKey {
            (apiKey, configurationProblem, configurationWarning) = Self.readKey(
                provider: provider.name, configuration: configuration, credentialsDirectory: credentialsDirectory)
        } else {
            apiKey = nil
            configurationProblem = nil
            configurationWarning = nil
        }
    }

    /// `Proxy=yes` means the key lives at `BaseURL=`; without one, requests
    /// would reach the provider itself with no key.
    static func proxyProblem(_ configuration: Configuration) -> RefreshFailure? {
        guard configuration.baseURL == nil else { return nil }
        return RefreshFailure(
            error: .notConfigured,
            message:
                "[Provider] Proxy=yes needs BaseURL= set to the site proxy that holds the API key; set it, then reload raind"
        )
    }

    /// `$CREDENTIALS_DIRECTORY/api-key` (systemd `LoadCredential=`), else `ApiKeyFile=`.
    static func readKey(
        provider: ProviderName, configuration: Configuration, credentialsDirectory: String?
    ) -> (String?, RefreshFailure?, String?) {
        var tried: [String] = []
        var malformed: String?
        for path in [credentialsDirectory.map { $0 + "/api-key" }, configuration.apiKeyFile].compactMap({ $0 }) {
            tried.append(path)
            var mode: mode_t = 0
            guard case .success(let bytes) = FileIO.readFile(path, limit: 4096, mode: &mode) else { continue }
            let key = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
            if !key.isEmpty, !key.contains(where: { $0 == "/" || $0 == " " || $0 == "?" || $0 == "#" }) {
                // Group read is the system instance's documented root:raind 0640; others never need it.
                let open: Bool = mode & 0o007 != 0
                let octal = String(UInt32(mode & 0o777), radix: 8)
                let warning: String? =
                    open
                    ? "the API key file \(path) can be read by every user of this machine (mode 0\(octal)); make it private: chmod 600 \(path) (or root:raind 0640 for the system instance), or pass it with LoadCredential=api-key:... (docs/CONFIGURATION.md, \"API key\")"
                    : nil
                return (key, nil, warning)
            }
            malformed = malformed ?? path
        }
        if let malformed {
            return (
                nil,
                RefreshFailure(
                    error: .notConfigured,
                    message:
                        "the API key in \(malformed) is empty or malformed; put the key alone in that file and reload raind"
                ), nil
            )
        }
        let keyless = WeatherProviders.all.first { !$0.terms.needsKey }?.name ?? WeatherProviders.standard.name
        let looked =
            tried.isEmpty ? "no key file is configured" : "no readable key in " + tried.joined(separator: " or ")
        return (
            nil,
            RefreshFailure(
                error: .notConfigured,
                message:
                    "\(provider) needs an API key and \(looked); set [Provider] ApiKeyFile= or LoadCredential=api-key:..., then reload raind (or use Name=\(keyless), which needs none)"
            ), nil
        )
    }

    /// What to ask for `location` at `now`, as HTTP requests: a provider's
    /// `ProviderPlan` with the base URL, the key, the timeouts and, for a
    /// forecast of one request, the cached answer's validators when the
    /// provider's terms allow (several answers are parsed together, so a 304
    /// for one of them would leave nothing to parse). `units`: what the
    /// person reads in. `lookup`: what an earlier lookup found, while fresh.
    enum Plan {
        case forecast([HTTPRequest])
        case lookup(HTTPRequest)
        case notCovered(RefreshFailure)
    }

    func plan(
        for location: Location, units: UnitSystem = .si, cached: CachedForecast?, lookup: ProviderLookup?, now: Double
    ) -> Plan {
        let live = lookup.flatMap { $0.expiresAt > now && $0.validationProblem == nil ? $0 : nil }
        let asked = provider.plan(for: location, units: units, key: apiKey, lookup: live, now: now)
        let redacted = provider.plan(
            for: location, units: units, key: apiKey.map { _ in URLRedaction.placeholder }, lookup: live, now: now)
        switch (asked, redacted) {
        case (.forecast(let requests), .forecast(let shown)) where requests.count == shown.count && !requests.isEmpty:
            let conditional = provider.terms.conditionalRequests && requests.count == 1
            return .forecast(
                zip(requests, shown).map { httpRequest($0, redacted: $1, validators: conditional ? cached : nil) })
        case (.lookup(let request), .lookup(let shown)):
            return .lookup(httpRequest(request, redacted: shown, validators: nil))
        case (.notCovered(let reason), _):
            return .notCovered(Self.notCovered(provider.name, reason))
        default:
            return .notCovered(
                Self.notCovered(provider.name, "it asked for nothing raind can send; an update of raind may be needed"))
        }
    }

    static func notCovered(_ name: ProviderName, _ reason: String) -> RefreshFailure {
        RefreshFailure(
            error: .providerError,
            message:
                "\(name) has no data for this place (\(reason)); list a provider that has in [Provider] Providers= or use Name=auto, then reload raind"
        )
    }

    private func httpRequest(
        _ asked: ProviderRequest, redacted: ProviderRequest, validators cached: CachedForecast?
    )
        -> HTTPRequest
    {
        client.request(
            baseURL + asked.path, redactedURL: baseURL + redacted.path, headers: asked.headers, etag: cached?.etag,
            lastModified: cached?.lastModified)
    }

    /// The first request for `location` with no lookup: a provider of one
    /// request's forecast request, conditional on `cached`.
    func request(for location: Location, units: UnitSystem = .si, cached: CachedForecast?) -> HTTPRequest? {
        switch plan(for: location, units: units, cached: cached, lookup: nil, now: 0) {
        case .forecast(let requests): return requests.first
        case .lookup(let request): return request
        case .notCovered: return nil
        }
    }

    /// What came back, as a forecast to keep or a failure a person can act on.
    enum Outcome {
        /// `leftOut`: parts the provider sent that could not be used, and why (for the log).
        case fresh(CachedForecast, leftOut: [String])
        /// 304: the cached data is still current; `age`: how long it has been
        /// (a proxy's `Age`, else 0).
        case notModified(expiresAt: Double?, age: Double)
        case failed(RefreshFailure)
    }

    /// The answer to a provider of one request.
    func interpret(_ result: Result<HTTPResponse, HTTPFailure>, for location: Location, now: Double) -> Outcome {
        interpret([result], for: location, now: now)
    }

    /// What came back for a `.forecast` plan's requests, in its order, with
    /// every text the provider or libcurl wrote scrubbed of the key and the
    /// requests' queries (`SecretScrubber`) before raind keeps, logs or sends it.
    func interpret(_ results: [Result<HTTPResponse, HTTPFailure>], for location: Location, now: Double) -> Outcome {
        let scrubbers = scrubbers(for: location, now: now)
        let scrub: (String) -> String = { text in scrubbers.reduce(text) { $1.scrub($0) } }
        switch outcome(results, for: location, now: now) {
        case .fresh(var cached, let leftOut):
            for scrubber in scrubbers {
                cached.forecast = Self.scrubbed(cached.forecast, with: scrubber)
                if let etag = cached.etag, scrubber.reveals(etag) || etag.containsControlCharacters {
                    cached.etag = nil
                }
                if let modified = cached.lastModified, scrubber.reveals(modified) || modified.containsControlCharacters
                {
                    cached.lastModified = nil
                }
            }
            return .fresh(cached, leftOut: leftOut.map(scrub))
        case .notModified(let expiresAt, let age):
            return .notModified(expiresAt: expiresAt, age: age)
        case .failed(var failure):
            failure.scrub(with: scrub)
            return .failed(failure)
        }
    }

    /// What a `.lookup` request's answer found, or why it failed (scrubbed).
    func interpretLookup(
        _ result: Result<HTTPResponse, HTTPFailure>, for location: Location, now: Double
    ) -> Result<
        ProviderLookup, RefreshFailure
    > {
        let scrubbers = scrubbers(for: location, now: now)
        let scrub: (String) -> String = { text in scrubbers.reduce(text) { $1.scrub($0) } }
        let name = provider.name.rawValue
        switch result {
        case .success(let response) where response.status == 200:
            do throws(ProviderParseError) {
                let lookup = try provider.parseLookup(response.body, for: location, now: now)
                if let problem = lookup.validationProblem {
                    throw ProviderParseError(provider: name, field: "", problem: .invalidValue(problem))
                }
                return .success(lookup)
            } catch {
                if case .notCovered(let reason) = error.problem {
                    return .failure(Self.notCovered(provider.name, scrub(reason)))
                }
                return .failure(
                    RefreshFailure(
                        error: .providerError,
                        message: scrub(
                            "\(name) sent an unusable answer to raind's lookup of the place (\(error)); raind retries later"
                        ),
                        httpStatus: 200))
            }
        case .success(let response) where response.status == 404:
            return .failure(Self.notCovered(provider.name, "its lookup of the place answered 404 Not Found"))
        default:
            guard case .failed(var failure) = outcome([result], for: location, now: now) else {
                return .failure(
                    RefreshFailure(error: .providerError, message: "\(name) answered raind's lookup unexpectedly"))
            }
            failure.scrub(with: scrub)
            return .failure(failure)
        }
    }

    /// One scrubber for each URL raind may ask about `location` now.
    private func scrubbers(for location: Location, now: Double) -> [SecretScrubber] {
        var requests: [HTTPRequest] = []
        switch plan(for: location, cached: nil, lookup: nil, now: now) {
        case .forecast(let asked): requests = asked
        case .lookup(let asked): requests = [asked]
        case .notCovered: break
        }
        if requests.isEmpty { return [SecretScrubber(secret: apiKey, url: baseURL, redactedURL: baseURL)] }
        return requests.map { SecretScrubber(secret: apiKey, url: $0.url, redactedURL: $0.redactedURL) }
    }

    /// The forecast's provider-written texts without secrets.
    static func scrubbed(_ forecast: Forecast, with scrubber: SecretScrubber) -> Forecast {
        var result = forecast
        result.timeZone = scrubber.scrub(forecast.timeZone)
        if var current = result.current {
            current.summary = scrubber.scrub(current.summary)
            current.icon = scrubber.scrub(current.icon)
            result.current = current
        }
        for index in result.hourly.indices {
            result.hourly[index].summary = scrubber.scrub(result.hourly[index].summary)
            result.hourly[index].icon = scrubber.scrub(result.hourly[index].icon)
        }
        for index in result.daily.indices {
            result.daily[index].summary = scrubber.scrub(result.daily[index].summary)
            result.daily[index].icon = scrubber.scrub(result.daily[index].icon)
        }
        for index in result.alerts.indices {
            var alert = result.alerts[index]
            alert.title = scrubber.scrub(alert.title)
            alert.regions = alert.regions.map(scrubber.scrub)
            alert.description = scrubber.removingSecrets(alert.description)
            alert.uri = scrubber.scrub(alert.uri)
            result.alerts[index] = alert
        }
        return result
    }

    /// The first failed answer's failure; else the answers parsed together.
    private func outcome(
        _ results: [Result<HTTPResponse, HTTPFailure>], for location: Location, now: Double
    )
        -> Outcome
    {
        var responses: [HTTPResponse] = []
        for result in results {
            // What every poller reads alike (`UpstreamClient.Outcome`); what a status means here is the provider's.
            switch UpstreamClient.outcome(result, now: now) {
            case .failed(let failure), .unreached(let failure):
                return .failed(Self.failure(from: failure))
            case .answered(let answer):
                responses.append(answer)
            case .notModified(let answer):
                return outcome(answer, all: [answer], retryAfter: nil, for: location, now: now)
            case .refused(let answer, let retryAfter):
                return outcome(answer, all: [answer], retryAfter: retryAfter, for: location, now: now)
            }
        }
        guard let first = responses.first else {
            return .failed(RefreshFailure(error: .providerError, message: "\(provider.name) was asked nothing"))
        }
        return outcome(first, all: responses, retryAfter: nil, for: location, now: now)
    }

    /// `response` is the first answer (its status decides; 200 and 203 hand
    /// all answers to the parser), `all` every answer of the plan;
    /// `retryAfter` what a refusal's `Retry-After` asked for.
    private func outcome(
        _ response: HTTPResponse, all: [HTTPResponse], retryAfter: Double?, for location: Location, now: Double
    )
        -> Outcome
    {
        let policy = HTTPCachePolicy(headers: response.headers)
        let expiresAt = policy.freshUntil(now: now)
        // A cache on the way (a site proxy) says how old its copy already is.
        let fetchedAt = now - policy.dataAge
        let refusal = provider.refusal(in: response.body, now: now)
        let name = provider.name.rawValue
        let said = FailureWording.said(refusal?.reason)
        let status = String(response.status)
        switch response.status {
        case 200 where all.contains(where: Self.isWebPage), 203 where all.contains(where: Self.isWebPage):
            // A network that intercepts requests (a hotel's or a train's sign-in page) answers 200 with HTML.
            return .failed(
                RefreshFailure(
                    error: .providerError, wording: FailureWording(.webPage, ["provider": name]),
                    httpStatus: response.status))
        case 200, 203:
            do {
                var leftOut: [String] = []
                if all.contains(where: { $0.status == 203 }) { leftOut.append(Self.deprecationNotice(provider.name)) }
                // The zone the provider answers with is only known after parsing; the place's is asked for first.
                let placeZone = ZoneInfo.system.rules(named: location.timeZone)
                var forecast = try provider.parseForecast(
                    all.map(\.body), for: location, zone: placeZone, fetchedAt: fetchedAt
                ) { leftOut.append($0) }
                forecast.expiresAt = expiresAt ?? provider.terms.defaultLifetime.map { fetchedAt + $0 }
                if let zone = forecast.timeZone.isEmpty ? placeZone : ZoneInfo.system.rules(named: forecast.timeZone) {
                    forecast.alignDays(to: zone)
                }
                if let cut = forecast.cutToHorizon() { leftOut.append(cut) }
                if let problem = forecast.validationProblem() {
                    throw ProviderParseError(
                        provider: name, field: problem.field, problem: .invalidValue(problem.reason))
                }
                return .fresh(
                    CachedForecast(
                        forecast: forecast, latitude: location.latitude, longitude: location.longitude,
                        etag: response[header: "etag"], lastModified: response[header: "last-modified"]),
                    leftOut: leftOut)
            } catch {
                return .failed(
                    RefreshFailure(
                        error: .providerError,
                        wording: FailureWording(.unusableForecast, ["provider": name, "problem": "\(error)"]),
                        httpStatus: 200))
            }
        case 304:
            return .notModified(expiresAt: expiresAt, age: policy.dataAge)
        case 401 where viaProxy, 403 where viaProxy:
            // Only a keyed provider's requests carry a key the proxy adds.
            let kind: FailureWording.Kind = provider.terms.needsKey ? .proxyRefusedKey : .proxyRefused
            return .failed(
                RefreshFailure(
                    error: .providerError, wording: FailureWording(kind, ["provider": name, "status": status]),
                    httpStatus: response.status))
        case 401 where apiKey == nil, 403 where apiKey == nil:
            // A provider that takes no key refused for another reason: a proxy, a block, a wrong BaseURL=.
            return .failed(
                RefreshFailure(
                    error: .providerError,
                    wording: FailureWording(.keylessRefused, ["provider": name, "status": status]),
                    httpStatus: response.status))
        case 401, 403:
            return .failed(
                RefreshFailure(
                    error: .providerError, wording: FailureWording(.keyRefused, ["provider": name, "status": status]),
                    httpStatus: response.status))
        case 404:
            return .failed(
                RefreshFailure(
                    error: .providerError, wording: FailureWording(.notFound, ["provider": name]), httpStatus: 404))
        case 429:
            // Open-Meteo sends no Retry-After; its reason names the limit hit, which says how long to wait.
            if retryAfter == nil, let wait = refusal?.retryAfter {
                return .failed(
                    RefreshFailure(
                        error: .providerError,
                        wording: FailureWording(
                            .rateLimitedFor,
                            ["provider": name, "said": said, "seconds": String(Int((wait - now).rounded(.up)))]),
                        httpStatus: 429, retryAfter: wait))
            }
            return .failed(
                RefreshFailure(
                    error: .providerError,
                    wording: FailureWording(
                        retryAfter == nil ? .rateLimited : .rateLimitedAsked,
                        Self.waiting(["provider": name, "said": said], retryAfter, now: now)),
                    httpStatus: 429, retryAfter: retryAfter))
        case 500...599:
            return .failed(
                RefreshFailure(
                    error: .providerError,
                    wording: FailureWording(
                        retryAfter == nil ? .serverError : .serverErrorAsked,
                        Self.waiting(["provider": name, "status": status], retryAfter, now: now)),
                    httpStatus: response.status, retryAfter: retryAfter))
        case 400 where refusal != nil:
            return .failed(
                RefreshFailure(
                    error: .providerError, wording: FailureWording(.badRequest, ["provider": name, "said": said]),
                    httpStatus: 400, retryAfter: retryAfter))
        default:
            return .failed(
                RefreshFailure(
                    error: .providerError,
                    wording: FailureWording(.unexpectedStatus, ["provider": name, "status": status, "said": said]),
                    httpStatus: response.status, retryAfter: retryAfter))
        }
    }

    /// Whether an answer is an HTML page (its type says so, or its body
    /// starts with a tag): no provider raind asks answers with one.
    static func isWebPage(_ response: HTTPResponse) -> Bool {
        if let type = response[header: "content-type"]?.lowercased(),
            type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
        {
            return true
        }
        guard let first = response.body.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
        else { return false }
        return response.body[first] == UInt8(ascii: "<")
    }

    /// What a 203 answer means (met.no: Non-Authoritative Information marks
    /// a product about to be withdrawn); logged once.
    static func deprecationNotice(_ name: ProviderName) -> String {
        "\(name) says the product raind asks for is deprecated (HTTP 203); an update of raind will be needed before it is withdrawn"
    }

    /// `parameters` with the seconds `Retry-After` asked raind to wait, when it did.
    static func waiting(_ parameters: [String: String], _ retryAfter: Double?, now: Double) -> [String: String] {
        guard let retryAfter else { return parameters }
        var waiting = parameters
        waiting["seconds"] = String(Int(min(max(retryAfter - now, 0), 1e9).rounded(.up)))
        return waiting
    }

    /// Transport failures: those that mean the provider was not reached count as
    /// `Offline`; a libcurl that cannot be loaded is this machine's setup, `NotConfigured`.
    static func failure(from failure: HTTPFailure) -> RefreshFailure {
        switch failure.kind {
        case .dnsFailed, .connectFailed:
            return RefreshFailure(error: .offline, wording: failure.wording)
        case .libcurlUnavailable:
            return RefreshFailure(error: .notConfigured, wording: failure.wording)
        default:
            return RefreshFailure(error: .providerError, wording: failure.wording)
        }
    }
}
