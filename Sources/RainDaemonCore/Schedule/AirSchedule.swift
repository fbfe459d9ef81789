import RainCore

/// When each place's air quality is asked for (docs/SCHEDULING.md, "Air
/// quality"): the selected place once per model update (`updateInterval`,
/// an hour for Open-Meteo), the others every `backgroundFactor` updates,
/// each delayed by a random 0...`jitterFraction` of its interval; never more
/// often, whatever triggers fire. A failure waits 60 s, doubling to the
/// interval; a budget that cannot afford it waits until it renews. Pure:
/// the daemon (`AirWatcher`) feeds it what happened and the time.
public struct AirSchedule: Sendable {
    /// One place's state.
    public struct Entry: Equatable, Sendable {
        public var due: Double
        public var lastSuccess: Double?
        public var failures = 0
        public var inFlight = false
    }

    public var updateInterval: Double
    public var jitterFraction: Double
    /// Places other than the selected one are asked every this many updates.
    public static let backgroundFactor = 3.0
    /// The first wait after a failure.
    public static let firstBackoff = 60.0

    public private(set) var places: [LocationID: Entry] = [:]
    public private(set) var selected: LocationID?
    private var random: SplitMix64

    public init(updateInterval: Double, jitterFraction: Double, seed: UInt64) {
        self.updateInterval = max(60, updateInterval)
        self.jitterFraction = max(0, jitterFraction)
        self.random = SplitMix64(seed: seed)
    }

    /// The interval of a place: the selected one's or the others'.
    public func interval(selected isSelected: Bool) -> Double {
        isSelected ? updateInterval : updateInterval * Self.backgroundFactor
    }

    /// The places to keep: new ones are due at once, unless `restored`
    /// says when they last had data; removed ones are forgotten.
    public mutating func track(_ ids: [LocationID], selected: LocationID?, now: Double) {
        let kept = Set(ids)
        places = places.filter { kept.contains($0.key) }
        for id in ids where places[id] == nil { places[id] = Entry(due: now) }
        selectionChanged(to: selected, now: now)
    }

    /// The place had data fetched at `fetchedAt` (a restart): it is due one
    /// interval after it, without jitter; data from the future is due now.
    public mutating func restored(_ id: LocationID, fetchedAt: Double, now: Double) {
        guard places[id] != nil else { return }
        let due = fetchedAt > now ? now : fetchedAt + interval(selected: id == selected)
        places[id]?.due = due
        places[id]?.lastSuccess = fetchedAt > now ? nil : fetchedAt
    }

    /// The selection moved: the new one is due an update after its last
    /// data (at once without any), the previous one moves to the longer interval.
    public mutating func selectionChanged(to id: LocationID?, now: Double) {
        guard id != selected else { return }
        let previous = selected
        selected = id
        let background = interval(selected: false)
        let foreground = interval(selected: true)
        if let previous, let entry = places[previous], !entry.inFlight, let last = entry.lastSuccess,
            entry.failures == 0
        {
            places[previous]?.due = max(entry.due, last + background)
        }
        if let id, let entry = places[id], !entry.inFlight, entry.failures == 0 {
            places[id]?.due = min(entry.due, (entry.lastSuccess ?? now) + foreground)
        }
    }

    /// The places due at `now`, with nothing under way.
    public func due(now: Double) -> [LocationID] {
        places.filter { !$0.value.inFlight && $0.value.due <= now }.map(\.key).sorted { $0.rawValue < $1.rawValue }
    }

    /// What fell due while the machine slept or was offline
    /// (`PlaceAttention.catchUp`): the places in `lookedAt` stay due now;
    /// each other one is moved to a random point of its interval from now.
    /// nil: every place is looked at.
    public mutating func catchUp(now: Double, lookedAt: Set<LocationID>?) {
        guard let lookedAt else { return }
        // Only a late place draws from the random numbers: the others keep theirs.
        for (id, entry) in places.sorted(by: { $0.key.rawValue < $1.key.rawValue })
        where !entry.inFlight && now - entry.due > PlaceAttention.lateAfter {
            let wait = interval(selected: id == selected)
            let draw = random.nextUnit()
            places[id]?.due = PlaceAttention.catchUp(
                due: entry.due, now: now, interval: wait, lookedAt: lookedAt.contains(id) || id == selected, draw: draw)
        }
    }

    public mutating func started(_ id: LocationID) { places[id]?.inFlight = true }

    /// An answer arrived: the next one a whole interval later, plus jitter.
    public mutating func succeeded(_ id: LocationID, now: Double) {
        guard places[id] != nil else { return }
        let wait = interval(selected: id == selected)
        places[id]?.inFlight = false
        places[id]?.failures = 0
        places[id]?.lastSuccess = now
        places[id]?.due = now + wait + wait * jitterFraction * random.nextUnit()
    }

    /// The request failed: 60 s, doubling with each failure up to the
    /// place's interval, stretched by the jitter; later when the provider
    /// said (`retryAfter`).
    public mutating func failed(_ id: LocationID, now: Double, retryAfter: Double? = nil) {
        guard let entry = places[id] else { return }
        let failures = entry.failures + 1
        let cap = interval(selected: id == selected)
        let backoff = min(cap, Self.firstBackoff * Double(1 << min(failures - 1, 20)))
        var due = now + backoff + backoff * jitterFraction * random.nextUnit()
        if let retryAfter, retryAfter > due { due = min(retryAfter, now + 6 * 3600) }
        places[id] = Entry(due: due, lastSuccess: entry.lastSuccess, failures: failures, inFlight: false)
    }

    /// The service could not be reached for `id` (no name, no route, no
    /// connection): the failure is the service's, not the place's. It backs
    /// off as `failed` says, and every place that failed as often, not
    /// under way, retries with it at the latest of their times, so an
    /// unreachable service costs one wake-up per step of its back-off
    /// instead of one per place.
    public mutating func unreachable(_ id: LocationID, now: Double) {
        failed(id, now: now)
        guard let failures = places[id]?.failures else { return }
        let together = places.filter { !$0.value.inFlight && $0.value.failures == failures }
        guard let latest = together.values.map(\.due).max() else { return }
        for other in together.keys { places[other]?.due = latest }
    }

    /// Not asked: the budget cannot afford it until `until` (its renewal).
    public mutating func deferred(_ id: LocationID, until: Double) {
        places[id]?.inFlight = false
        places[id]?.due = until
    }

    /// When something is next due; nil with nothing to ask.
    public func nextWake() -> Double? {
        places.values.filter { !$0.inFlight }.map(\.due).min()
    }

    /// The wall clock was set by `jump`: every time held moves with it.
    public mutating func clockJumped(by jump: Double) {
        for (id, var entry) in places {
            entry.due += jump
            entry.lastSuccess = entry.lastSuccess.map { $0 + jump }
            places[id] = entry
        }
    }
}
