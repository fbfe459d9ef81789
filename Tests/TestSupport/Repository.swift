/// Paths in this repository, found from this file's own path: tests read the
/// repository's files where they are, so each stays a plain file of the tree.
public enum Repository {
    /// `<repo>/Tests/TestSupport/Repository.swift` → `<repo>`.
    public static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The absolute path of `relative`, a path inside the repository.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
