import RainCore

/// Which places a person looks at, so that a "became active" moment (a
/// resume, the network back, a session unlocked, a first subscriber)
/// refetches those at once and leaves the others to their schedule
/// (docs/SCHEDULING.md, "Became active"): the selected place, which the
/// bars, the subscribers' snapshots and `now` without a place show, and
/// every place a client asked for by name (`GetForecast`, `now PLACE`)
/// within `recent`. The forecasts, the official alerts and the air follow
/// the one rule. Pure: the clock is a parameter.
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

    /// A poll due this long before the time its poller looks (its timer
    /// fires at most 30 s late to coalesce) fell due while the machine slept
    /// or was offline.
    public static let lateAfter: Double = 120

    /// When a poll due at `due`, seen at `now`, goes out (the alerts' and
    /// the air's rule, docs/SCHEDULING.md "Became active"): when it is on
    /// time, or its place is looked at, when it was due; one that fell due
    /// while the machine slept or was offline, for a place nobody looks at,
    /// at `draw` (0..<1) of its `interval` from now, so what fell due is
    /// spread over an interval instead of asked all at once.
    public static func catchUp(due: Double, now: Double, interval: Double, lookedAt: Bool, draw: Double) -> Double {
        guard !lookedAt, now - due > lateAfter else { return due }
        return now + max(0, interval) * min(max(draw, 0), 1)
    }

    /// Forgets the places no longer saved.
    public mutating func keep(only ids: [LocationID]) {
        let saved = Set(ids)
        asked = asked.filter { saved.contains($0.key) }
    }
}
