import RainCore
import RainDaemonCore

/// The alert watcher's pace (`AlertPacing`, docs/ALERTS.md, "Polling that
/// follows the weather"): each place is asked at its service's own rate
/// while an alert or a severe forecast calls for it, at the calm rate
/// otherwise; a forecast bringing a signal shortens the interval at once.
extension AlertWatcher {
    /// The place's pace at `time`, from what it holds now.
    func pace(of place: Location, source: any AlertSource, at time: Double) -> AlertPace {
        AlertPacing.pace(
            of: place.id, terms: source.terms, messages: messages(of: place), forecast: store[place.id]?.forecast,
            now: time)
    }

    /// The place's pace now; nil for a place not polled.
    func pace(of id: LocationID, at time: Double) -> AlertPace? {
        guard let watch = watches[id], let place = places.first(where: { $0.id == id }) else { return nil }
        return pace(of: place, source: watch.source, at: time)
    }

    /// When the poll after one at `time` goes out at `pace`, with the poll's draw of the jitter.
    static func next(after time: Double, interval pace: AlertPace, watch: Watch) -> Double {
        time + pace.pollingSeconds * (1 + watch.source.terms.jitterFraction * watch.jitterDraw)
    }

    /// Moves the place's next poll to its pace now, counted from its last
    /// poll: earlier only when `shortenOnly` (a new forecast; a longer
    /// interval waits for the next poll), either way after a poll's answer.
    /// A next poll already due goes out at once. Whether it moved.
    @discardableResult
    func repace(_ id: LocationID, at time: Double, shortenOnly: Bool) -> Bool {
        guard var watch = watches[id], let last = watch.lastPoll, let pace = pace(of: id, at: time) else {
            return false
        }
        // Backing off or out of budget: the ledger decides when, not the pace.
        let opens = books.opens(.alerts(watch.source.name), after: time) ?? .infinity
        guard opens <= time else { return false }
        // A poll spread after a sleep waits for its time unless the pace quickened.
        if shortenOnly, watch.spread, !pace.fast { return false }
        let next = max(time, Self.next(after: last, interval: pace, watch: watch))
        guard next != watch.nextPoll, !shortenOnly || next < watch.nextPoll else { return false }
        watch.nextPoll = next
        watches[id] = watch
        changes += 1
        return true
    }

    /// The polls that fell due while the machine slept or was offline
    /// (`PlaceAttention.catchUp`): those of the places a person looks at, and
    /// of places at the fast pace (an alert or a severe forecast: their
    /// worst delay holds), go out at once; each other one at a random point
    /// of its interval from now, so they do not all go out together.
    func catchUp(at time: Double) {
        guard let lookedAt = attention().map(Set.init) else { return }
        for id in watches.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            // Only a late poll draws from the jitter: the polls on time keep their draws.
            guard let watch = watches[id], watch.transfers.isEmpty, time - watch.nextPoll > PlaceAttention.lateAfter,
                let pace = pace(of: id, at: time)
            else { continue }
            let next = PlaceAttention.catchUp(
                due: watch.nextPoll, now: time, interval: pace.pollingSeconds,
                lookedAt: lookedAt.contains(id) || pace.fast, draw: timer.jitter.unit())
            guard next != watch.nextPoll else { continue }
            watches[id]?.nextPoll = next
            watches[id]?.spread = true
            changes += 1
        }
    }

    /// The machine gained (`up`) or lost its network route: without one
    /// nothing is asked; when it is back, a back-off failed transfers
    /// started ends (`networkBack`) and what fell due is asked as after a
    /// sleep: the places looked at at once, the others spread.
    func networkChanged(_ up: Bool) {
        if up { networkBack() }
        timerFired()
    }

    /// Ends each service's back-off that failed transfers started (never
    /// its `Retry-After`, `ServiceBooks.networkBack`), and puts the polls it
    /// held back on their places' schedules, from their last polls: the
    /// catch-up (`catchUp`) then asks the places a person looks at, and the
    /// places at the fast pace, at once, and spreads the others.
    func networkBack() {
        let time = now
        let ended = Set(watches.values.map(\.source.name)).filter { books.networkBack(for: .alerts($0)) }
        for id in watches.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let watch = watches[id], watch.held, ended.contains(watch.source.name),
                let pace = pace(of: id, at: time)
            else { continue }
            watches[id]?.nextPoll = watch.lastPoll.map { Self.next(after: $0, interval: pace, watch: watch) } ?? time
            watches[id]?.held = false
            changes += 1
        }
    }
}
