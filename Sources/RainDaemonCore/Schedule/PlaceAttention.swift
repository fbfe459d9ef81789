import RainCore

/// Which places a person looks at, so that a "became active" moment (a
/// resume, the network back, a session unlocked, a first subscriber)
/// refetches those at once and leaves the others to their schedule
/// (docs/SCHEDULING.md, "Became active"): the selected place, which the
/// bars, the subscribers' snapshots and `now` without a place show, and
/// every place a client asked for by name (`GetForecast`, `now PLACE`)
/// within `recent`. Pure: the clock is a parameter.
public struct PlaceAttention: Sendable {
    /// How long a place asked for counts as looked at: an hour.
    public static let recent: Double = 3600

    private var asked: [LocationID: Double] = [:]

    public init() {}

    /// A client asked for the place at `time`.
    public mutating func asked(_ id: LocationID, at time: Double) {
        asked[id] = max(asked[id] ?? time, time)
    }

    /// Of `ids`, in their order, those looked at `now`: the selected one and those asked for recently.
    /// A time ahead of now (the wall clock set back) counts as recent.
    public func lookedAt(_ ids: [LocationID], selected: LocationID?, now: Double) -> [LocationID] {
        ids.filter { id in id == selected || (asked[id].map { now - $0 < Self.recent } ?? false) }
    }

    /// Forgets the places no longer saved.
    public mutating func keep(only ids: [LocationID]) {
        let saved = Set(ids)
        asked = asked.filter { saved.contains($0.key) }
    }
}
