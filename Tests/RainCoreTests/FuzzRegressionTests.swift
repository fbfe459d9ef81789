import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Replays every input the fuzzing campaign ever crashed on
/// (`fuzz/regressions/<target>/`, docs/FUZZING.md) through its target: each
/// must now return. A trap here fails the whole test run, as it should.
final class FuzzRegressionTests: XCTestCase {
    static let regressions = Repository.path("fuzz/regressions")

    /// Inputs known to be kept (issue 9): an empty or unreadable folder, or one
    /// that lost them, fails instead of replaying nothing.
    static let knownInputs = [
        "cache/issue9-fetched-at-1e308.json",
        "state/issue9-id-traversal.json",
        "state/issue9-latitude-1e300.json",
        "state/issue9-refresh-minutes-1e12.json",
    ]

    /// The script names each target but the providers', which it finds by
    /// their recorded answers (Tests/Fixtures/STEM-forecast-*.json), as the
    /// provider conformance suite does.
    func testEveryTargetIsKnownToTheScript() throws {
        let script = try TestFile.text(Repository.path("scripts/fuzz"))
        let fixtures = try TestFile.names(in: Fixtures.directory)
        let providers = Set(WeatherProviders.all.map(\.name.stem))
        for target in FuzzTargets.all {
            if providers.contains(target.name) {
                XCTAssertTrue(fixtures.contains { $0.hasPrefix(target.name + "-forecast-") }, target.name)
            } else {
                XCTAssertTrue(script.contains(target.name), target.name)
            }
        }
    }

    func testSavedCrashInputs_nowReturn() throws {
        let replayed = try Self.replay(Self.regressions)
        XCTAssertGreaterThanOrEqual(replayed.count, Self.knownInputs.count)
        for input in Self.knownInputs {
            XCTAssertTrue(replayed.contains(input), "\(input) is kept in fuzz/regressions and replayed")
        }
        print("replayed \(replayed.count) saved fuzz inputs")
    }

    /// Runs every file kept under `folder/<target>/` through its target and
    /// returns those replayed ("target/name"); fails the test unless that is
    /// every file kept (one in a folder named for no target is not).
    static func replay(_ folder: String) throws -> [String] {
        var kept: [String] = []
        for directory in try TestFile.names(in: folder) {
            kept += try TestFile.names(in: folder + "/" + directory).map { directory + "/" + $0 }
        }
        var replayed: [String] = []
        for input in kept {
            let targetName = String(input.prefix { $0 != "/" })
            guard let target = FuzzTargets.all.first(where: { $0.name == targetName }) else { continue }
            target.run(try TestFile.bytes(folder + "/" + input))
            replayed.append(input)
        }
        XCTAssertEqual(
            replayed, kept, "every input kept in \(folder) is replayed (a folder there names no fuzz target?)")
        return replayed
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
}
