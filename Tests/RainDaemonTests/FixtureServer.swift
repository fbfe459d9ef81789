import Foundation
import RainCore
import TestSupport
import XCTest

/// tests/fixture_server/fixture_server.py run as a subprocess on 127.0.0.1,
/// serving a temporary directory. Stopped (SIGTERM, then reaped) on `stop()` or deinit.
final class FixtureServer {
    let port: Int
    let directory: URL
    private let process: Process

    /// Starts the server with `files` (name → contents) in a fresh temporary
    /// directory; with `tls`, over HTTPS with a fresh self-signed certificate;
    /// `headers` ("Name: value") are added to every file served.
    init(files: [String: [UInt8]], routes: [String: String] = [:], headers: [String] = [], tls: Bool = false) throws {
        let script = Repository.path("tests/fixture_server/fixture_server.py")
        guard let python = Self.findOnPath("python3") else {
            throw XCTSkip("python3 is not on PATH; the fixture server needs it")
        }
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-fixture-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents).write(to: directory.appendingPathComponent(name))
        }

        var arguments =
            [script, directory.path]
            + routes.sorted { $0.key < $1.key }.flatMap { ["--route", "\($0.key)=\($0.value)"] }
            + headers.flatMap { ["--header", $0] }
        if tls {
            let certificate = directory.appendingPathComponent("cert.pem").path
            let key = directory.appendingPathComponent("key.pem").path
            try Self.makeSelfSignedCertificate(certificate: certificate, key: key)
            arguments += ["--tls-cert", certificate, "--tls-key", key]
        }
        process = Process()
        process.executableURL = python
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()

        // The first line is "PORT <n>"; EOF first means the server died.
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw FixtureError(message: "fixture server did not report its port; got \(text.debugDescription)")
        }
        self.port = port
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }

    /// Scripts the next `count` requests under `prefix` (-1: every one until
    /// `unscript()`) to be answered in `mode` with `fields` (as the server's
    /// `/_mode` takes them: `status`, `retry_after`, `delay`).
    func script(_ prefix: String, mode: String, count: Int = 1, _ fields: [String: String] = [:]) throws {
        var body = "{\"path_prefix\": \"\(prefix)\", \"mode\": \"\(mode)\", \"count\": \(count)"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { body += ", \"\(key)\": \"\(value)\"" }
        _ = try control("POST", "/_mode", body: body + "}")
    }

    /// Ends every scripted mode; the counts stay.
    func unscript() throws { _ = try control("POST", "/_unscript", body: "{}") }

    /// How many requests reached paths starting with `prefix`.
    func count(_ prefix: String) throws -> Int {
        let reply = try JSON(parsing: Array(try control("GET", "/_stats", body: nil).utf8))
        var total = 0
        for (path, value) in reply["paths"]?.objectValue ?? JSONObject() where path.hasPrefix(prefix) {
            total += value.intValue ?? 0
        }
        return total
    }

    /// How many requests reached targets (path and query) starting with `prefix`.
    func countTargets(_ prefix: String) throws -> Int {
        let reply = try JSON(parsing: Array(try control("GET", "/_stats", body: nil).utf8))
        var total = 0
        for (target, value) in reply["targets"]?.objectValue ?? JSONObject() where target.hasPrefix(prefix) {
            total += value.intValue ?? 0
        }
        return total
    }

    /// One request to the server's control endpoints over a plain socket
    /// (HTTP/1.0, so the server closes when done); the reply's body.
    private func control(_ method: String, _ path: String, body: String?) throws -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw FixtureError(message: "socket: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw FixtureError(message: "connect to the fixture server: errno \(errno)") }
        let payload = body ?? ""
        let request = Array(
            "\(method) \(path) HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: \(payload.utf8.count)\r\n\r\n\(payload)"
                .utf8)
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard written > 0 else { throw FixtureError(message: "write to the fixture server: errno \(errno)") }
            sent += written
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = read(socket, &buffer, buffer.count)
            if got <= 0 { break }
            reply += buffer[0..<got]
        }
        let text = String(decoding: reply, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.") && text.dropFirst(9).hasPrefix("200") else {
            throw FixtureError(message: "the fixture server refused \(method) \(path): \(text.prefix(200))")
        }
        return text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    /// `openssl req -x509` with an EC key: fast, and trusted by nobody.
    private static func makeSelfSignedCertificate(certificate: String, key: String) throws {
        guard let openssl = findOnPath("openssl") else {
            throw XCTSkip("openssl is not on PATH; it makes the test certificate")
        }
        let make = Process()
        make.executableURL = openssl
        make.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
        ]
        make.standardOutput = FileHandle.nullDevice
        make.standardError = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        guard make.terminationStatus == 0 else {
            throw FixtureError(message: "openssl req failed with status \(make.terminationStatus)")
        }
    }

    private static func findOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
