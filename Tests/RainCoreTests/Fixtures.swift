import Foundation
import XCTest

/// Finds test data next to the sources: `Tests/Fixtures/` for recorded and
/// hand-made provider responses, `Tests/RainCoreTests/Golden/` for expected output.
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

    static var goldenDirectory: String { testsDirectory + "/Golden" }

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
