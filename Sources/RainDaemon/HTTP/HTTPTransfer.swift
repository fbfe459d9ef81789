import CCurl
import RainCore
import RainDaemonCore

/// One request in flight, as returned by `HTTPClient.get`. Keep it to cancel the
/// request; dropping it does not cancel anything.
///
/// It also collects what libcurl delivers for its easy handle: header lines
/// (CURLOPT_HEADERFUNCTION) and body bytes (CURLOPT_WRITEFUNCTION), enforcing
/// the body cap as the bytes arrive.
public final class HTTPTransfer {
    public typealias Completion = (Result<HTTPResponse, HTTPFailure>) -> Void

    /// The request's URL without its secret.
    public let redactedURL: String
    /// The real URL, kept only to scrub it out of libcurl's error text.
    let url: String
    let maxBodyBytes: Int
    weak var client: HTTPClient?
    /// The easy handle while the transfer is in the multi handle; nil before and after.
    var easy: CurlEasy?
    private var completion: Completion?
    private(set) var head = HTTPResponseHead()
    private(set) var body: [UInt8] = []
    /// Set when the body grew past `maxBodyBytes`, which makes the write callback
    /// refuse the bytes and libcurl end the transfer with CURLE_WRITE_ERROR.
    private(set) var bodyLimitHit = false

    init(request: HTTPRequest, client: HTTPClient, completion: @escaping Completion) {
        redactedURL = request.redactedURL
        url = request.url
        maxBodyBytes = max(0, request.maxBodyBytes)
        self.client = client
        self.completion = completion
    }

    /// Whether the completion is still to be called: not yet finished, not cancelled.
    public var isPending: Bool { completion != nil }

    /// Stops the transfer (curl_multi_remove_handle, curl_easy_cleanup). Its
    /// completion is never called afterwards, even if the transfer had already
    /// finished and was only waiting for its turn to be delivered. Does nothing
    /// when the completion already ran. Must not be called from another thread.
    public func cancel() {
        completion = nil
        client?.cancel(self)
    }

    /// Calls the completion once; later calls do nothing.
    func deliver(_ result: Result<HTTPResponse, HTTPFailure>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }

    /// Drops the completion without calling it (the client is going away).
    func abandon() { completion = nil }

    /// Hands the body over without copying it.
    func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    /// The `userdata` pointer given to libcurl's callbacks. Unretained: the
    /// client keeps the transfer alive for as long as its easy handle is in the
    /// multi handle, which is the only time the callbacks run.
    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> HTTPTransfer? {
        userdata.map { Unmanaged<HTTPTransfer>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: libcurl callbacks (called inside curl_multi_socket_action)

    /// CURLOPT_WRITEFUNCTION's work: append, or refuse past the cap. Returning a
    /// count other than `count` makes libcurl abort with CURLE_WRITE_ERROR.
    func receiveBody(_ bytes: UnsafeRawPointer?, count: Int) -> Int {
        guard count > 0, let bytes else { return 0 }
        guard body.count + count <= maxBodyBytes else {
            bodyLimitHit = true
            return 0
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        return count
    }

    /// CURLOPT_HEADERFUNCTION's work: one complete header line per call.
    func receiveHeader(_ bytes: UnsafeRawPointer?, count: Int) -> Int {
        guard count > 0, let bytes else { return count }
        head.consume(line: UnsafeRawBufferPointer(start: bytes, count: count))
        return count
    }
}

extension HTTPTransfer: CustomStringConvertible, CustomReflectable {
    public var description: String { "HTTPTransfer(GET \(redactedURL))" }
    /// `dump` and debuggers see the redacted URL only.
    public var customMirror: Mirror {
        Mirror(self, children: ["redactedURL": redactedURL, "isPending": isPending])
    }
}
