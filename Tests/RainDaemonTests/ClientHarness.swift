import Foundation
import RainDaemon
import XCTest

/// A fresh event loop and HTTP client for one test. sd-event loops run once
/// (after exit they are finished), so each test makes its own.
final class ClientHarness {
    static let userAgent = "raind/test (+https://example.invalid/raind)"

    let loop: EventLoop
    private(set) var client: HTTPClient?

    init(idleSeconds: Double = HTTPClient.idleSeconds) throws {
        loop = try EventLoop()
        client = try HTTPClient(
            loop: loop, userAgent: Self.userAgent,
            logger: Logger(subsystem: "http-test", threshold: .warning), idleSeconds: idleSeconds)
    }

    /// The client; a test that released it on purpose must not ask again.
    var http: HTTPClient {
        guard let client else { preconditionFailure("the test released the client") }
        return client
    }

    func releaseClient() { client = nil }

    /// Runs the loop until `finish()` or until `timeout` seconds pass (a deadline
    /// timer exits the loop). Returns whether `finish()` ended it.
    func run(timeout: Double) throws -> Bool {
        let deadline = try loop.timer(accuracy: 0.001) { [loop] in loop.exit(code: 124) }
        deadline.arm(after: timeout)
        return try loop.run() == 0
    }

    func finish() { loop.exit(code: 0) }

    /// CLOCK_BOOTTIME now, in seconds, read fresh (not the loop iteration's cached time).
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// One request run to its completion; throws when it does not complete in time.
    func fetch(_ request: HTTPRequest, timeout: Double = 3) throws -> Result<HTTPResponse, HTTPFailure> {
        var result: Result<HTTPResponse, HTTPFailure>?
        http.get(request) { [self] in
            result = $0
            finish()
        }
        let finished = try run(timeout: timeout)
        guard finished, let result else {
            throw FixtureError(message: "no completion within \(timeout) s for \(request)")
        }
        return result
    }
}

extension Result where Success == HTTPResponse, Failure == HTTPFailure {
    /// The response, or an error naming the HTTP failure.
    func response() throws -> HTTPResponse {
        switch self {
        case .success(let response): return response
        case .failure(let failure): throw FixtureError(message: "expected a response, got: \(failure.message)")
        }
    }

    /// The failure, or an error naming the unexpected response (not its body, which may be huge).
    func failure() throws -> HTTPFailure {
        switch self {
        case .success(let response):
            throw FixtureError(
                message: "expected a failure, got status \(response.status) with \(response.body.count) bytes")
        case .failure(let failure): return failure
        }
    }
}
