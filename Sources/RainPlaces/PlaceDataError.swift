/// A place data file that cannot be used: missing, unreadable, or not what
/// raind wrote. Says which file and what is wrong with it.
public struct PlaceDataError: Error, Equatable, CustomStringConvertible {
    /// The file that was read.
    public var path: String
    /// What is wrong, in words a person can act on.
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        "place data \(path): \(problem) (regenerate it with scripts/make-places.py, "
            + "or point RAIND_DATA_DIR at a directory holding a good places.bin)"
    }
}
