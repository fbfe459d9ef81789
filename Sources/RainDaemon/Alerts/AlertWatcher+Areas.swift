import RainCore
import RainDaemonCore

/// The areas places are asked by, as the answers name them (the DWD's warn
/// cell, `DWDWarnCell`): kept with the place's lookups in the forecast
/// store, under the service's book, and written with its forecast, so that
/// the next plan (`plan(for:source:at:)`) asks by area, and a restart too.
extension AlertWatcher {
    func keepArea(_ outcome: AlertAreaLookup, of id: LocationID, source: any AlertSource) {
        switch outcome {
        case .unchanged:
            break
        case .keep(let lookup):
            store.keep(lookup, of: id, by: .alerts(source.name))
        case .ignored(let reason):
            logger.info("\(id): \(source.name): asked by point: \(reason)")
        case .drop(let reason):
            logger.warning("\(id): \(source.name): asked by point again: \(reason)")
            store.dropLookup(of: id, by: .alerts(source.name))
        }
    }
}
