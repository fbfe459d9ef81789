import RainCore
import RainDaemonCore

/// What a "became active" moment refetches (`PlaceAttention`): only the
/// places a person looks at; the others keep their schedule.
extension Refresher {
    /// A client asked for the place's forecast (`GetForecast`): it counts as looked at for an hour.
    func lookedAt(_ id: LocationID) {
        attention.asked(id, at: now)
    }

    /// The saved places a person looks at now: the selected one, and those asked for recently.
    func placesLookedAt() -> [LocationID] {
        let ids = list.locations.map(\.id)
        attention.keep(only: ids)
        return attention.lookedAt(ids, selected: list.selectedID, now: now)
    }
}
