import Foundation
import Glibc
import RainCore
import RainDaemon
import RainDaemonCore
import RainSystem
import XCTest

/// HTTPClient against the fixture server, on a real sd-event loop.
final class HTTPClientTests: XCTestCase {
    private static let forecast: [UInt8] = {
        let hours = (0..<48).map {
            #"{"time":\#(1_700_000_000 + $0 * 3600),"temperature":\#(Double($0) / 4),"wind":3.5}"#
        }
        return Array(#"{"hourly":[\#(hours.joined(separator: ","))]}"#.utf8)
    }()

    private var server: FixtureServer?

    override func setUpWithError() throws {
        server = try FixtureServer(files: ["forecast.json": Self.forecast], routes: ["/v1/forecast": "forecast.json"])
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func request(
        _ pathAndQuery: String, totalTimeout: Duration = .seconds(3), stallTimeout: Duration = .seconds(15),
        maxBodyBytes: Int = 1 << 20, headers: [String: String] = [:]
    ) throws -> HTTPRequest {
        guard let server else { throw FixtureError(message: "no fixture server") }
        let url = server.url(pathAndQuery)
        return HTTPRequest(
            url: url, redactedURL: url, headers: headers, connectTimeout: .seconds(2),
            totalTimeout: totalTimeout, stallTimeout: stallTimeout, maxBodyBytes: maxBodyBytes)
    }

    /// The fixture server's `/_stats`, fetched with a client of its own.
    private func stats() throws -> JSON {
        let response = try ClientHarness().fetch(try request("/_stats")).response()
        return try JSON(parsing: response.body)
    }

    // MARK: Responses

    func testGet_ok_deliversBodyHeadersAndVersion() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?latitude=52.2&max-age=60")).response()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.forecast)
        XCTAssertEqual(response.version, .http1_1)
        XCTAssertEqual(response.headers["content-type"], "application/json")
        XCTAssertEqual(response.headers["cache-control"], "max-age=60")
        XCTAssertEqual(response[header: "ETag"]?.first, "\"")
        XCTAssertNotNil(response.headers["last-modified"].flatMap(HTTPDate.parse))
        XCTAssertNotNil(response.headers["date"].flatMap(HTTPDate.parse))
        XCTAssertNil(response.headers["ETag"], "names are lower-cased")

        let seen = try stats()
        XCTAssertEqual(seen["paths"]?["/v1/forecast"]?.intValue, 1)
        XCTAssertEqual(seen["last_headers"]?["/v1/forecast"]?["user-agent"]?.stringValue, ClientHarness.userAgent)
        let acceptEncoding = seen["last_headers"]?["/v1/forecast"]?["accept-encoding"]?.stringValue ?? ""
        XCTAssertTrue(acceptEncoding.contains("gzip"), "Accept-Encoding was \(acceptEncoding.debugDescription)")
    }

    func testGet_gzip_isDecoded() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?mode=gzip")).response()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-encoding"], "gzip")
        XCTAssertEqual(response.body, Self.forecast)
    }

    func testGet_withMatchingETag_gets304_andACompletionCanStartTheNextRequest() throws {
        let harness = try ClientHarness()
        var results: [Result<HTTPResponse, HTTPFailure>] = []
        let first = try request("/v1/forecast")
        harness.http.get(first) { [self] result in
            results.append(result)
            guard case .success(let response) = result, let etag = response.headers["etag"],
                let second = try? request("/v1/forecast", headers: ["If-None-Match": etag])
            else {
                return harness.finish()
            }
            harness.http.get(second) { result in
                results.append(result)
                harness.finish()
            }
        }
        XCTAssertTrue(try harness.run(timeout: 3))
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(try results.first?.response().status, 200)
        let notModified = try XCTUnwrap(results.last).response()
        XCTAssertEqual(notModified.status, 304)
        XCTAssertEqual(notModified.body, [])
        XCTAssertNotNil(notModified.headers["etag"])
        XCTAssertEqual(try stats()["paths"]?["/v1/forecast"]?.intValue, 2)
    }

    func testGet_401_isAResponse() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?status=401")).response()
        XCTAssertEqual(response.status, 401)
        XCTAssertFalse(response.body.isEmpty)
    }

    func testGet_429_carriesRetryAfter() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?status=429&retry-after=2")).response()
        XCTAssertEqual(response.status, 429)
        XCTAssertEqual(response.headers["retry-after"], "2")
        XCTAssertEqual(HTTPCachePolicy.retryAfter(try XCTUnwrap(response.headers["retry-after"]), now: 1000), 1002)
    }

    func testGet_500_isAResponse() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?status=500")).response()
        XCTAssertEqual(response.status, 500)
    }

    func testGet_scriptedMode_appliesToTheNextRequestsOnly() throws {
        let server = try XCTUnwrap(server)
        let script = #"{"path_prefix": "/v1/forecast", "mode": "status", "status": 503, "retry_after": 7, "count": 1}"#
        let harness = try ClientHarness()
        var statuses: [Int] = []
        var retryAfter: String?
        // POST is not part of the client's API; curl's command line does it.
        let post = Process()
        post.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        post.arguments = ["curl", "-s", "-o", "/dev/null", "-X", "POST", "--data", script, server.url("/_mode")]
        do {
            try post.run()
            post.waitUntilExit()
        } catch {
            throw XCTSkip("curl command line not available to script the fixture server: \(error)")
        }
        try XCTSkipUnless(post.terminationStatus == 0, "curl could not post the script")
        harness.http.get(try request("/v1/forecast")) { [self] first in
            statuses.append((try? first.response().status) ?? -1)
            retryAfter = try? first.response().headers["retry-after"]
            guard let again = try? request("/v1/forecast") else { return harness.finish() }
            harness.http.get(again) { second in
                statuses.append((try? second.response().status) ?? -1)
                harness.finish()
            }
        }
        XCTAssertTrue(try harness.run(timeout: 3))
        XCTAssertEqual(statuses, [503, 200])
        XCTAssertEqual(retryAfter, "7")
    }

    func testGet_malformedBody_isDeliveredAsIs() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?mode=malformed")).response()
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).hasPrefix("<html>"))
        XCTAssertThrowsError(try JSON(parsing: response.body))
    }

    func testGet_slowBody_arrivesWhole() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?mode=slow-body&delay=0.5")).response()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.forecast)
    }

    func testGet_redirect_isFollowed() throws {
        let response = try ClientHarness().fetch(try request("/v1/forecast?mode=redirect&hops=2")).response()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Self.forecast)
    }

    func testGet_redirectToAnotherServer_isRefused_notTaken() throws {
        let other = try FixtureServer(
            files: ["forecast.json": Self.forecast], routes: ["/v1/forecast": "forecast.json"])
        defer { other.stop() }
        let elsewhere = "http://127.0.0.1:\(other.port)"
        let failure = try ClientHarness().fetch(try request("/v1/forecast?mode=redirect&to=\(elsewhere)")).failure()
        XCTAssertEqual(failure.kind, .redirectedElsewhere(origin: elsewhere))
        XCTAssertTrue(failure.message.contains("was redirected to another server (\(elsewhere))"), failure.message)
    }

    // MARK: Connections

    /// Descriptors this process holds.
    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    func testManyRequests_openAtMostTheHostLimitOfConnections_theRestWaitInTurn() throws {
        let harness = try ClientHarness()
        var peak = 0
        var done = 0
        let count = 3 * HTTPClient.maxHostConnections
        var sample: (() -> Void)?
        let ticker = try harness.loop.timer(accuracy: 0.001) { sample?() }
        let before = openDescriptors()
        sample = { [self] in
            peak = max(peak, openDescriptors() - before)
            ticker.arm(after: 0.01)
        }
        ticker.arm(after: 0)
        for _ in 0..<count {
            _ = harness.http.get(try request("/v1/forecast?mode=slow-headers&delay=0.2")) { result in
                XCTAssertNotNil(try? result.response())
                done += 1
                if done == count { harness.finish() }
            }
        }
        XCTAssertTrue(try harness.run(timeout: 10), "every request answered, in turn")
        XCTAssertEqual(done, count)
        XCTAssertGreaterThan(peak, 0)
        // libcurl's multi handle holds a socket pair of its own (curl_multi_wakeup).
        XCTAssertLessThanOrEqual(peak, HTTPClient.maxHostConnections + 2, "at most the host limit of sockets at once")
    }

    func testIdleConnections_areClosedAfterTheIdleTime() throws {
        let harness = try ClientHarness(idleSeconds: 0.2)
        var counts: [Int] = []
        var steps: [() -> Void] = []
        let pause = try harness.loop.timer(accuracy: 0.001) { if !steps.isEmpty { steps.removeFirst()() } }
        let before = openDescriptors()
        let fetch = { [self] (then: @escaping () -> Void) in
            _ = harness.http.get(try! request("/v1/forecast")) { result in
                XCTAssertNotNil(try? result.response())
                then()
            }
        }
        let count = { [self] in counts.append(openDescriptors() - before) }
        steps = [
            {
                count(); pause.arm(after: 0.2)
            },
            {
                count();
                fetch {
                    count(); pause.arm(after: 0.5)
                }
            },
            {
                count(); harness.finish()
            },
        ]
        fetch {
            count(); pause.arm(after: 0.5)
        }
        XCTAssertTrue(try harness.run(timeout: 10))
        // After each answer the connection (and libcurl's own socket pair) is open; after the idle time none.
        XCTAssertEqual(counts.count, 5)
        XCTAssertGreaterThan(counts[0], 0, "kept for reuse")
        XCTAssertEqual(counts[1], 0, "closed once idle")
        XCTAssertEqual(counts[3], counts[0], "opened anew for the next request")
        XCTAssertEqual(counts[4], 0, "and closed once idle again")
    }

    /// Nothing answered, so nothing is kept: the handle and its descriptors
    /// go when the last transfer ends, not an idle time later (raind stays
    /// asleep between the retries of a service it cannot reach).
    func testAllTransfersFailed_nothingIsKeptOpen() throws {
        let harness = try ClientHarness()
        let port = try Self.unusedPort()
        let url = "http://127.0.0.1:\(port)/forecast"
        let before = openDescriptors()
        var left: Int?
        _ = harness.http.get(HTTPRequest(url: url, redactedURL: url)) { [self] result in
            XCTAssertEqual(try? result.failure().kind, .connectFailed)
            // Counted once the client has finished handling what ended.
            harness.loop.later { [self] in
                left = openDescriptors() - before
                harness.finish()
            }
        }
        XCTAssertTrue(try harness.run(timeout: 10))
        XCTAssertEqual(left, 0, "no descriptor kept after a transfer that reached nothing")
    }

    // MARK: Failures

    func testGet_tooManyRedirects_fails() throws {
        let failure = try ClientHarness().fetch(try request("/v1/forecast?mode=redirect&hops=5")).failure()
        XCTAssertEqual(failure.kind, .tooManyRedirects(limit: 3))
    }

    func testGet_truncatedBody_failsAsTruncated() throws {
        let failure = try ClientHarness().fetch(try request("/v1/forecast?mode=truncated")).failure()
        XCTAssertEqual(failure.kind, .truncated)
    }

    func testGet_hugeBodyWithLength_failsAsBodyTooLarge() throws {
        let failure = try ClientHarness().fetch(try request("/big?mode=huge")).failure()
        XCTAssertEqual(failure.kind, .bodyTooLarge(limit: 1 << 20))
        XCTAssertTrue(failure.message.contains("1,048,576 bytes"), failure.message)
    }

    func testGet_hugeChunkedBody_isCutOffAtTheCap() throws {
        // No Content-Length: only the write callback can stop it.
        let failure = try ClientHarness().fetch(try request("/big?mode=huge&chunked=1")).failure()
        XCTAssertEqual(failure.kind, .bodyTooLarge(limit: 1 << 20))
    }

    func testGet_closedPort_failsToConnect() throws {
        let port = try Self.unusedPort()
        let url = "http://127.0.0.1:\(port)/forecast/SECRET-KEY-12345/52.2,6.9"
        let redacted = "http://127.0.0.1:\(port)/forecast/<redacted>/52.2,6.9"
        let failure = try ClientHarness().fetch(HTTPRequest(url: url, redactedURL: redacted)).failure()
        XCTAssertEqual(failure.kind, .connectFailed)
        XCTAssertFalse("\(failure)".contains("SECRET-KEY-12345"), failure.message)
        XCTAssertFalse(failure.detail.contains("SECRET-KEY-12345"), failure.detail)
        XCTAssertTrue(failure.message.contains(redacted), failure.message)
    }

    func testLoadingLibcurl_leavesTheEnvironmentAsItFoundIt() throws {
        // GNUTLS_NO_IMPLICIT_INIT is set for the dlopen of libcurl alone (curl.c). libcurl is loaded
        // once a process, maybe by an earlier test, so the variable is held to the environment the
        // process began with (/proc/self/environ, which setenv and unsetenv leave as it was).
        let initial = try String(contentsOfFile: "/proc/self/environ", encoding: .utf8)
            .split(separator: "\0").first { $0.hasPrefix("GNUTLS_NO_IMPLICIT_INIT=") }
            .map { String($0.dropFirst("GNUTLS_NO_IMPLICIT_INIT=".count)) }
        let port = try Self.unusedPort()
        _ = try ClientHarness().fetch(HTTPRequest(url: "http://127.0.0.1:\(port)/", redactedURL: "closed")).failure()
        XCTAssertEqual(ProcessEnvironment.value(of: "GNUTLS_NO_IMPLICIT_INIT"), initial)
    }

    func testGet_unknownHost_failsAsDNS() throws {
        // .invalid never resolves (RFC 6761).
        let url = "http://raind-test.invalid/forecast"
        let failure = try ClientHarness().fetch(HTTPRequest(url: url, redactedURL: url, totalTimeout: .seconds(2)))
            .failure()
        XCTAssertEqual(failure.kind, .dnsFailed)
    }

    func testGet_untrustedCertificate_failsAsTLS() throws {
        let tlsServer = try FixtureServer(files: ["forecast.json": Self.forecast], tls: true)
        defer { tlsServer.stop() }
        let url = "https://127.0.0.1:\(tlsServer.port)/forecast.json"
        let failure = try ClientHarness().fetch(HTTPRequest(url: url, redactedURL: url, totalTimeout: .seconds(2)))
            .failure()
        XCTAssertEqual(failure.kind, .tlsFailed)
        XCTAssertTrue(failure.message.contains("certificates"), failure.message)
    }

    func testGet_stall_timesOut() throws {
        let start = ClientHarness.now()
        let failure = try ClientHarness().fetch(try request("/v1/forecast?mode=stall", totalTimeout: .seconds(1)))
            .failure()
        XCTAssertEqual(failure.kind, .timedOut)
        XCTAssertLessThan(ClientHarness.now() - start, 2.5)
    }

    func testGet_stall_isDetectedBeforeTheTotalTimeout() throws {
        let start = ClientHarness.now()
        let stalled = try request("/v1/forecast?mode=stall", totalTimeout: .seconds(10), stallTimeout: .seconds(1))
        let failure = try ClientHarness().fetch(stalled, timeout: 5).failure()
        XCTAssertEqual(failure.kind, .timedOut)
        XCTAssertLessThan(ClientHarness.now() - start, 3)
    }

    func testGet_connectionReset_failsAsConnectionLost() throws {
        let failure = try ClientHarness().fetch(try request("/v1/forecast?mode=reset")).failure()
        XCTAssertEqual(failure.kind, .connectionLost)
    }

    func testGet_headerWithLineBreak_isRefusedWithoutARequest() throws {
        let harness = try ClientHarness()
        var result: Result<HTTPResponse, HTTPFailure>?
        harness.http.get(try request("/v1/forecast", headers: ["If-None-Match": "x\r\nX-Injected: 1"])) {
            result = $0
            harness.finish()
        }
        XCTAssertNil(result, "the completion must not run inside get()")
        XCTAssertTrue(try harness.run(timeout: 2))
        XCTAssertEqual(try XCTUnwrap(result).failure().kind, .invalidRequest)
        XCTAssertNil(try stats()["paths"]?["/v1/forecast"])
    }

    // MARK: The loop

    func testLoop_staysResponsiveWhileARequestStalls_andCancelSilencesTheCompletion() throws {
        let harness = try ClientHarness()
        var completed = false
        let transfer = harness.http.get(try request("/v1/forecast?mode=stall", totalTimeout: .seconds(2))) { _ in
            completed = true
        }
        let start = ClientHarness.now()
        var tickAt: Double?
        var activeAtTick = -1
        let tick = try harness.loop.timer(accuracy: 0.001) {
            tickAt = ClientHarness.now() - start
            activeAtTick = harness.http.activeTransfers
            transfer.cancel()
        }
        tick.arm(after: 0.1)
        let done = try harness.loop.timer(accuracy: 0.001) { harness.finish() }
        done.arm(after: 0.4)

        XCTAssertTrue(try harness.run(timeout: 3))
        let firedAt = try XCTUnwrap(tickAt, "the timer never fired while the request stalled")
        XCTAssertLessThan(firedAt, 0.3)
        XCTAssertEqual(activeAtTick, 1)
        XCTAssertFalse(completed)
        XCTAssertFalse(transfer.isPending)
        XCTAssertEqual(harness.http.activeTransfers, 0)
    }

    func testGet_severalAtOnce_runConcurrentlyOnOneThread() throws {
        let harness = try ClientHarness()
        var statuses: [Int] = []
        for _ in 0..<4 {
            harness.http.get(try request("/v1/forecast?mode=slow-headers&delay=0.5")) { result in
                statuses.append((try? result.response().status) ?? -1)
                if statuses.count == 4 { harness.finish() }
            }
        }
        XCTAssertEqual(harness.http.activeTransfers, 4)
        let start = ClientHarness.now()
        XCTAssertTrue(try harness.run(timeout: 3))
        XCTAssertEqual(statuses, [200, 200, 200, 200])
        XCTAssertLessThan(ClientHarness.now() - start, 1.5, "four 0.5 s responses should overlap")
    }

    func testReleasingTheClient_withATransferInFlight_dropsItQuietly() throws {
        let harness = try ClientHarness()
        var completed = false
        let transfer = harness.http.get(try request("/v1/forecast?mode=stall", totalTimeout: .seconds(2))) { _ in
            completed = true
        }
        let release = try harness.loop.timer(accuracy: 0.001) { harness.releaseClient() }
        release.arm(after: 0.1)
        let done = try harness.loop.timer(accuracy: 0.001) { harness.finish() }
        done.arm(after: 0.3)
        XCTAssertTrue(try harness.run(timeout: 3))
        XCTAssertFalse(completed)
        XCTAssertFalse(transfer.isPending)
        transfer.cancel()  // harmless once the client is gone
    }

    // MARK: Helpers

    /// A TCP port on 127.0.0.1 with nothing listening: bound, read, closed.
    private static func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError(message: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw FixtureError(message: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
