import Foundation
import Glibc
import XCTest

@testable import RainDaemon

final class GeoClueClientTests: XCTestCase {
    let logger = Logger(subsystem: "test", threshold: .debug)

    /// Runs one `locate` against the private bus, plus `settle` seconds so that
    /// Stop reaches the fake; returns the result and how long it took.
    private func locate(
        on bus: PrivateBus, timeout: Double = 5, settle: Double = 0.3
    ) throws -> (Result<GeoClueClient.Position, GeoClueError>?, Double) {
        bus.useAsSystemBus()
        let loop = try EventLoop()
        let client = GeoClueClient(loop: loop, timeout: timeout, logger: logger)
        var outcome: Result<GeoClueClient.Position, GeoClueError>?
        var finishedAfter = 0.0
        var settleTimer: EventSource?
        let started = loop.monotonicNow
        loop.later {
            client.locate { result in
                XCTAssertNil(outcome, "completion called twice")
                outcome = result
                finishedAfter = loop.monotonicNow - started
                settleTimer = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
                settleTimer?.arm(after: settle)
            }
        }
        XCTAssertTrue(try runLoop(loop, timeout: timeout + 3), "locate never completed")
        return (outcome, finishedAfter)
    }

    func testLocate_withGeoClue_returnsPositionAndStops() throws {
        let bus = try PrivateBus()
        let geoclue = try FakeService(
            "fake_geoclue.py", arguments: ["--latitude", "52.2215", "--longitude", "6.8937", "--accuracy", "4000"],
            bus: bus)
        let (result, _) = try locate(on: bus)
        XCTAssertEqual(try result?.get(), GeoClueClient.Position(latitude: 52.2215, longitude: 6.8937, accuracy: 4000))
        XCTAssertEqual(geoclue.readLine(timeout: 2), "start raind 4", "DesktopId and city accuracy set before Start")
        XCTAssertEqual(geoclue.readLine(timeout: 2), "stop")
    }

    func testLocate_withoutGeoClue_failsQuicklyWithServiceUnavailable() throws {
        let bus = try PrivateBus()
        // Not .timedOut: the answer came from the bus, not from waiting out the 5 s.
        let (result, _) = try locate(on: bus, timeout: 5, settle: 0)
        guard case .failure(.serviceUnavailable)? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertTrue(
            "\(GeoClueError.serviceUnavailable(.remote(name: "x", message: "")))".contains("GeoClue2 is not running"))
    }

    func testLocate_whenGeoClueRefuses_failsWithDenied() throws {
        let bus = try PrivateBus()
        let geoclue = try FakeService("fake_geoclue.py", arguments: ["--mode", "deny"], bus: bus)
        let (result, _) = try locate(on: bus)
        guard case .failure(.denied(let error))? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(error.remoteName, BusError.Name.accessDenied)
        XCTAssertEqual(geoclue.readLine(timeout: 2), "start raind 4")
    }

    func testLocate_whenNoUpdateComes_timesOutAndStops() throws {
        let bus = try PrivateBus()
        let geoclue = try FakeService("fake_geoclue.py", arguments: ["--mode", "silent"], bus: bus)
        let (result, elapsed) = try locate(on: bus, timeout: 0.5)
        guard case .failure(.timedOut(let seconds))? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(seconds, 0.5)
        XCTAssertGreaterThanOrEqual(elapsed, 0.45, "it waited for the timeout")
        XCTAssertEqual(geoclue.readLine(timeout: 2), "start raind 4")
        XCTAssertEqual(geoclue.readLine(timeout: 2), "stop")
    }

    func testLocate_withNoSystemBus_failsWithNoBus() throws {
        let saved = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
        defer {
            if let saved { setenv("DBUS_SYSTEM_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/raind-test-bus", 1)
        let loop = try EventLoop()
        let client = GeoClueClient(loop: loop, logger: logger)
        var outcome: Result<GeoClueClient.Position, GeoClueError>?
        client.locate { result in
            outcome = result
            loop.exit(code: 0)
        }
        XCTAssertNil(outcome, "never completes from within locate")
        XCTAssertTrue(try runLoop(loop, timeout: 2))
        guard case .failure(.noBus)? = outcome else { return XCTFail("\(String(describing: outcome))") }
    }

    func testLocate_askedTwiceWhileRunning_answersBoth() throws {
        let bus = try PrivateBus()
        let geoclue = try FakeService("fake_geoclue.py", bus: bus)
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        let client = GeoClueClient(loop: loop, bus: connection, logger: logger)
        var answers: [GeoClueClient.Position] = []
        for _ in 0..<2 {
            client.locate { result in
                if case .success(let position) = result { answers.append(position) }
                if answers.count == 2 { loop.exit(code: 0) }
            }
        }
        XCTAssertTrue(client.isLocating)
        XCTAssertTrue(try runLoop(loop, timeout: 5))
        XCTAssertEqual(answers.count, 2)
        XCTAssertFalse(client.isLocating)
        XCTAssertEqual(geoclue.readLine(timeout: 2), "start raind 4", "one exchange for both")
    }
}
