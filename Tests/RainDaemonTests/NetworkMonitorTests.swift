import Foundation
import Glibc
import XCTest

@testable import RainDaemon

final class NetworkMonitorTests: XCTestCase {
    let logger = Logger(subsystem: "test", threshold: .debug)

    // MARK: Route rules (pure)

    /// An RTM_NEWROUTE payload: struct rtmsg, then RTA_DST, RTA_OIF and RTA_TABLE.
    private func route(
        family: UInt8 = 2, destination: [UInt8] = [], prefix: UInt8 = 0, table: UInt32 = 254,
        type: UInt8 = 1, flags: UInt32 = 0, interface: Int32? = 2
    ) -> NetlinkRoute? {
        var bytes: [UInt8] = [family, prefix, 0, 0, UInt8(min(table, 252)), 4, 0, type]
        withUnsafeBytes(of: flags) { bytes += $0 }
        func attribute(_ kind: UInt16, _ value: [UInt8]) {
            withUnsafeBytes(of: UInt16(4 + value.count)) { bytes += $0 }
            withUnsafeBytes(of: kind) { bytes += $0 }
            bytes += value
            while bytes.count % 4 != 0 { bytes.append(0) }
        }
        if !destination.isEmpty { attribute(1, destination) }
        if let interface { withUnsafeBytes(of: interface) { attribute(4, Array($0)) } }
        withUnsafeBytes(of: table) { attribute(15, Array($0)) }
        return NetlinkRoute(payload: bytes[...])
    }

    func testDefaultRoute_isUsable() {
        XCTAssertEqual(route()?.isUsable, true)
    }

    func testSpecificRoute_withoutDefault_isUsable() {
        XCTAssertEqual(route(destination: [198, 18, 0, 0], prefix: 24)?.isUsable, true)
        XCTAssertEqual(
            route(family: 10, destination: [0xfd] + [UInt8](repeating: 0, count: 15), prefix: 64)?.isUsable, true)
    }

    func testLinkLocalLoopbackAndMulticastRoutes_areNotUsable() {
        XCTAssertEqual(route(destination: [169, 254, 0, 0], prefix: 16)?.isUsable, false)
        XCTAssertEqual(route(destination: [127, 0, 0, 0], prefix: 8)?.isUsable, false)
        XCTAssertEqual(
            route(family: 10, destination: [0xfe, 0x80] + [UInt8](repeating: 0, count: 14), prefix: 64)?.isUsable, false
        )
        XCTAssertEqual(
            route(family: 10, destination: [0xff] + [UInt8](repeating: 0, count: 15), prefix: 8)?.isUsable, false)
        XCTAssertEqual(route(interface: 1)?.isUsable, false, "through the loopback device")
    }

    func testRoutesOutsideMainTable_orNotUnicast_orLinkDown_areNotUsable() {
        XCTAssertEqual(route(table: 255)?.isUsable, false, "local table")
        XCTAssertEqual(route(table: 1000)?.isUsable, false, "a policy table")
        XCTAssertEqual(route(type: 7)?.isUsable, false, "unreachable")
        XCTAssertEqual(route(type: 6)?.isUsable, false, "blackhole")
        XCTAssertEqual(route(flags: 0x10)?.isUsable, false, "RTNH_F_LINKDOWN")
        XCTAssertEqual(route(flags: 0x1)?.isUsable, false, "RTNH_F_DEAD")
    }

    func testShortPayload_isNotARoute() {
        XCTAssertNil(NetlinkRoute(payload: [2, 0, 0][...]))
    }

    func testMessages_splitsDatagramAndDropsTruncatedTail() {
        var datagram = NetlinkMessage.routeDumpRequest(sequence: 7)
        datagram += NetlinkMessage.routeDumpRequest(sequence: 8)
        datagram += [20, 0, 0, 0, 3, 0]
        let messages = NetlinkMessage.parse(datagram)
        XCTAssertEqual(messages.map(\.sequence), [7, 8])
        XCTAssertEqual(messages.first?.type, NetlinkMessage.Constant.typeGetRoute)
        XCTAssertEqual(messages.first?.payload.count, 12)
    }

    // MARK: The kernel

    func testFirstReading_agreesWithIpRoute() throws {
        let loop = try EventLoop()
        let monitor = try NetworkMonitor(loop: loop, logger: logger) { _ in }
        let lines =
            (ipOutput(["-4", "-o", "route", "show", "table", "main"])
            + ipOutput(["-6", "-o", "route", "show", "table", "main"]))
            .split(separator: "\n")
        let usable = lines.contains { line in
            let words = line.split(separator: " ").map(String.init)
            let destination = words.first ?? ""
            let excluded = ["unreachable", "blackhole", "prohibit", "throw", "multicast", "linkdown", "dead"]
            return !words.contains { excluded.contains($0) }
                && !(words.firstIndex(of: "dev").map { $0 + 1 < words.count && words[$0 + 1] == "lo" } ?? false)
                && !destination.hasPrefix("fe80:") && !destination.hasPrefix("169.254.")
                && !destination.hasPrefix("127.") && destination != "::1"
        }
        XCTAssertEqual(monitor.currentlyHasRoute, usable, lines.joined(separator: "\n"))
    }

