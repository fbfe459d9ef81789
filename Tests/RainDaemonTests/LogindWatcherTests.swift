import Glibc
import RainSystem
import XCTest

@testable import RainDaemon

final class LogindWatcherTests: XCTestCase {
    let logger = Logger(subsystem: "test", threshold: .debug)

    /// logind's PrepareForSleep(starting), sent by busctl (which does not own org.freedesktop.login1).
    static func emitPrepareForSleep(
        _ starting: Bool, on bus: PrivateBus, file: StaticString = #filePath, line: UInt = #line
    ) {
        let signal = ["/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep"]
        XCTAssertEqual(try? bus.busctl(["emit"] + signal + ["b", "\(starting)"]), 0, file: file, line: line)
    }

    /// Opens the system bus the way the daemon does, with DBUS_SYSTEM_BUS_ADDRESS
    /// pointing at the private bus.
    private func systemBus(_ bus: PrivateBus, _ loop: EventLoop) -> Result<BusConnection, BusError> {
        bus.useAsSystemBus()
        return Result { () throws(BusError) in try BusConnection(.system, loop: loop) }
    }

    func testPrepareForSleepFalse_fromBusctl_callsOnResume() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = systemBus(bus, loop)
        var resumes = 0
        let watcher = LogindWatcher(
            bus: connection, session: nil, sender: nil, logger: logger,
            onResume: {
                resumes += 1
                loop.exit(code: 0)
            })
        // The watcher's match went out before this ping, so it is in place when the ping returns.
        let ping = try connection.get().ping { _ in
            Self.emitPrepareForSleep(false, on: bus)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3), "onResume was not called")
        XCTAssertEqual(resumes, 1)
        _ = (watcher, ping)
    }

    func testPrepareForSleepTrue_doesNotCallOnResume() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = systemBus(bus, loop)
        var events: [String] = []
        var settle: EventSource?
        let watcher = LogindWatcher(
            bus: connection, session: nil, sender: nil, logger: logger,
            onResume: {
                events.append("resume")
                // Give a wrongly handled `true` time to show up too.
                settle = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
                settle?.arm(after: 0.2)
            })
        let ping = try connection.get().ping { _ in
            Self.emitPrepareForSleep(true, on: bus)
            events.append("emitted true")
            Self.emitPrepareForSleep(false, on: bus)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(events, ["emitted true", "resume"])
        _ = (watcher, ping)
    }

    func testPrepareForSleep_fromAnotherSender_isIgnored() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = systemBus(bus, loop)
        var resumes = 0
        let watcher = LogindWatcher(bus: connection, session: nil, logger: logger, onResume: { resumes += 1 })
        var settle: EventSource?
        let ping = try connection.get().ping { _ in
            // busctl does not own org.freedesktop.login1, so the bus does not deliver this.
            Self.emitPrepareForSleep(false, on: bus)
            settle = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
            settle?.arm(after: 0.3)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(resumes, 0)
        _ = (watcher, ping)
    }

    func testFakeLogind_resumeAndSessionSignals_callTheirHandlers() throws {
        let bus = try PrivateBus()
        let logind = try FakeService("fake_logind.py", bus: bus)
        let loop = try EventLoop()
        let connection = systemBus(bus, loop)
        var events: [String] = []
        let watcher = LogindWatcher(
            bus: connection, session: "auto", logger: logger,
            onResume: { events.append("resume") },
            onSessionActive: { events.append("active") })
        var steps = [
            ("sleep true", [String]()),
            ("sleep false", ["resume"]),
            ("unlock", ["resume", "active"]),
            ("locked true", ["resume", "active"]),
            ("locked false", ["resume", "active", "active"]),
            ("active false", ["resume", "active", "active"]),
            ("active true", ["resume", "active", "active", "active"]),
        ]
        var expected: [String] = []
        var pending: BusSlot?
        // Polls on the loop: first for the session lookup, then for each step's effect.
        var poll: EventSource?
        poll = try loop.timer(accuracy: 0.005) {
            defer { poll?.arm(after: 0.02) }
            guard watcher.sessionPath != nil, pending == nil else { return }
            guard events == expected else { return }
            guard !steps.isEmpty else { return loop.exit(code: 0) }
            let (command, after) = steps.removeFirst()
            // A round trip first, so the session matches are surely installed.
            pending = try? connection.get().ping { _ in
                XCTAssertTrue(logind.send(command), command)
                expected = after
                pending = nil
            }
        }
        poll?.arm(after: 0.02)
        XCTAssertTrue(try runLoop(loop, timeout: 5), "stuck with \(steps.count) steps left; events \(events)")
        XCTAssertEqual(events, ["resume", "active", "active", "active"])
        XCTAssertEqual(watcher.sessionPath, "/org/freedesktop/login1/session/_31")
    }

    func testNoLogindOnTheBus_sessionLookupEndsQuietly() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = systemBus(bus, loop)
        let watcher = LogindWatcher(
            bus: connection, session: "auto", logger: logger,
            onResume: {
                XCTFail("no logind, no resume")
            })
        var settle: EventSource?
        settle = try loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
        settle?.arm(after: 0.3)
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertNil(watcher.sessionPath)
    }

    func testNoSystemBus_carriesOn() throws {
        let loop = try EventLoop()
        let failure = SystemError("sd_bus_open_system", errno: .noSuchFileOrDirectory)
        let watcher = LogindWatcher(bus: .failure(.system(failure)), session: "auto", logger: logger, onResume: {})
        XCTAssertNil(watcher.sessionPath)
        _ = loop
    }
}
