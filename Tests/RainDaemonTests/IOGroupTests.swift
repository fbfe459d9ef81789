import Glibc
import RainDaemon
import RainSystem
import XCTest

/// The clients' group of descriptors behind one loop source, on real pipes
/// and a real sd-event loop: every member ready is handled in the same turn,
/// a member cancelled in the turn is not, and a member's events can change.
final class IOGroupTests: XCTestCase {
    /// A pipe's two ends, closed when the test ends.
    private func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&ends), 0)
        let read = FileDescriptor(taking: ends[0])
        let write = FileDescriptor(taking: ends[1])
        for end in [read, write] {
            try end.setNonBlocking()
            try end.setCloseOnExec()
        }
        return (read, write)
    }

    func testReadyMembers_areHandledInOneTurn_andOneCancelledInItIsNot() throws {
        let loop = try EventLoop()
        let group = try IOGroup(loop: loop, name: "test clients")
        let pipes = try (0..<4).map { _ in try pipe() }
        var handled: [Int] = []
        // What had been handled when the loop's next turn began.
        var atNextTurn: [Int]?
        var members: [IOGroup.Member] = []
        for (index, ends) in pipes.enumerated() {
            members.append(
                try group.watch(fd: ends.read.rawValue, events: [.readable, .edgeTriggered]) { _ in
                    handled.append(index)
                    guard handled.count == 1 else { return }
                    // The first handled takes the last one out before its turn comes.
                    members[3].cancel()
                    loop.later { atNextTurn = handled }
                })
        }
        var writable: IOEvents = []
        var writer: IOGroup.Member?
        var afterRelease = 0
        // Each step waits for what the one before caused, then causes the next.
        var steps: [() throws -> Bool] = [
            {
                guard let seen = atNextTurn else { return false }
                XCTAssertEqual(seen.sorted(), [0, 1, 2], "every member ready but the one cancelled, in one turn")
                // Edge-triggered, nothing read: no new call until a new byte comes.
                handled = []
                XCTAssertEqual(try pipes[1].write.write([2][...]), 1)
                return true
            },
            {
                guard !handled.isEmpty else { return false }
                XCTAssertEqual(handled, [1])
                // Watched for nothing, then for writing: a pipe with room is ready at once.
                writer = try group.watch(fd: pipes[0].write.rawValue, events: []) { events in writable = events }
                writer?.setEvents(.writable)
                return true
            },
            {
                guard !writable.isEmpty else { return false }
                XCTAssertTrue(writable.contains(.writable), "\(writable.rawValue)")
                // Released, members are no longer watched: a byte for one calls nothing.
                writer = nil
                members.removeAll()
                handled = []
                XCTAssertEqual(try pipes[2].write.write([3][...]), 1)
                return true
            },
            {
                // Three turns after the byte was written, the group's source has been dispatched.
                afterRelease += 1
                guard afterRelease == 3 else { return false }
                XCTAssertEqual(handled, [])
                return true
            },
        ]
        var turns = 0
        var step: EventSource?
        step = try loop.timer(accuracy: 0.000_001) {
            turns += 1
            do {
                if try steps.first?() == true { steps.removeFirst() }
            } catch {
                XCTFail("\(error)")
                steps = []
            }
            if steps.isEmpty || turns > 1_000 { loop.exit(code: 0) } else { step?.arm(after: 0) }
        }
        for ends in pipes { XCTAssertEqual(try ends.write.write([1][...]), 1) }
        step?.arm(after: 0)
        XCTAssertEqual(try loop.run(), 0)
        XCTAssertTrue(steps.isEmpty, "\(steps.count) steps left after \(turns) turns")
        step = nil
    }

    /// A turn whose time is up leaves the members already reported for the
    /// next one, and they are handled then though epoll reports them no more.
    func testATurnOutOfTime_leavesTheRestForTheNext() throws {
        let loop = try EventLoop()
        // No time at all: each turn handles one member, then the loop gets its turn.
        let group = try IOGroup(loop: loop, name: "test clients", turnSeconds: 0)
        let pipes = try (0..<3).map { _ in try pipe() }
        var handled: [Int] = []
        var atNextTurn: Int?
        let members = try pipes.enumerated().map { index, ends in
            try group.watch(fd: ends.read.rawValue, events: [.readable, .edgeTriggered]) { _ in
                handled.append(index)
                if handled.count == 1 { loop.later { atNextTurn = handled.count } }
                if handled.count == 3 { loop.exit(code: 0) }
            }
        }
        for ends in pipes { XCTAssertEqual(try ends.write.write([1][...]), 1) }
        // A deadline, not a wait: members left behind for good would otherwise hang the test.
        let deadline = try loop.timer(accuracy: 0.1) { loop.exit(code: 1) }
        deadline.arm(after: 10)
        XCTAssertEqual(try loop.run(), 0)
        XCTAssertEqual(handled.sorted(), [0, 1, 2], "each member reported once, edge-triggered, and all handled")
        XCTAssertLessThan(try XCTUnwrap(atNextTurn), 3, "the loop had a turn before the last member")
        withExtendedLifetime(members) {}
    }
}
