import CCurl
import CShims
import RainCore
import RainSystem

/// HTTP GET on libcurl's multi interface, driven by the daemon's sd-event loop.
/// Everything runs on the loop's thread, and the loop never blocks on the network.
///
/// How the two meet:
/// - libcurl says which sockets it wants watched, and for what, through
///   CURLMOPT_SOCKETFUNCTION; each becomes an `EventLoop.watch` source, changed
///   or removed when libcurl asks.
/// - libcurl says when it next needs to be called through
///   CURLMOPT_TIMERFUNCTION; that arms one `EventLoop.timer` (-1 disarms it).
/// - When a socket is ready or the timer fires, the loop calls
///   curl_multi_socket_action, then reads finished transfers with
///   curl_multi_info_read and calls their completions.
///
/// Reentrancy: libcurl's callbacks only record what libcurl wants (watches,
/// the timer, header and body bytes); they never call back into libcurl.
/// Completions run after curl_multi_socket_action has returned, so a completion
/// may start another request or cancel one. A precondition traps any path that
/// would enter libcurl from inside one of its own callbacks.
///
/// The only thread besides the loop's is libcurl's own resolver thread
/// (its threaded asynchronous DNS), which never runs raind code.
///
/// SIGPIPE: with CURLOPT_NOSIGNAL set, libcurl no longer ignores SIGPIPE around
/// its calls, and OpenSSL may write to a connection the peer has reset. The
/// process must block or ignore SIGPIPE; `Daemon` blocks it (`loop.onSignal(SIGPIPE)`).
public final class HTTPClient {
    /// Why the client could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        let error: SystemError

