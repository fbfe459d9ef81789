import Foundation
import RainCore
import RainSystem
import XCTest

@testable import RainDaemon

/// A request holds its connection strongly while it runs (and the
/// connection its running request): the connection must still be freed when
/// its client leaves, whether its call was answered or still runs, and
/// whoever keeps a request must not keep the connection.
final class VarlinkConnectionLifetimeTests: XCTestCase {
    func testConnection_isFreedWhenItsClientLeaves_evenWithACallStillRunning() throws {
        let harness = try ClientHarness()
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-lifetime-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock").path
        defer { unlink(path) }
        let handler = RequestHandler()
        let server = VarlinkServer(
            loop: harness.loop, listener: try UnixSocket.listen(path: path, mode: 0o600), limits: .init(),
            info: .init(version: "test", interfaces: ["io.raind.Test": "interface io.raind.Test\n"]),
            logger: Logger(subsystem: "lifetime-test", threshold: .warning),
            policy: AccessPolicy(mode: .system, ownUID: getuid(), raindGroup: nil), handler: handler)
        var kept: [VarlinkRequest] = []
        var cancelled = false
        var answeredLetGo = false
        weak var connection: VarlinkConnection?
        var client: FileDescriptor?
        handler.answer = { request in
            kept.append(request)
            if request.call.method == "io.raind.Test.Answer" {
                request.reply(encoding: NoParameters())
                answeredLetGo = request.connection == nil
            } else {
                // Held, never answered: told when the client leaves, which it does now.
                connection = request.connection
                request.onCancel = {
                    cancelled = true
                    harness.finish()
                }
                client?.close()
            }
            return true
        }
        try server.start()
        client = try UnixSocket.connect(path: path)
        try client?.writeAll(
            Array(#"{"method":"io.raind.Test.Answer"}"#.utf8) + [0] + Array(#"{"method":"io.raind.Test.Hold"}"#.utf8)
                + [0])
        XCTAssertTrue(try harness.run(timeout: 10), "the client's leaving was never noticed")
        XCTAssertEqual(kept.map(\.call.method), ["io.raind.Test.Answer", "io.raind.Test.Hold"])
        XCTAssertTrue(answeredLetGo, "an answered call lets its connection go")
        XCTAssertTrue(cancelled)
        XCTAssertTrue(server.connections.isEmpty)
        XCTAssertNil(kept[1].connection, "a call cut short lets its connection go")
        XCTAssertNil(connection, "the connection is freed while its requests are still kept")
        server.stop()
        withExtendedLifetime(handler) {}
    }

    /// Answers the test's calls with the test's closure.
    final class RequestHandler: VarlinkRequestHandler {
        var answer: (VarlinkRequest) -> Bool = { _ in false }
        func handle(_ request: VarlinkRequest) -> Bool { answer(request) }
    }
}
