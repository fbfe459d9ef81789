import RainCore
import RainDaemonCore

@testable import RainDaemon

/// The parts an air test runs, as `Daemon.init` makes them: the forecast
/// store, the refresher (restored from the cache) and the air watcher
/// spending beside it.
struct AirParts {
    let store: ForecastStore
    let refresher: Refresher
    let air: AirWatcher
    /// What the refresher and the watcher tell.
    let events = DaemonEvents()

    init(context: DaemonContext, http: any HTTPFetching, places: LocationList) throws {
        (store, refresher) = try Refresher.withStore(context: context, http: http, events: events, places: places)
        refresher.restore()
        air = try AirWatcher(context: context, http: http, store: store, events: events, budget: refresher)
    }
}
