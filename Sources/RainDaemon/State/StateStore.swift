import Glibc
import RainCore
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
    }

    public func load(now: Double) throws(SystemError) -> Loaded {
        let bytes: [UInt8]
        switch FileIO.readFile(path, limit: 16 << 20) {
        case .success(let content): bytes = content
        case .failure(let error) where error.errno == ENOENT: return .missing
        case .failure(let error) where error.errno == EFBIG:
            return try quarantine(reason: "larger than 16 MiB", now: now)
        case .failure(let error): throw error
        }
        do {
            return .loaded(try PersistentState(bytes: bytes))
        } catch {
            return try quarantine(reason: error.description, now: now)
        }
    }

    private func quarantine(reason: String, now: Double) throws(SystemError) -> Loaded {
        let kept = "\(path).corrupt-\(Self.timestamp(now))"
        guard rename(path, kept) == 0 else { throw SystemError("rename", subject: "\(path) to \(kept)") }
        return .quarantined(reason: reason, keptAt: kept)
    }

    public func save(_ state: PersistentState) throws(SystemError) {
        try FileIO.makeDirectories(FileIO.parentDirectory(of: path), mode: 0o700)
        try FileIO.writeAtomically(state.bytes, to: path)
    }

    /// `20261129T181500Z`: sorts by time, safe in file names.
    static func timestamp(_ unixSeconds: Double) -> String {
        var time = time_t(unixSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
