import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// The one upstream client every poller sends through, against the fixture
/// server on loopback with the real libcurl client: each kind of outcome,
/// the refund rule, and the request as raind builds it. And the one poll
/// timer: a wall-clock jump, its seeded jitter, firing on the real loop.
final class UpstreamClientTests: XCTestCase {
    private static let body = Array(#"{"latitude": 52.2}"#.utf8)
    private var server: FixtureServer?

    override func setUpWithError() throws {
        server = try FixtureServer(files: ["answer.json": Self.body], routes: ["/v1/forecast": "answer.json"])
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private var client: UpstreamClient {
        var configuration = Configuration()
        configuration.contact = "ops@example.org"
        configuration.connectTimeoutSeconds = 2
        configuration.timeoutSeconds = 3
        return UpstreamClient(configuration: configuration)
    }

    private func url(_ pathAndQuery: String) throws -> String {
        guard let server else { throw FixtureError(message: "no fixture server") }
        return server.url(pathAndQuery)
    }

    /// One request through a fresh loop, read into an outcome at `now`.
    private func outcome(_ request: HTTPRequest, now: Double = 1_768_435_200) throws -> UpstreamClient.Outcome {
        UpstreamClient.outcome(try ClientHarness().fetch(request), now: now)
    }

    func testAnAnswerAndItsRequestAsEveryPollerSendsIt() throws {
        let request = client.request(try url("/v1/forecast?latitude=52.2"), headers: ["Accept": "application/json"])
        XCTAssertEqual(request.connectTimeout, .seconds(2))
        XCTAssertEqual(request.totalTimeout, .seconds(3))
        XCTAssertEqual(request.maxBodyBytes, UpstreamClient.maximumBodyBytes)
        guard case .answered(let response) = try outcome(request) else { return XCTFail("not answered") }
        XCTAssertEqual(response.body, Self.body)
        let stats = try JSON(parsing: try ClientHarness().fetch(client.request(try url("/_stats"))).response().body)
        let headers = stats["last_headers"]?["/v1/forecast"]
        XCTAssertEqual(headers?["user-agent"]?.stringValue, RaindVersion.userAgent(contact: "ops@example.org"))
        XCTAssertEqual(headers?["accept"]?.stringValue, "application/json")
        XCTAssertFalse(try self.outcome(request).refundable, "an answered request counts")
    }

    func testAConditionalRequestOfWhatIsCurrentIsNotModified() throws {
        guard case .answered(let first) = try outcome(client.request(try url("/v1/forecast"))) else {
            return XCTFail("not answered")
        }
        let etag = try XCTUnwrap(first[header: "etag"])
        let again = client.request(try url("/v1/forecast"), etag: etag, lastModified: first[header: "last-modified"])
        XCTAssertEqual(again.headers["If-None-Match"], etag)
        guard case .notModified = try outcome(again) else { return XCTFail("not a 304") }
    }

    func testARefusalCarriesItsStatusAndRetryAfter() throws {
        let now = 1_768_435_200.0
        let outcome = try outcome(
            client.request(try url("/v1/forecast?mode=status&status=503&retry-after=120")), now: now)
        guard case .refused(let response, let retryAfter) = outcome else { return XCTFail("not refused: \(outcome)") }
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(retryAfter, now + 120)
        XCTAssertEqual(outcome.problem, "HTTP 503")
        XCTAssertFalse(outcome.refundable, "the service was reached: the request counts")
        guard case .refused(let notFound, nil) = try self.outcome(client.request(try url("/nothing-here"))) else {
            return XCTFail("a 404 is a refusal")
        }
        XCTAssertEqual(notFound.status, 404)
    }

    func testATransferBrokenAfterReachingTheServiceCounts() throws {
        let outcome = try outcome(client.request(try url("/v1/forecast?mode=reset")))
        guard case .failed(let failure) = outcome else { return XCTFail("not a failed transfer: \(outcome)") }
        XCTAssertFalse(UpstreamClient.neverReached(failure))
        XCTAssertFalse(outcome.refundable)
    }

    func testARequestThatNeverReachedTheServiceIsRefunded() throws {
        // Port 1 on loopback: nothing listens, the connection is refused.
        let outcome = try outcome(client.request("http://127.0.0.1:1/v1/forecast"))
        guard case .unreached(let failure) = outcome else { return XCTFail("reached: \(outcome)") }
        XCTAssertEqual(failure.kind, .connectFailed)
        XCTAssertTrue(outcome.refundable)
        XCTAssertNotNil(outcome.problem)
    }

    // MARK: The poll timer

    func testThePollTimerFollowsAWallClockJump() throws {
        let loop = try EventLoop()
        let clock = FakeClock(wall: 1_768_435_200)
        let timer = try PollTimer(loop: loop, clock: clock, seed: 1)
        var jumps: [Double] = []
        timer.clockJumped = { jumps.append($0) }
        clock.advance(30)
        XCTAssertEqual(timer.now, 1_768_435_230)
        XCTAssertEqual(jumps, [], "time passing is no jump")
        clock.wallNow += 3600  // someone set the clock an hour forward
        XCTAssertEqual(timer.now, 1_768_438_830)
        XCTAssertEqual(jumps, [3600])
        clock.wallNow -= 1  // NTP slewing: followed silently
        _ = timer.now
        XCTAssertEqual(jumps, [3600])
    }

    func testThePollTimersJitterIsSeededByItsOwner() throws {
        let loop = try EventLoop()
        let clock = FakeClock(wall: 1_768_435_200)
        let one = try PollTimer(loop: loop, clock: clock, seed: 42)
        let same = try PollTimer(loop: loop, clock: clock, seed: 42)
        let other = try PollTimer(loop: loop, clock: clock, seed: 43)
        let delays = (0..<8).map { _ in one.jitter.delay(interval: 300, fraction: 0.1) }
        XCTAssertEqual(delays, (0..<8).map { _ in same.jitter.delay(interval: 300, fraction: 0.1) })
        XCTAssertNotEqual(delays, (0..<8).map { _ in other.jitter.delay(interval: 300, fraction: 0.1) })
        XCTAssertTrue(delays.allSatisfy { (0..<30).contains($0) }, "\(delays)")
        XCTAssertEqual(one.jitter.delay(interval: .infinity, fraction: 0.1), 0)
    }

    func testThePollTimerFiresOnTheLoopAndDisarms() throws {
        let harness = try ClientHarness()
        let clock = FakeClock(wall: 1_768_435_200)
        let timer = try PollTimer(loop: harness.loop, clock: clock, seed: 1)
        var fired = 0
        timer.fired = {
            fired += 1
            harness.finish()
        }
        timer.arm(at: clock.wallNow - 5, now: clock.wallNow)  // overdue: at once
        XCTAssertEqual(timer.armedFor, clock.wallNow - 5)
        XCTAssertTrue(try harness.run(timeout: 5), "the timer never fired")
        XCTAssertEqual(fired, 1)
        timer.arm(at: nil, now: clock.wallNow)
        XCTAssertNil(timer.armedFor)
        XCTAssertEqual(PollTimer.accuracy(delay: 0), 1)
        XCTAssertEqual(PollTimer.accuracy(delay: 200), 10)
        XCTAssertEqual(PollTimer.accuracy(delay: 86400), 30)
    }
}
