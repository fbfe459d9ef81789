import Glibc
import RainCore

/// One file per place in the `forecasts` folder of the cache directory
/// (`forecasts/<id>.json`), written atomically but without fsync: the cache
/// is not precious. A file that cannot be read is discarded with a warning and
/// the place is fetched again. The folder keeps place ids apart from raind's
/// own files (`budget.json`), whatever a place is called.
public final class ForecastCache {
    public let directory: String
    let logger: Logger
    /// The counter last written, so an unchanged one is not written again.
    private var writtenBudget: (day: Double, calls: Int)?

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
        for folder in [directory, forecastDirectory] {
            for name in FileIO.removeLeftoverTemporaries(in: folder) {
                logger.info("removed \(folder)/\(name), left over from an interrupted write")
            }
        }
    }

    /// Before 0.2 a place's file sat directly in the cache directory, where a
    /// place with the id `budget` shared the call counter's file. A file there
    /// is moved into `forecasts/` once, so an upgrade costs no requests.
    private func migrateLegacyFile(of id: LocationID, to file: String) {
        guard id.rawValue != "budget" else { return }
        let legacy = "\(directory)/\(id.rawValue).json"
        guard FileIO.exists(legacy) else { return }
        do {
            try FileIO.makeDirectories(forecastDirectory, mode: 0o700)
        } catch {
            return
        }
        if rename(legacy, file) == 0 { logger.info("moved the cache file \(legacy) to \(file)") }
    }

    /// The cached forecast of a place, when there is a usable one for its position.
    func load(_ location: Location) -> CachedForecast? {
        guard let file = path(for: location.id) else { return nil }
        if !FileIO.exists(file) { migrateLegacyFile(of: location.id, to: file) }
        let bytes: [UInt8]
        switch FileIO.readFile(file, limit: 8 << 20) {
        case .success(let content): bytes = content
        case .failure(let error) where error.errno == ENOENT: return nil
        case .failure(let error):
            logger.warning("cache file \(file) unreadable (\(error)); discarding it")
            unlink(file)
            return nil
        }
        do {
            let cached = try CachedForecast(bytes: bytes)
            if let problem = cached.validationProblem() { throw problem }
            let distance = GeoDistance.kilometres(
                latitude1: cached.latitude, longitude1: cached.longitude,
                latitude2: location.latitude, longitude2: location.longitude)
            guard distance < LocationList.sameplaceKilometres else {
                logger.info("cache file \(file) is for another position; discarding it")
                unlink(file)
                return nil
            }
            return cached
        } catch {
            logger.warning("cache file \(file) is corrupt (\(error)); discarding it, the place will be fetched again")
            unlink(file)
            return nil
        }
    }

    /// Writes a place's forecast. A failure is logged: the data stays in memory and is served.
    func store(_ cached: CachedForecast, for id: LocationID) {
        guard let file = path(for: id) else { return }
        do {
            try FileIO.makeDirectories(forecastDirectory, mode: 0o700)
            try FileIO.writeAtomically(Array(cached.json.serialized().utf8), to: file, durability: .disposable)
        } catch {
            logger.warning("cannot write the forecast cache for \(id): \(error)")
        }
    }

    /// The upstream calls counted today, kept beside the forecasts so a restart does not renew the budget.
    var budgetFile: String { "\(directory)/budget.json" }

    /// The counter on disk; nil when missing or invalid (a day that is no
    /// UTC midnight of a plausible date, a negative count), which counts as no calls.
    func loadBudget() -> (day: Double, calls: Int)? {
        guard case .success(let bytes) = FileIO.readFile(budgetFile, limit: 4096),
            let value = try? JSON(parsing: bytes),
            let day = value["day"]?.doubleValue, let calls = value["calls"]?.intValue,
            Forecast.plausibleTimes.contains(day), day.truncatingRemainder(dividingBy: 86400) == 0,
            (0...100_000_000).contains(calls)
        else { return nil }
        writtenBudget = (day, calls)
        return (day, calls)
    }

    /// Writes the counter when it changed.
    func storeBudget(day: Double, calls: Int) {
        if let written = writtenBudget, written.day == day, written.calls == calls { return }
        do {
            try FileIO.makeDirectories(directory, mode: 0o700)
            try FileIO.writeAtomically(
                Array(JSON.object(["day": .number(day), "calls": .int(calls)]).serialized().utf8), to: budgetFile,
                durability: .disposable)
            writtenBudget = (day, calls)
        } catch {
            logger.warning("cannot record today's upstream calls: \(error)")
        }
    }

    func remove(_ id: LocationID) {
        guard let file = path(for: id) else { return }
        unlink(file)
    }
}
