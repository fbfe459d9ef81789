import Glibc
import RainCore
import RainSystem

/// One file per place under the cache directory (`<id>.json`), written
/// atomically. The cache is not precious: a file that cannot be read is
/// discarded with a warning and the place is fetched again.
public struct ForecastCache {
    public let directory: String
    let logger: Logger

    public init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    func path(for id: LocationID) -> String { "\(directory)/\(id.rawValue).json" }

    /// The cached forecast of a place, when there is a usable one for its position.
    func load(_ location: Location) -> CachedForecast? {
        let file = path(for: location.id)
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
        do {
            try FileIO.makeDirectories(directory, mode: 0o700)
            try FileIO.writeAtomically(Array(cached.json.serialized().utf8), to: path(for: id))
        } catch {
            logger.warning("cannot write the forecast cache for \(id): \(error)")
        }
    }

    /// The upstream calls counted today, kept beside the forecasts so a restart does not renew the budget.
    var budgetFile: String { "\(directory)/budget.json" }

    /// A file from before monthly counting (`day`, `calls` only) reads as that
    /// day's requests and calls, with the month unknown (counted from zero).
    func loadBudget() -> BudgetUsage? {
        guard case .success(let bytes) = FileIO.readFile(budgetFile, limit: 4096),
            let value = try? JSON(parsing: bytes),
            let day = value["day"]?.doubleValue, let calls = value["calls"]?.doubleValue
        else { return nil }
        var usage = BudgetUsage()
        usage.day = day
        usage.callsToday = max(0, calls)
        usage.requestsToday = max(0, value["requests"]?.intValue ?? Int(calls))
        if let month = value["month"]?.doubleValue {
            usage.month = month
            usage.callsThisMonth = max(0, value["monthCalls"]?.doubleValue ?? 0)
            usage.requestsThisMonth = max(0, value["monthRequests"]?.intValue ?? 0)
        }
        return usage
    }

    func storeBudget(_ usage: BudgetUsage) {
        let fields = JSON.object([
            "day": .number(usage.day), "calls": .number(usage.callsToday), "requests": .int(usage.requestsToday),
            "month": .number(usage.month), "monthCalls": .number(usage.callsThisMonth),
            "monthRequests": .int(usage.requestsThisMonth),
        ])
        do {
            try FileIO.makeDirectories(directory, mode: 0o700)
            try FileIO.writeAtomically(Array(fields.serialized().utf8), to: budgetFile)
        } catch {
            logger.warning("cannot record today's upstream calls: \(error)")
        }
    }

    func remove(_ id: LocationID) {
        unlink(path(for: id))
    }
}
