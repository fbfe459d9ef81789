import RainCore
import RainDaemonCore

@testable import RainDaemon

extension Refresher {
    /// The forecast store on `context`'s cache directory and a refresher
    /// on it, as `Daemon.init` makes them (SI units, the default interval):
    /// what the alert, air and accuracy tests' parts start from.
    static func withStore(
        context: DaemonContext, http: any HTTPFetching, events: DaemonEvents, places: LocationList
    ) throws -> (store: ForecastStore, refresher: Refresher) {
        let store = ForecastStore(
            cache: ForecastCache(directory: context.paths.cacheDirectory, logger: context.logger))
        let refresher = try Refresher(
            context: context, http: http, store: store, events: events, places: places,
            settings: Settings(units: .si, refreshMinutes: nil))
        return (store, refresher)
    }
}
