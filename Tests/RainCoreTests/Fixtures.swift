import Foundation
import RainCore
import RainSystem
import XCTest

/// Finds test data next to the sources: `Tests/Fixtures/` for recorded and
/// hand-made provider responses, `Tests/Fixtures/Golden/` for expected output.
/// (Data files inside a test target's directory would have to be declared in
/// Package.swift, or SwiftPM warns about them; `Tests/Fixtures` is no target.)
enum Fixtures {
    /// `.../Tests/RainCoreTests`, from this file's own path.
    static var testsDirectory: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()  // Fixtures.swift
        return parts.joined(separator: "/")
    }

    static var fixturesDirectory: String {
        var parts = testsDirectory.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()  // RainCoreTests
        return parts.joined(separator: "/") + "/Fixtures"
    }

    static var goldenDirectory: String { fixturesDirectory + "/Golden" }

    /// The system's tz database (Debian's tzdata), read as raind and raindctl read it.
    static let zoneInfo = ZoneInfo { path, limit in FileIO.contents(of: path, limit: limit) }

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = fixturesDirectory + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureMissing(path: path)
        }
        return [UInt8](data)
    }

    struct FixtureMissing: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot read fixture \(path)" }
    }
}
