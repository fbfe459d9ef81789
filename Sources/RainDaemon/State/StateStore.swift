import RainCore
import RainDaemonCore
import RainSystem

/// Keeps `state.json`: loads it at start, writes it atomically after each change.
/// An unreadable file is never overwritten: it is renamed aside with a
/// timestamp and reported with both paths.
public struct StateStore {
    public let path: String

    public init(path: String) { self.path = path }

    /// What loading found.
    public enum Loaded {
        case missing
        case loaded(PersistentState)
        /// The file could not be read as state; it now lives at `keptAt`.
        case quarantined(reason: String, keptAt: String)
        /// The file was read, but parts broke the rules (`PersistentState.validated`)
        /// and were dropped or defaulted; the original content was copied to
        /// `keptAt` and the repaired state saved in its place.
        case repaired(PersistentState, problems: [String], keptAt: String)
    }

    public func load(now: Double) throws(SystemError) -> Loaded {
        let bytes: [UInt8]
        switch FileIO.readFile(path, limit: 16 << 20, followingLinks: false) {
        case .success(let content): bytes = content
        case .failure(let error) where error.errno == .noSuchFileOrDirectory: return .missing
        case .failure(let error) where error.errno == .fileTooLarge:
            return try quarantine(reason: "larger than 16 MiB", now: now)
        case .failure(let error) where FileIO.isNotRegularFile(error):
            return try quarantine(reason: "not a regular file", now: now)
        case .failure(let error) where error.errno == .tooManySymbolicLinkLevels:
            // The link itself is moved aside; whatever it points at is neither read nor touched.
            return try quarantine(
                reason: "a symbolic link, which raind does not follow in its own directories", now: now)
        case .failure(let error): throw error
        }
        let decoded: PersistentState
        do {
            decoded = try PersistentState(bytes: bytes)
        } catch {
            return try quarantine(reason: error.description, now: now)
        }
        let (state, problems) = decoded.validated()
        guard !problems.isEmpty else { return .loaded(state) }
        // The original stays readable beside the repaired file, so nothing a person saved is lost.
        let kept = "\(path).invalid-\(Self.timestamp(now))"
        try FileIO.writeAtomically(bytes, to: kept)
        try save(state)
        return .repaired(state, problems: problems, keptAt: kept)
    }

    private func quarantine(reason: String, now: Double) throws(SystemError) -> Loaded {
        let kept = "\(path).corrupt-\(Self.timestamp(now))"
        try FileIO.rename(path, to: kept)
        return .quarantined(reason: reason, keptAt: kept)
    }

    public func save(_ state: PersistentState) throws(SystemError) {
        try FileIO.makeDirectories(FileIO.parentDirectory(of: path), mode: 0o700)
        try FileIO.writeAtomically(state.bytes, to: path)
    }

    /// `20261129T181500Z`: sorts by time, safe in file names.
    static func timestamp(_ unixSeconds: Double) -> String {
        // A clock far off must not trap the conversion; such a name still sorts and is unique enough.
        let time = unixSeconds.isFinite ? min(max(unixSeconds, 0), 253_402_300_799) : 0
        let utc = CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(utc.year)\(two(utc.month))\(two(utc.day))T\(two(utc.hour))\(two(utc.minute))\(two(utc.second))Z"
    }
}
