/// Finds test data in the repository: `Tests/Fixtures/` for recorded and
/// hand-made provider responses, `Tests/Fixtures/Golden/` for expected output.
/// (Data files inside a test target's directory would have to be declared in
/// Package.swift, or SwiftPM warns about them; `Tests/Fixtures` is no target.)
public enum Fixtures {
    public static let directory = Repository.path("Tests/Fixtures")

    public static var goldenDirectory: String { directory + "/Golden" }

    /// The bytes of the fixture `name`; an error names the file when it cannot be read.
    public static func bytes(_ name: String) throws -> [UInt8] {
        try TestFile.bytes(directory + "/" + name)
    }
}
