import RainCore
import RainDaemonCore

@testable import RainDaemon

/// The parts an accuracy test runs, as `Daemon.init` makes them: the
/// forecast store, the refresher (restored from the cache), the
/// observation watcher and the accuracy keeper, wired by the event table
/// and restored for `places`.
struct AccuracyParts {
    let store: ForecastStore
    /// What the parts tell one another.
    let events = DaemonEvents()
    let refresher: Refresher
    let watcher: ObservationWatcher
    let keeper: AccuracyKeeper

    init(context: DaemonContext, http: any HTTPFetching, places: LocationList) throws {
        (store, refresher) = try Refresher.withStore(context: context, http: http, events: events, places: places)
        refresher.restore()
        watcher = try ObservationWatcher(
            context: context, http: http, books: refresher, cache: store.cache, events: events)
        keeper = try AccuracyKeeper(context: context, http: http, refresher: refresher, observations: watcher)
        events.connect(EventParts(refresher: refresher, observations: watcher, accuracy: keeper))
        watcher.restore(places.locations)
        keeper.restore(places.locations, forecasts: store)
    }
}
