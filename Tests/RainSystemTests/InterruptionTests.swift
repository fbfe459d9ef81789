import Foundation
import Glibc
import XCTest

@testable import RainSystem

/// Every wrapper goes on through signals (EINTR), as a daemon with signal
/// handlers needs: real signals, sent to the test's thread while it blocks
/// in a real pipe, poll or sleep.
final class InterruptionTests: XCTestCase {
    private func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw SystemError("pipe", errno: Errno(rawValue: errno)) }
        return (FileDescriptor(taking: ends[0]), FileDescriptor(taking: ends[1]))
    }

    /// The storm does interrupt: a bare poll(2) under it fails with EINTR.
    /// Without this, the tests below could pass with signals that never
    /// reached a blocking call.
    func testTheStorm_interruptsABarePoll() throws {
        let (reader, writer) = try pipe()
        defer { withExtendedLifetime(writer) {} }  // an open write end: no hang-up to report
        let storm = SignalStorm(target: pthread_self())
        var entry = pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0)
        let result = Glibc.poll(&entry, 1, 5000)
        let code = errno
        storm.stop()
        XCTAssertEqual(result, -1)
        XCTAssertEqual(code, EINTR)
    }

    func testWaitUntilReadable_lastsItsTimeout_throughSignals() throws {
        let (reader, writer) = try pipe()
        defer { withExtendedLifetime(writer) {} }  // an open write end: no hang-up to report
        let start = SystemClock.monotonic.now()
        let storm = SignalStorm(target: pthread_self())
        let ready = try reader.waitUntilReadable(timeout: 0.3)
        let elapsed = SystemClock.monotonic.now() - start
        let sent = storm.stop()
        XCTAssertFalse(ready, "nothing was written")
        XCTAssertGreaterThanOrEqual(elapsed, 0.3, "a signal cut the wait short")
        // Each signal restarting the whole timeout would wait until the storm ends (5 s).
        XCTAssertLessThan(elapsed, 3, "the wait restarted its whole timeout after each signal")
        XCTAssertGreaterThan(sent, 10)
    }

    func testWaitUntilReadable_returnsWhenSomethingArrives_throughSignals() throws {
        let (reader, writer) = try pipe()
        let writerEnd = writer.rawValue
        let storm = SignalStorm(target: pthread_self(), beforeAction: 50) {
            _ = Glibc.write(writerEnd, "x", 1)
        }
        let ready = try reader.waitUntilReadable(timeout: 30)
        storm.stop()
        XCTAssertTrue(ready)
        var buffer: [UInt8] = []
        XCTAssertEqual(try reader.read(into: &buffer), 1)
        XCTAssertEqual(buffer, Array("x".utf8))
    }

    func testRead_goesOnThroughSignals_untilDataArrives() throws {
        let (reader, writer) = try pipe()
        let writerEnd = writer.rawValue
        let storm = SignalStorm(target: pthread_self(), beforeAction: 50) {
            _ = Glibc.write(writerEnd, "raind", 5)
        }
        var buffer: [UInt8] = []
        let count = try reader.read(into: &buffer)
        storm.stop()
        XCTAssertEqual(count, 5)
        XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "raind")
    }

    func testSleep_lastsItsTime_throughSignals() throws {
        let start = SystemClock.monotonic.now()
        let storm = SignalStorm(target: pthread_self())
        try SystemClock.sleep(seconds: 0.2)
        let elapsed = SystemClock.monotonic.now() - start
        let sent = storm.stop()
        XCTAssertGreaterThanOrEqual(elapsed, 0.2, "a signal cut the sleep short")
        XCTAssertLessThan(elapsed, 3)
        XCTAssertGreaterThan(sent, 10)
    }

    func testSleep_ofNothingOrNonsense_returnsAtOnce() throws {
        for seconds in [0, -1, Double.nan, -Double.infinity] {
            let start = SystemClock.monotonic.now()
            try SystemClock.sleep(seconds: seconds)
            XCTAssertLessThan(SystemClock.monotonic.now() - start, 0.5, "\(seconds)")
        }
    }
}
