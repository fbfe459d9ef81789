import Foundation
import Glibc
import TestSupport
import XCTest

/// A fake D-Bus service from tests/fakes/, run with Debian's Python (which has
/// python3-dbus and python3-gi), talking to the test over stdin and stdout.
final class FakeService {
    static let python = "/usr/bin/python3"
    static let fakesDirectory = Repository.path("tests/fakes")

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Starts `script` with `arguments` on `bus` and waits for its "ready" line.
    init(_ script: String, arguments: [String] = [], bus: PrivateBus) throws {
        guard Self.hasPythonDBus else {
            throw XCTSkip("\(Self.python) lacks the dbus and gi modules (Debian packages python3-dbus, python3-gi)")
        }
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.fakesDirectory + "/" + script] + arguments
        process.environment = bus.helperEnvironment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = readLine(timeout: 10)
        guard line == "ready" else {
            stop()
            throw NSError(
                domain: "FakeService", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "\(script) did not start: \(line ?? "no output")"])
        }
    }

    deinit { stop() }

    static let hasPythonDBus: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import dbus, dbus.service, dbus.mainloop.glib; from gi.repository import GLib"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Sends one command line and waits for its "ok" answer.
    @discardableResult
    func send(_ command: String, timeout: Double = 5) -> Bool {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        return readLine(timeout: timeout) == "ok " + command
    }

    /// One line of output, or nil after `timeout` seconds or at end of output.
    func readLine(timeout: Double) -> String? {
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { return nil }
            buffered.append(contentsOf: chunk[..<n])
        }
    }
}
