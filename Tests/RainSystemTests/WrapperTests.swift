import Foundation
import Glibc
import RainNameService
import XCTest

@testable import RainSystem

/// The typed wrappers on real files, links, signals, limits and groups: what
/// they return, and errors that name the C call, its subject and errno.
final class WrapperTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rainsystem-\(UUID())").path
        try FileIO.makeDirectories(directory, mode: 0o700)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func assertError(
        _ body: () throws -> Void, call: String, errno code: Errno, subject: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            try body()
            XCTFail("no error; expected \(call) to fail", file: file, line: line)
        } catch let error as SystemError {
            XCTAssertEqual(error.call, call, file: file, line: line)
            XCTAssertEqual(error.errno, code, "\(error)", file: file, line: line)
            if let subject { XCTAssertEqual(error.subject, subject, file: file, line: line) }
        } catch {
            XCTFail("not a SystemError: \(error)", file: file, line: line)
        }
    }

    func testErrors_nameTheCallItsSubjectAndErrno() {
        let missing = directory + "/missing"
        assertError(
            { _ = try FileDescriptor.open(missing, O_RDONLY) }, call: "open", errno: .noSuchFileOrDirectory,
            subject: missing)
        assertError({ try FileIO.removeFile(missing) }, call: "unlink", errno: .noSuchFileOrDirectory, subject: missing)
        assertError(
            { try FileIO.rename(missing, to: directory + "/other") }, call: "rename", errno: .noSuchFileOrDirectory,
            subject: "\(missing) to \(directory)/other")
        assertError(
            { _ = try FileIO.directoryEntries(in: missing) }, call: "opendir", errno: .noSuchFileOrDirectory,
            subject: missing)
        assertError({ _ = try FileIO.symbolicLinkTarget(of: directory) }, call: "readlink", errno: .invalidArgument)
        assertError(
            { _ = try SignalSet([SIGTERM, 9999]) }, call: "sigaddset", errno: .invalidArgument, subject: "signal 9999")
        assertError(
            { try ResourceLimit.set(.openFiles, to: ResourceLimit(soft: 2, hard: 1)) }, call: "setrlimit",
            errno: .invalidArgument, subject: "RLIMIT_NOFILE")
        let error = SystemError("unlink", errno: .noSuchFileOrDirectory, subject: missing)
        XCTAssertEqual(error.description, "unlink \(missing): No such file or directory")
        XCTAssertEqual(SystemError("poll", errno: .interrupted).description, "poll: Interrupted system call")
    }

    func testReadFile_andContents_readWholeRegularFilesWithinTheLimit() throws {
        let path = directory + "/file"
        try FileIO.writeAtomically(Array(repeating: 7, count: 100_000), to: path)
        XCTAssertEqual(try FileIO.readFile(path, limit: 100_000).get().count, 100_000)
        XCTAssertEqual(FileIO.contents(of: path, limit: 100_000)?.count, 100_000)
        XCTAssertNil(FileIO.contents(of: path, limit: 99_999))
        XCTAssertEqual(FileIO.readFile(path, limit: 99_999).failure?.errno, .fileTooLarge)
        XCTAssertNil(FileIO.contents(of: directory, limit: 1 << 20), "a directory is no file")
        XCTAssertTrue(FileIO.isReadable(path))
        XCTAssertFalse(FileIO.isReadable(directory + "/missing"))
    }

    func testDirectoryEntries_leaveOutDotAndDotDot() throws {
        for name in ["b.conf", "a.conf", ".hidden"] {
            try FileIO.writeAtomically([], to: directory + "/" + name, durability: .disposable)
        }
        XCTAssertEqual(try FileIO.directoryEntries(in: directory).sorted(), [".hidden", "a.conf", "b.conf"])
    }

    func testSymbolicLinkTarget_readsLongTargetsWhole() throws {
        // Longer than the first buffer, so the read is made again with more room.
        let target = "/" + String(repeating: "long-directory-name/", count: 40) + "zone"
        let link = directory + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertEqual(try FileIO.symbolicLinkTarget(of: link), target)
        try FileManager.default.createSymbolicLink(atPath: directory + "/short", withDestinationPath: "x")
        XCTAssertEqual(try FileIO.symbolicLinkTarget(of: directory + "/short"), "x")
    }

    func testUntrustedDirectoryReason_judgesWhatALinkPointsAt_byOwnerAndWriteBits() throws {
        let me = ProcessIdentity.effectiveUserID
        XCTAssertNil(FileIO.untrustedDirectoryReason(directory, owner: me))
        XCTAssertNil(FileIO.untrustedDirectoryReason(directory + "/missing", owner: me), "made private later")
        // A link to a private directory is that directory: systemd's DynamicUser layout.
        try FileIO.makeDirectories(directory + "/private/raind", mode: 0o755)
        try FileManager.default.createSymbolicLink(atPath: directory + "/raind", withDestinationPath: "private/raind")
        XCTAssertNil(FileIO.untrustedDirectoryReason(directory + "/raind", owner: me))
        XCTAssertEqual(
            FileIO.untrustedDirectoryReason(directory + "/raind", owner: me + 1),
            "it (a link to private/raind) belongs to user \(me), not to user \(me + 1) who runs raind")
        XCTAssertEqual(chmod(directory + "/private/raind", 0o775), 0)
        XCTAssertEqual(
            FileIO.untrustedDirectoryReason(directory + "/raind", owner: me),
            "it (a link to private/raind) can be written by its group (mode 775)")
        XCTAssertEqual(chmod(directory + "/private/raind", 0o1777), 0)
        XCTAssertEqual(
            FileIO.untrustedDirectoryReason(directory + "/private/raind", owner: me),
            "it can be written by every user (mode 1777)")
        try FileIO.writeAtomically([], to: directory + "/file")
        XCTAssertEqual(FileIO.untrustedDirectoryReason(directory + "/file", owner: me), "it is not a directory")
        try FileManager.default.createSymbolicLink(atPath: directory + "/loop", withDestinationPath: "loop")
        XCTAssertEqual(
            FileIO.untrustedDirectoryReason(directory + "/loop", owner: me),
            "it cannot be examined (Too many levels of symbolic links)")
    }

    func testRemoveFile_andRename() throws {
        let path = directory + "/a"
        try FileIO.writeAtomically(Array("a".utf8), to: path)
        try FileIO.rename(path, to: directory + "/b")
        XCTAssertFalse(FileIO.exists(path))
        XCTAssertEqual(FileIO.contents(of: directory + "/b", limit: 10), Array("a".utf8))
        try FileIO.removeFile(directory + "/b")
        XCTAssertFalse(FileIO.exists(directory + "/b"))
    }

    func testSignalSet_blocksAndUnblocksForTheThread() throws {
        let set = try SignalSet([SIGUSR2])
        XCTAssertTrue(set.contains(SIGUSR2))
        XCTAssertFalse(set.contains(SIGUSR1))
        XCTAssertFalse(try SignalSet.blocked().contains(SIGUSR2))
        try set.block()
        XCTAssertTrue(try SignalSet.blocked().contains(SIGUSR2))
        try set.unblock()
        XCTAssertFalse(try SignalSet.blocked().contains(SIGUSR2))
    }

    func testResourceLimit_readsAndSetsTheOpenFilesLimit() throws {
        let limit = try ResourceLimit.current(.openFiles)
        XCTAssertLessThanOrEqual(limit.soft, limit.hard)
        XCTAssertGreaterThan(limit.soft, 2)
        let lowered = ResourceLimit(soft: limit.soft - 1, hard: limit.hard)
        try ResourceLimit.set(.openFiles, to: lowered)
        XCTAssertEqual(try ResourceLimit.current(.openFiles), lowered)
        try ResourceLimit.set(.openFiles, to: limit)
        XCTAssertEqual(try ResourceLimit.current(.openFiles), limit)
    }

    func testGroupID_ofAGroupThatExistsAndOfOneThatDoesNot() throws {
        XCTAssertEqual(try UserDatabase.groupID(named: "root"), 0)
        XCTAssertNil(try UserDatabase.groupID(named: "raind-no-such-group"))
    }

    func testClocks_tellTheTime() {
        let wall = SystemClock.realtime.now()
        XCTAssertEqual(wall, Date().timeIntervalSince1970, accuracy: 5)
        let first = SystemClock.monotonic.now()
        XCTAssertLessThanOrEqual(first, SystemClock.monotonic.now())
        XCTAssertEqual(Double(SystemClock.monotonic.microseconds()) / 1e6, SystemClock.monotonic.now(), accuracy: 1)
    }

    func testWaitUntilReadable_seesDataAndHangUp_atOnce() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&ends), 0)
        let reader = FileDescriptor(taking: ends[0])
        let writer = FileDescriptor(taking: ends[1])
        XCTAssertFalse(try reader.waitUntilReadable(timeout: 0))
        try writer.writeAll(Array("x".utf8))
        XCTAssertTrue(try reader.waitUntilReadable(timeout: 30))
        var buffer: [UInt8] = []
        _ = try reader.read(into: &buffer)
        writer.close()
        XCTAssertTrue(try reader.waitUntilReadable(timeout: 30), "a hang-up wakes the wait; the read says end of file")
        XCTAssertEqual(try reader.read(into: &buffer), 0)
    }

    func testNetlinkSocket_receivesTheKernelsRouteDump_andNothingWhenQuiet() throws {
        let socket = try NetlinkSocket(groups: 0)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        XCTAssertNil(try socket.receive(into: &buffer), "nothing asked, nothing waiting (EAGAIN)")
        // struct nlmsghdr { len 28, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, seq 1, pid 0 } + an empty rtmsg.
        var request: [UInt8] = []
        for (value, size) in [(28, 4), (26, 2), (0x301, 2), (1, 4), (0, 4)] as [(UInt32, Int)] {
            withUnsafeBytes(of: value.littleEndian) { request += $0.prefix(size) }
        }
        request += [UInt8](repeating: 0, count: 12)
        try socket.send(request)
        let count = try XCTUnwrap(try socket.receive(into: &buffer), "the kernel answers a dump at once")
        XCTAssertGreaterThanOrEqual(count, 16)
        let type = UInt16(buffer[4]) | UInt16(buffer[5]) << 8
        XCTAssertTrue([24, 3].contains(type), "RTM_NEWROUTE or NLMSG_DONE, not \(type)")
        // A datagram larger than the buffer is refused whole.
        try socket.send(request)
        var small = [UInt8](repeating: 0, count: 8)
        assertError({ _ = try socket.receive(into: &small) }, call: "recv", errno: .messageTooLong, subject: "netlink")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
