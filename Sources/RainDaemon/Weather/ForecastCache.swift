import RainCore
import RainDaemonCore
import RainSystem

/// One file per place in the `forecasts` folder of the cache directory
/// (`forecasts/<id>.json`), written atomically but without fsync: the cache
/// is not precious. A file that cannot be read is discarded with a warning and
/// the place is fetched again. The folder keeps place ids apart from raind's
/// own files (`budget.json`), whatever a place is called.
public final class ForecastCache {
    public let directory: String
    let logger: Logger
    /// What was last written to each budget file, by provider name ("" for the total).
    private var writtenBudgets: [String: BudgetUsage] = [:]

    public init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    var forecastDirectory: String { "\(directory)/forecasts" }

    /// The file of a place's forecast; nil for an id that is no safe file name
    /// (ids are validated when the state is read, so this is a second lock).
    func path(for id: LocationID) -> String? {
        id.isWellFormed ? "\(forecastDirectory)/\(id.rawValue).json" : nil
    }

    /// Removes the temporary files a killed raind left in the cache.
    func removeLeftovers() {
        for folder in [directory, forecastDirectory, alertsDirectory, stationsDirectory] {
            for name in FileIO.removeLeftoverTemporaries(in: folder) {
                logger.info("removed \(folder)/\(name), left over from an interrupted write")
            }
        }
    }

    /// Before 0.2 a place's file sat directly in the cache directory, where a
    /// place with the id `budget` shared the call counter's file. A file there
    /// is moved into `forecasts/` once, so an upgrade costs no requests; the
    /// counters' files (`budget.json`, `budget-NAME.json`) stay.
    private func migrateLegacyFile(of id: LocationID, to file: String) {
        guard id.rawValue != "budget", !id.rawValue.hasPrefix("budget-") else { return }
        let legacy = "\(directory)/\(id.rawValue).json"
        guard FileIO.exists(legacy) else { return }
        do {
            try FileIO.makeDirectories(forecastDirectory, mode: 0o700)
        } catch {
            return
        }
        if (try? FileIO.rename(legacy, to: file)) != nil { logger.info("moved the cache file \(legacy) to \(file)") }
    }

    /// The cached forecast of a place, when there is a usable one for its position.
    func load(_ location: Location) -> CachedForecast? {
        guard let file = path(for: location.id) else { return nil }
        if !FileIO.exists(file) { migrateLegacyFile(of: location.id, to: file) }
        guard let bytes = read(file, limit: 8 << 20, what: "cache file") else { return nil }
        do {
            let cached = try CachedForecast(bytes: bytes)
            if let problem = cached.validationProblem() { throw problem }
            let distance = GeoDistance.kilometres(
                latitude1: cached.latitude, longitude1: cached.longitude,
                latitude2: location.latitude, longitude2: location.longitude)
            guard distance < LocationList.sameplaceKilometres else {
                logger.info("cache file \(file) is for another position; discarding it")
                try? FileIO.removeFile(file)
                return nil
            }
            return cached
        } catch {
            logger.warning("cache file \(file) is corrupt (\(error)); discarding it, the place will be fetched again")
            try? FileIO.removeFile(file)
            return nil
        }
    }

    /// A cache file's bytes; nil when there is none, or when it cannot be
    /// read, which is then discarded with a warning (`what` names it).
    func read(_ file: String, limit: Int, what: String) -> [UInt8]? {
        switch FileIO.readFile(file, limit: limit, followingLinks: false) {
        case .success(let content): return content
        case .failure(let error) where error.errno == .noSuchFileOrDirectory: return nil
        case .failure(let error):
            logger.warning("\(what) \(file) unreadable (\(error)); discarding it")
            try? FileIO.removeFile(file)
            return nil
        }
    }

    /// A cache file's value of type `T`, whose `version` field must be `version`.
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], version: Int, context: String
    ) throws(WireDecodingError) -> T {
        let value: JSON
        do {
            value = try JSON(parsing: bytes)
        } catch {
            throw WireDecodingError(field: context, reason: error.description)
        }
        guard value["version"]?.intValue == version else { throw Self.notVersion(version, context) }
        return try T(json: value, context: context)
    }

    /// `decode`'s reading from a tape (`WireReadable`), with its rules and
    /// errors: for a file read before READY=1 (`CachedForecast`).
    static func read<T: WireReadable>(
        _ type: T.Type, from bytes: [UInt8], version: Int, context: String
    ) throws(WireDecodingError) -> T {
        let tape: JSONTape
        do {
            tape = try JSONTape(parsing: bytes)
        } catch {
            throw WireDecodingError(field: context, reason: error.description)
        }
        guard tape.wholeNumber("version") == version else { throw Self.notVersion(version, context) }
        return try T(wire: WireFields(tape, context: context))
    }

    private static func notVersion(_ version: Int, _ context: String) -> WireDecodingError {
        WireDecodingError(field: "\(context).version", reason: "not version \(version)")
    }

    /// Writes a place's forecast. A failure is logged: the data stays in memory and is served.
    func store(_ cached: CachedForecast, for id: LocationID) {
        guard let file = path(for: id) else { return }
        write(cached.jsonBytes, to: file, in: forecastDirectory, what: "forecast", for: id)
    }

    /// Writes one of a place's cache files into `folder` (made when
    /// missing), atomically but without fsync. A failure is logged, naming
    /// `what` the file holds: the data stays in memory and is served.
    func write(_ bytes: [UInt8], to file: String, in folder: String, what: String, for id: LocationID) {
        do {
            try FileIO.makeDirectories(folder, mode: 0o700)
            try FileIO.writeAtomically(bytes, to: file, durability: .disposable)
        } catch {
            logger.warning("cannot write the \(what) cache for \(id): \(error)")
        }
    }

    /// The upstream calls counted today, kept beside the forecasts so a restart does not renew the budget.
    var budgetFile: String { "\(directory)/budget.json" }

    /// One provider's own count (`ProviderBudgets`), beside the total.
    func budgetFile(provider: ProviderName?) -> String {
        provider.map { "\(directory)/budget-\($0.rawValue).json" } ?? budgetFile
    }

    /// A provider's book as last written (`BudgetUsage(persisted:)`); nil
    /// when there is none, or when the file is not one raind wrote (said in
    /// the log, naming what is wrong), which counts as no calls.
    func loadBudget(provider: ProviderName? = nil) -> BudgetUsage? {
        let file = budgetFile(provider: provider)
        guard case .success(let bytes) = FileIO.readFile(file, limit: 4096, followingLinks: false) else { return nil }
        do {
            let usage = try BudgetUsage(persisted: bytes)
            writtenBudgets[provider?.rawValue ?? ""] = usage
            return usage
        } catch {
            logger.warning("\(file) is not a count of upstream calls raind wrote (\(error)); counting from zero")
            return nil
        }
    }

    /// Writes the counter when it changed; a lost write only forgets a few calls.
    func storeBudget(_ usage: BudgetUsage, provider: ProviderName? = nil) {
        let key = provider?.rawValue ?? ""
        if writtenBudgets[key] == usage { return }
        let fields = usage.persisted
        do {
            try FileIO.makeDirectories(directory, mode: 0o700)
            try FileIO.writeAtomically(
                Array(fields.serialized().utf8), to: budgetFile(provider: provider), durability: .disposable)
            writtenBudgets[key] = usage
        } catch {
            logger.warning("cannot record today's upstream calls: \(error)")
        }
    }

    func remove(_ id: LocationID) {
        guard let file = path(for: id) else { return }
        try? FileIO.removeFile(file)
        storeOfficialAlerts(nil, for: id)
    }
}
