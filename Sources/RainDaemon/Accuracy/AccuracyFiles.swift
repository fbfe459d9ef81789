import RainCore
import RainDaemonCore
import RainSystem

/// Where each place's `AccuracyRecord` lives (`accuracy/<id>.json` in the
/// state directory: a month of pairs cannot be fetched again, so it is
/// state, not cache), written atomically and durably like the state file.
/// Read back like an answer from outside: a file that is not raind's, or
/// whose values break the rules, is refused, renamed aside with a
/// timestamp (never overwritten) and the place starts a new record.
struct AccuracyFiles {
    let directory: String

    init(stateDirectory: String) { directory = "\(stateDirectory)/accuracy" }

    /// What reading a place's file found.
    enum Loaded: Equatable {
        case missing
        case loaded(AccuracyRecord)
        /// The file was refused for `reason`; it now lives at `keptAt`.
        case refused(reason: String, keptAt: String)
    }

    /// The file of a place; nil for an id that is no safe file name.
    func path(for id: LocationID) -> String? {
        id.isWellFormed ? "\(directory)/\(id.rawValue).json" : nil
    }

    func load(_ id: LocationID, now: Double) -> Loaded {
        guard let file = path(for: id) else { return .missing }
        let bytes: [UInt8]
        switch FileIO.readFile(file, limit: AccuracyRecord.maximumBytes, followingLinks: false) {
        case .success(let content): bytes = content
        case .failure(let error) where error.errno == .noSuchFileOrDirectory: return .missing
        case .failure(let error) where error.errno == .fileTooLarge:
            return refuse(file, reason: "larger than \(AccuracyRecord.maximumBytes >> 20) MiB", now: now)
        case .failure(let error): return refuse(file, reason: "\(error)", now: now)
        }
        do throws(WireDecodingError) {
            let record = try ForecastCache.decode(
                AccuracyRecord.self, from: bytes, version: AccuracyRecord.currentVersion, context: "accuracy")
            if let problem = record.validationProblem() { throw problem }
            return .loaded(record)
        } catch {
            return refuse(file, reason: error.description, now: now)
        }
    }

    private func refuse(_ file: String, reason: String, now: Double) -> Loaded {
        let kept = "\(file).corrupt-\(StateStore.timestamp(now))"
        if (try? FileIO.rename(file, to: kept)) == nil { try? FileIO.removeFile(file) }
        return .refused(reason: reason, keptAt: kept)
    }

    func store(_ record: AccuracyRecord, for id: LocationID) throws(SystemError) {
        guard let file = path(for: id) else { return }
        try FileIO.makeDirectories(directory, mode: 0o700)
        try FileIO.writeAtomically(record.jsonBytes, to: file, durability: .durable)
    }

    func remove(_ id: LocationID) {
        guard let file = path(for: id) else { return }
        try? FileIO.removeFile(file)
    }
}
