import Foundation
import Glibc
import RainDaemon
import XCTest

/// A private dbus-daemon for one test, allowing everything, listening on a
/// socket in a temporary directory. `useAsSystemBus()` points
/// DBUS_SYSTEM_BUS_ADDRESS at it for this process.
final class PrivateBus {
    let directory: URL
    let address: String
    private let process: Process

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            throw XCTSkip("dbus-daemon is not installed (Debian package dbus-daemon)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        // --print-address writes the address once the bus listens: reading that
        // line waits for readiness (a socket file alone may exist before listen()).
        process.arguments = ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"]
        let ready = Pipe()
        process.standardOutput = ready
        // It warns that it cannot raise its fd limit when not started by systemd; noise here.
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed: [UInt8] = []
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = ready.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // end of file: the daemon exited
            printed += chunk
        }
        guard printed.contains(UInt8(ascii: "\n")) else {
            stop()
            throw NSError(
                domain: "PrivateBus", code: 1, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon did not start"])
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
        switch savedSystemBusAddress {
        case nil: break
        case .some(nil): unsetenv("DBUS_SYSTEM_BUS_ADDRESS")
        case .some(.some(let saved)): setenv("DBUS_SYSTEM_BUS_ADDRESS", saved, 1)
        }
    }

    /// What DBUS_SYSTEM_BUS_ADDRESS was before `useAsSystemBus()`, restored when the bus goes.
    private var savedSystemBusAddress: String??

    func useAsSystemBus() {
        if savedSystemBusAddress == nil {
            savedSystemBusAddress = .some(getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) })
        }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Runs `busctl --address=... ARGS` to completion; returns its exit status.
    @discardableResult
    func busctl(_ arguments: [String]) throws -> Int32 {
        let busctl = Process()
        busctl.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        busctl.arguments = ["--address=\(address)"] + arguments
        try busctl.run()
        busctl.waitUntilExit()
        return busctl.terminationStatus
    }

    /// The environment for a helper process that should use this bus as its system bus.
    var helperEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return environment
    }
}

/// Runs `loop` until the test calls `loop.exit(code: 0)` or `timeout` passes.
/// Returns whether the test finished before the deadline.
func runLoop(_ loop: EventLoop, timeout: Double) throws -> Bool {
    let deadline = try loop.timer(accuracy: 0.01) { loop.exit(code: 99) }
    deadline.arm(after: timeout)
    let code = try loop.run()
    return code == 0
}