        public var description: String { "cannot set up the HTTP timer: \(error)" }
    }

    /// Redirects followed before a request fails with `tooManyRedirects` (CURLOPT_MAXREDIRS).
    public static let maxRedirects = 3

    /// Connections open at once, all hosts together
    /// (CURLMOPT_MAX_TOTAL_CONNECTIONS): further transfers wait in libcurl's
    /// queue, so `refresh --all` over many places holds a few descriptors,
    /// not one per place. Their timeouts start when they leave the queue.
    public static let maxConnections = 8
    /// Connections open at once to one host (CURLMOPT_MAX_HOST_CONNECTIONS).
    public static let maxHostConnections = 4
    /// How long connections are kept open for reuse after the last transfer
    /// ends; then they are all closed (the multi handle is released).
    public static let idleSeconds: Double = 30

    private let loop: EventLoop
    private let userAgent: String
    private let logger: Logger
    /// Made at the first request, which is when libcurl is loaded: see `readyMulti`.
    private var multi: CurlMulti?
    /// Transfers whose easy handle is in the multi handle, by easy handle.
    private var transfers: [UnsafeMutableRawPointer: HTTPTransfer] = [:]
    /// One loop source per socket libcurl asked to have watched.
    private var watches: [curl_socket_t: EventSource] = [:]
    /// Sources libcurl asked to remove, already off the loop, kept until the next
    /// time libcurl is driven: the one being removed may be the very source whose
    /// handler is running, and its closure must outlive that call.
    private var retiredWatches: [EventSource] = []
    /// libcurl's single timeout (CURLMOPT_TIMERFUNCTION).
    private var timer: EventSource?
    /// True while inside a libcurl call that may run libcurl's callbacks.
    private var insideCurl = false
    /// Closes the idle connections `idleConnectionSeconds` after the last transfer.
    private var idleTimer: EventSource?
    /// Whether a transfer got an answer since the multi handle was made, so
    /// that libcurl may keep its connection for the next: when none did (the
    /// service unreachable, every try failed), there is nothing to keep, and
    /// the handle goes when the last transfer ends instead of waking raind
    /// `idleConnectionSeconds` later.
    private var connectionsMayBeKept = false
    private let idleConnectionSeconds: Double

    /// Sets up the loop timer libcurl drives. libcurl itself is loaded at the
    /// first request (`readyMulti`), not here.
    ///
    /// - Parameter userAgent: sent with every request, e.g. `raind/0.1.0 (+https://...)`.
    /// - Parameter idleSeconds: how long idle connections stay open (`idleSeconds`; tests shorten it).
    public init(
        loop: EventLoop, userAgent: String, logger: Logger, idleSeconds: Double = HTTPClient.idleSeconds
    ) throws(SetupError) {
        self.idleConnectionSeconds = idleSeconds
        self.loop = loop
        self.userAgent = userAgent
        self.logger = logger
        do {
            timer = try loop.timer(accuracy: 0.001) { [weak self] in self?.timerFired() }
            idleTimer = try loop.timer(accuracy: 1) { [weak self] in self?.closeIdleConnections() }
        } catch {
            throw SetupError(error: error)
        }
    }

    /// Cancels every transfer without calling its completion, then
    /// curl_multi_cleanup.
    deinit {
        // No callbacks into an object being torn down.
        _ = try? multi?.setSocketCallback(nil, data: nil)
        _ = try? multi?.setTimerCallback(nil, data: nil)
        for transfer in transfers.values {
            transfer.abandon()
            if let easy = transfer.easy { _ = try? multi?.remove(easy) }
            transfer.easy = nil
        }
        transfers.removeAll()
        for watch in watches.values { watch.cancel() }
        timer?.cancel()
        idleTimer?.cancel()
    }

    /// Releases the multi handle, and with it every cached connection, when
    /// no transfer is in flight; the next request makes a new one.
    private func closeIdleConnections() {
        guard transfers.isEmpty, let multi else { return }
        precondition(!insideCurl, "closeIdleConnections called from inside a libcurl callback")
        _ = try? multi.setSocketCallback(nil, data: nil)
        _ = try? multi.setTimerCallback(nil, data: nil)
        // Off the loop while their descriptors are still open; curl_multi_cleanup closes them.
        for watch in watches.values { watch.cancel() }
        watches.removeAll()
        retiredWatches.removeAll()
        timer?.disarm()
        self.multi = nil
        connectionsMayBeKept = false
        logger.debug("closed the idle HTTP connections")
    }

    /// Requests in flight.
    public var activeTransfers: Int { transfers.count }

    /// Starts a GET. `completion` is called exactly once on the loop, later,
    /// never from inside this call: with the response (whatever its status),
    /// or with why there is none. It is not called if the transfer is
    /// cancelled or the client is released first.
    @discardableResult
    public func get(
        _ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, HTTPFailure>) -> Void
    ) -> HTTPTransfer {
        precondition(!insideCurl, "HTTPClient.get called from inside a libcurl callback")
        let transfer = HTTPTransfer(request: request, client: self, completion: completion)
        idleTimer?.disarm()
        if let problem = Self.headerProblem(request.headers) {
            failLater(transfer, HTTPFailure(.invalidRequest, redactedURL: request.redactedURL, detail: problem))
            return transfer
        }
        let multi: CurlMulti
        do throws(HTTPFailure) {
            multi = try readyMulti(for: request)
        } catch {
            failLater(transfer, error)
            return transfer
        }
        do throws(CurlError) {
            let easy = try CurlEasy()
            try configure(easy, for: request, transfer: transfer)
            transfer.easy = easy
            transfers[easy.handle] = transfer
            insideCurl = true
            defer { insideCurl = false }
            try multi.add(easy)
        } catch {
            if let easy = transfer.easy { transfers.removeValue(forKey: easy.handle) }
            transfer.easy = nil
            failLater(
                transfer, HTTPFailure(.other(error.message), redactedURL: request.redactedURL, detail: error.call))
            return transfer
        }
        logger.debug("GET \(request.redactedURL)")
        return transfer
    }

    /// The multi handle, made at the first request: only then is libcurl loaded
    /// (`raind_curl_load`, once per process), because loading it costs more than
    /// everything else raind does to start, and a daemon whose forecasts are
    /// fresh has nothing to fetch. A libcurl that cannot be loaded fails this
    /// request and every later one, each saying so.
    private func readyMulti(for request: HTTPRequest) throws(HTTPFailure) -> CurlMulti {
        if let multi { return multi }
        if let problem = raind_curl_load() {
            throw HTTPFailure(.libcurlUnavailable, redactedURL: request.redactedURL, detail: String(cString: problem))
        }
        do throws(CurlError) {
            let made = try CurlMulti()
            let data = Unmanaged.passUnretained(self).toOpaque()
            try made.setSocketCallback(
                { _, socket, what, data, _ in
                    guard let client = HTTPClient.from(data) else { return -1 }
                    return client.curlWantsSocket(socket, what: what)
                }, data: data)
            try made.setTimerCallback(
                { _, milliseconds, data in
                    guard let client = HTTPClient.from(data) else { return -1 }
                    client.curlWantsTimer(milliseconds: milliseconds)
                    return 0
                }, data: data)
            try made.set(CURLMOPT_MAX_TOTAL_CONNECTIONS, Self.maxConnections)
            try made.set(CURLMOPT_MAX_HOST_CONNECTIONS, Self.maxHostConnections)
            // The connection cache: what is idle beyond this is closed at once.
            try made.set(CURLMOPT_MAXCONNECTS, Self.maxConnections)
            multi = made
            return made
        } catch {
            throw HTTPFailure(.other(error.message), redactedURL: request.redactedURL, detail: error.call)
        }
    }

    /// Removes a transfer's easy handle from the multi handle and frees it. Called by `HTTPTransfer.cancel`.
    func cancel(_ transfer: HTTPTransfer) {
        precondition(!insideCurl, "HTTPTransfer.cancel called from inside a libcurl callback")
        guard let easy = transfer.easy else { return }
        transfers.removeValue(forKey: easy.handle)
        detach(transfer, easy)
        logger.debug("cancelled GET \(transfer.redactedURL)")
    }

    // MARK: Setting up a transfer

    /// The curl_easy_setopt calls for one request.
    private func configure(_ easy: CurlEasy, for request: HTTPRequest, transfer: HTTPTransfer) throws(CurlError) {
        try easy.set(CURLOPT_URL, request.url)
        // No SIGALRM for DNS timeouts: the threaded resolver times out without it.
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, true)
        try easy.set(CURLOPT_MAXREDIRS, Self.maxRedirects)
        // "": every encoding this libcurl can decode (gzip, deflate, br, zstd).
        try easy.set(CURLOPT_ACCEPT_ENCODING, "")
        try easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeout.curlMilliseconds)
        try easy.set(CURLOPT_TIMEOUT_MS, request.totalTimeout.curlMilliseconds)
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, max(1, request.stallBytesPerSecond))
        try easy.set(CURLOPT_LOW_SPEED_TIME, request.stallTimeout.curlSeconds)
        // Refuses an announced Content-Length over the cap before any byte of the
        // body; the write callback enforces the cap on what actually arrives.
        try easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(transfer.maxBodyBytes))
        try easy.set(CURLOPT_USERAGENT, userAgent)
        // Proxies: left to libcurl, which reads http_proxy, https_proxy and no_proxy.
        try easy.set(
            CURLOPT_WRITEFUNCTION,
            callback: { bytes, size, count, data in
                HTTPTransfer.from(data)?.receiveBody(bytes, count: size * count) ?? 0
            })
        try easy.set(CURLOPT_WRITEDATA, pointer: transfer.opaque)
        try easy.set(
            CURLOPT_HEADERFUNCTION,
            callback: { bytes, size, count, data in
                HTTPTransfer.from(data)?.receiveHeader(bytes, count: size * count) ?? 0
            })
        try easy.set(CURLOPT_HEADERDATA, pointer: transfer.opaque)
        if !request.headers.isEmpty {
            // "Name;" is libcurl's way to send a field with an empty value; "Name:" would remove it.
            try easy.setHeaderLines(
                request.headers.sorted { $0.key < $1.key }.map { name, value in
                    value.isEmpty ? "\(name);" : "\(name): \(value)"
                })
        }
    }

    /// Why the header fields cannot be sent, if they cannot: a line break would
    /// let a value inject fields of its own.
    private static func headerProblem(_ headers: [String: String]) -> String? {
        for (name, value) in headers {
            if name.isEmpty || name.contains(where: { $0 == ":" || $0 == " " || $0.isNewline }) {
                return "invalid header field name \(name.debugDescription)"
            }
            if value.contains(where: { $0.isNewline || $0 == "\0" }) {
                return "the value of header field \(name) contains a line break"
            }
        }
        return nil
    }

    private func failLater(_ transfer: HTTPTransfer, _ failure: HTTPFailure) {
        logger.debug("GET \(failure.redactedURL) failed: \(failure.message)")
        loop.later { transfer.deliver(.failure(failure)) }
    }

    // MARK: libcurl callbacks (inside libcurl: record only, never call libcurl)

    private static func from(_ data: UnsafeMutableRawPointer?) -> HTTPClient? {
        data.map { Unmanaged<HTTPClient>.fromOpaque($0).takeUnretainedValue() }
    }

    /// CURLMOPT_SOCKETFUNCTION: watch `socket` for `what` (CURL_POLL_IN, _OUT,
    /// _INOUT, _NONE), or stop watching it (CURL_POLL_REMOVE). Returns -1, which
    /// makes libcurl fail its transfers, when the loop cannot watch the socket.
    private func curlWantsSocket(_ socket: curl_socket_t, what: Int32) -> Int32 {
        if what == CURL_POLL_REMOVE {
            if let watch = watches.removeValue(forKey: socket) {
                watch.cancel()
                retiredWatches.append(watch)
            }
            return 0
        }
        var events: IOEvents = []
        if what & CURL_POLL_IN != 0 { events.insert(.readable) }
        if what & CURL_POLL_OUT != 0 { events.insert(.writable) }
        if let watch = watches[socket] {
            watch.setEvents(events)
            return 0
        }
        do {
            watches[socket] = try loop.watch(fd: socket, events: events) { [weak self] ready in
                self?.socketReady(socket, ready)
            }
            return 0
        } catch {
            logger.error("cannot watch an HTTP connection's socket: \(error)")
            return -1
        }
    }

    /// CURLMOPT_TIMERFUNCTION: call curl_multi_socket_action(CURL_SOCKET_TIMEOUT)
    /// after `milliseconds`; -1 deletes the timer. 0 means "as soon as possible",
    /// which the loop does on its next iteration, outside this callback.
    private func curlWantsTimer(milliseconds: Int) {
        guard let timer else { return }
        if milliseconds < 0 {
            timer.disarm()
        } else {
            timer.arm(after: Double(milliseconds) / 1000)
        }
    }

    // MARK: Driving libcurl (from loop handlers only)

    private func socketReady(_ socket: curl_socket_t, _ ready: IOEvents) {
        var mask: Int32 = 0
        if !ready.isDisjoint(with: [.readable, .hangUp]) { mask |= CURL_CSELECT_IN }
        if ready.contains(.writable) { mask |= CURL_CSELECT_OUT }
        if ready.contains(.error) { mask |= CURL_CSELECT_ERR }
        drive(socket, events: mask)
    }

    private func timerFired() {
        drive(CURL_SOCKET_TIMEOUT, events: 0)
    }

    /// curl_multi_socket_action, then hands out what finished.
    private func drive(_ socket: curl_socket_t, events: Int32) {
        precondition(!insideCurl, "curl_multi_socket_action called from inside a libcurl callback")
        retiredWatches.removeAll()
        guard let multi else { return }
        insideCurl = true
        do {
            try multi.socketAction(socket, events: events)
        } catch {
            logger.warning("\(error)")
        }
        insideCurl = false
        completeFinished()
    }

    /// Reads every finished transfer (curl_multi_info_read), removes and frees
    /// its easy handle, and only then calls the completions: a completion may
    /// start or cancel requests, which changes the multi handle under the loop.
    private func completeFinished() {
        var finished: [(HTTPTransfer, Result<HTTPResponse, HTTPFailure>)] = []
        while let done = multi?.nextDone() {
            guard let transfer = transfers.removeValue(forKey: done.easy), let easy = transfer.easy else { continue }
            let result = outcome(of: transfer, easy: easy, code: done.result)
            detach(transfer, easy)
            finished.append((transfer, result))
        }
        for (transfer, result) in finished {
            switch result {
            case .success(let response):
                connectionsMayBeKept = true
                logger.debug(
                    "GET \(transfer.redactedURL): \(response.status), \(response.body.count) bytes, \(response.version.rawValue)"
                )
            case .failure(let failure):
                logger.debug("GET \(transfer.redactedURL) failed: \(failure.message)")
            }
            transfer.deliver(result)
        }
        guard transfers.isEmpty, multi != nil else { return }
        if connectionsMayBeKept {
            idleTimer?.arm(after: idleConnectionSeconds)
        } else {
            closeIdleConnections()
        }
    }

    /// curl_multi_remove_handle, then curl_easy_cleanup (by releasing the `CurlEasy`).
    private func detach(_ transfer: HTTPTransfer, _ easy: CurlEasy) {
        insideCurl = true
        do {
            try multi?.remove(easy)
        } catch {
            logger.warning("\(error)")
        }
        insideCurl = false
        transfer.easy = nil
    }

    /// The response, or the failure, for a transfer libcurl finished with `code`.
    private func outcome(of transfer: HTTPTransfer, easy: CurlEasy, code: CURLcode) -> Result<HTTPResponse, HTTPFailure>
    {
        guard code == CURLE_OK else {
            let kind = HTTPFailure.Kind(
                code, bodyLimit: transfer.maxBodyBytes, bodyLimitHit: transfer.bodyLimitHit,
                redirectLimit: Self.maxRedirects)
            let detail = URLRedaction.scrub(easy.errorDetail, url: transfer.url, redactedURL: transfer.redactedURL)
            return .failure(HTTPFailure(kind, redactedURL: transfer.redactedURL, detail: detail))
        }
        do throws(CurlError) {
            let landed = try easy.stringInfo(CURLINFO_EFFECTIVE_URL)
            if let origin = Self.otherOrigin(landed, than: transfer.url) {
                return .failure(
                    HTTPFailure(
                        .redirectedElsewhere(origin: origin), redactedURL: transfer.redactedURL))
            }
            let status = try easy.longInfo(CURLINFO_RESPONSE_CODE)
            let version = try easy.longInfo(CURLINFO_HTTP_VERSION)
            return .success(
                HTTPResponse(
                    status: status, headers: transfer.head.fields, body: transfer.takeBody(),
                    version: Self.version(version)))
        } catch {
            return .failure(HTTPFailure(.other(error.message), redactedURL: transfer.redactedURL, detail: error.call))
        }
    }

    /// The origin (`scheme://host:port`) of `landed` when a redirect took
    /// the request to another server than `asked`'s: another host, or
    /// another port, except an upgrade of http to https on their default
    /// ports. Only the query part of an answer's URL can carry a secret, and
    /// the origin holds none. nil when it is the same server.
    static func otherOrigin(_ landed: String, than asked: String) -> String? {
        guard !landed.isEmpty, let to = Origin(landed), let from = Origin(asked) else { return nil }
        if to.host == from.host, to.port == from.port { return nil }
        if to.host == from.host, from.scheme == "http", from.port == 80, to.scheme == "https", to.port == 443 {
            return nil
        }
        return "\(to.scheme)://\(to.host):\(to.port)"
    }

    /// The scheme, host (lowercased) and port of an http(s) URL.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ url: String) {
            guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
            scheme = url[..<colon].lowercased()
            let rest = url[url.index(colon, offsetBy: 3)...]
            var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            var port = scheme == "https" ? 443 : 80
            var host = Substring(authority)
            if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
                guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
                port = number
                host = authority[..<colon]
            }
            self.host = host.lowercased()
            self.port = port
        }
    }

    /// CURLINFO_HTTP_VERSION's value as a `HTTPResponse.Version`.
    private static func version(_ value: Int) -> HTTPResponse.Version {
        switch value {
        case Int(CURL_HTTP_VERSION_1_0): return .http1_0
        case Int(CURL_HTTP_VERSION_1_1): return .http1_1
        case Int(CURL_HTTP_VERSION_2_0): return .http2
        case Int(CURL_HTTP_VERSION_3): return .http3
        default: return .unknown
        }
    }
}