    /// In a network namespace of its own: a route on a veth pair makes the
    /// network usable, the peer losing its carrier makes it unusable (only a
    /// link event says so), and deleting the link ends it.
    func testRouteChanges_inNamespace_callOnChangeOncePerChange() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root for ip netns") }
        let namespace = "raindtest\(getpid())"
        guard ip(["netns", "add", namespace]) == 0 else { throw XCTSkip("ip netns add is not permitted here") }
        defer { ip(["netns", "del", namespace]) }
        let inside = ["-n", namespace]
        guard ip(inside + ["link", "add", "raindtest0", "type", "veth", "peer", "name", "raindtest1"]) == 0 else {
            throw XCTSkip("cannot create a veth pair here")
        }

        let loop = try EventLoop()
        var changes: [Bool] = []
        var steps: [() -> Void] = [
            {
                // Several changes in a burst: one answer.
                self.ip(inside + ["link", "set", "raindtest1", "up"])
                self.ip(inside + ["link", "set", "raindtest0", "up"])
                self.ip(inside + ["route", "add", "198.18.0.0/24", "dev", "raindtest0"])
                self.ip(inside + ["route", "add", "198.18.1.0/24", "dev", "raindtest0"])
            },
            { self.ip(inside + ["link", "set", "raindtest1", "down"]) },
            { self.ip(inside + ["link", "set", "raindtest1", "up"]) },
            { self.ip(inside + ["link", "del", "raindtest0"]) },
        ]
        var settle: EventSource?
        let monitor = try inNamespace(namespace) {
            try NetworkMonitor(loop: loop, debounce: 0.05, logger: logger) { hasRoute in
                changes.append(hasRoute)
                if steps.isEmpty {
                    // Wait a little for a stray second answer before finishing.
                    settle = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
                    settle?.arm(after: 0.3)
                } else {
                    steps.removeFirst()()
                }
            }
        }
        XCTAssertFalse(monitor.currentlyHasRoute, "a new namespace has only its loopback device")
        loop.later { steps.removeFirst()() }
        XCTAssertTrue(try runLoop(loop, timeout: 5), "changes so far: \(changes)")
        XCTAssertEqual(changes, [true, false, true, false])
        XCTAssertFalse(monitor.currentlyHasRoute)
    }

    // MARK: Helpers

    @discardableResult
    private func ip(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func ipOutput(_ arguments: [String]) -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `body` with this thread in the named network namespace, so the
    /// sockets it opens stay there; setns(2) is found with dlsym because
    /// Swift's Glibc module hides it behind _GNU_SOURCE.
    private func inNamespace<T>(_ name: String, _ body: () throws -> T) throws -> T {
        typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
        let cloneNewNet: Int32 = 0x4000_0000
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else {
            throw XCTSkip("setns is not available")
        }
        let setns = unsafeBitCast(symbol, to: SetNamespace.self)
        let original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        let target = open("/run/netns/\(name)", O_RDONLY | O_CLOEXEC)
        defer {
            close(original)
            close(target)
        }
        guard original >= 0, target >= 0, setns(target, cloneNewNet) == 0 else {
            throw XCTSkip("cannot enter network namespace \(name): \(String(cString: strerror(errno)))")
        }
        defer { precondition(setns(original, cloneNewNet) == 0, "cannot return to the test's network namespace") }
        return try body()
    }
}

final class NetworkMonitorServiceTests: XCTestCase {
    /// NetworkManager's StateChanged(NM_STATE_CONNECTED_GLOBAL), sent by busctl (which owns no name).
    static func emitConnectedGlobal(on bus: PrivateBus, file: StaticString = #filePath, line: UInt = #line) {
        let signal = ["/org/freedesktop/NetworkManager", "org.freedesktop.NetworkManager", "StateChanged"]
        XCTAssertEqual(try? bus.busctl(["emit"] + signal + ["u", "70"]), 0, file: file, line: line)
    }

    func testNetworkManagerStateChanged_causesOneRouteDump() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        let monitor = try NetworkMonitor(loop: loop, debounce: 0.05, logger: Logger(subsystem: "test")) { _ in }
        try monitor.watchNetworkServices(on: connection, checkSender: false)
        let before = monitor.dumpCount
        var settle: EventSource?
        let ping = try connection.ping { _ in
            // Twice in a burst: one dump.
            Self.emitConnectedGlobal(on: bus)
            Self.emitConnectedGlobal(on: bus)
            settle = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
            settle?.arm(after: 0.4)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(monitor.dumpCount - before, 1)
        _ = ping
    }

    func testNetworkManagerSignal_fromAnotherSender_isIgnored() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        let monitor = try NetworkMonitor(loop: loop, debounce: 0.05, logger: Logger(subsystem: "test")) { _ in }
        try monitor.watchNetworkServices(on: connection)
        let before = monitor.dumpCount
        var settle: EventSource?
        let ping = try connection.ping { _ in
            Self.emitConnectedGlobal(on: bus)
            settle = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
            settle?.arm(after: 0.3)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(monitor.dumpCount - before, 0)
        _ = ping
    }
}
