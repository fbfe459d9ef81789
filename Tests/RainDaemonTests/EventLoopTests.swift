import RainDaemon
import XCTest

final class EventLoopTests: XCTestCase {
    /// Something a handler captures, to see when the handler's closure is freed.
    final class Sentinel {
        var calls = 0
    }

    final class Holder {
        var source: EventSource?
    }

    func testHandler_releasingItsOwnSource_runsToTheEndAndIsFreedAfter() throws {
        let loop = try EventLoop()
        let holder = Holder()
        weak var weakSentinel: Sentinel?
        var afterRelease = 0
        do {
            let sentinel = Sentinel()
            weakSentinel = sentinel
            holder.source = try loop.timer(accuracy: 0.001, name: "self-releasing") { [sentinel] in
                // The only reference to the source goes away inside its own handler...
                holder.source = nil
                // ...and the closure's captures are still alive while it runs.
                sentinel.calls += 1
                afterRelease = sentinel.calls
                loop.exit(code: 0)
            }
        }
        holder.source?.arm(after: 0)
        XCTAssertEqual(try loop.run(), 0)
        XCTAssertEqual(afterRelease, 1)
        XCTAssertNil(weakSentinel, "the handler was freed once its dispatch ended")
    }

    func testSources_areNamed() throws {
        let loop = try EventLoop()
        let named = try loop.timer(name: "refresh timer") {}
        XCTAssertEqual(named.name, "refresh timer")
        let unnamed = try loop.timer {}
        XCTAssertEqual(unnamed.name?.hasPrefix("RainDaemonTests/EventLoopTests.swift:"), true, unnamed.name ?? "nil")
    }
}
