import Glibc
import XCTest

@testable import RainCore

/// Replays every input the fuzzing campaign ever crashed on
/// (`fuzz/regressions/<target>/`, docs/FUZZING.md) through its target: each
/// must now return. A trap here fails the whole test run, as it should.
final class FuzzRegressionTests: XCTestCase {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    func testEveryTargetIsKnownToTheScript() throws {
        let script = try XCTUnwrap(Self.read(Self.root + "/scripts/fuzz"))
        for target in FuzzTargets.all {
            XCTAssertTrue(String(decoding: script, as: UTF8.self).contains(target.name), target.name)
        }
    }

    func testSavedCrashInputs_nowReturn() {
        var replayed = 0
        for target in FuzzTargets.all {
            let directory = Self.root + "/fuzz/regressions/" + target.name
            for name in Self.files(in: directory) {
                guard let bytes = Self.read(directory + "/" + name) else { continue }
                target.run(bytes)
                replayed += 1
            }
        }
        print("replayed \(replayed) saved fuzz inputs")
    }

    /// The hand-made inputs of issue 9, through the same targets.
    func testKnownTrapInputs_return() {
        let inputs: [(String, String)] = [
            (
                "state",
                #"{"version":1,"locations":[{"id":"p","name":"P","latitude":1e300,"longitude":2}],"settings":{"units":"si","refreshMinutes":1000000000000}}"#
            ),
            (
                "state",
                #"{"version":1,"locations":[{"id":"../../x","name":"P","latitude":1,"longitude":2}],"settings":{"units":"si"}}"#
            ),
            (
                "cache",
                #"{"provider":"open-meteo","fetchedAt":1e308,"timeZone":"","utcOffsetSeconds":0,"hourly":[],"daily":[],"alerts":[]}"#
            ),
            ("config", "\u{FEFF}[Refresh]\r\nIntervalMinutes=99999999999999999999\r\n"),
            ("varlink", "\u{01}{\"method\":\"io.raind.Weather.AddLocation\",\"parameters\":{\"latitude\":1e999}}\0"),
        ]
        for (name, text) in inputs {
            guard let target = FuzzTargets.all.first(where: { $0.name == name }) else { return XCTFail(name) }
            target.run(Array(text.utf8))
        }
    }

    static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)  // d_name is NUL-terminated
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}
