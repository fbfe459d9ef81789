import RainCore
import RainDaemonCore

/// Sending a place's requests: the provider's plan (a lookup, then the
/// forecast's requests), and the places that wait for a provider's
/// per-minute limit.
extension Refresher {
    /// Starts the places waiting for their provider's per-minute limit that
    /// fit it now, in order; a place whose provider cannot be asked any more
    /// (its budget ran out meanwhile) is answered with why.
    func startPaced() {
        guard !paced.isEmpty else { return }
        let time = now
        var started: [LocationID] = []
        var still: [LocationID] = []
        var seen: Set<LocationID> = []
        let selected = list.selectedID
        let queue = paced.filter { $0 == selected } + paced.filter { $0 != selected }
        paced = []
        for id in queue where seen.insert(id).inserted {
            guard let flight = inFlight[id], flight.waitingForPace else { continue }
            guard let location = list[id] else { continue }
            switch firstProvider(for: location, now: time) {
            case .failure(let failure):
                inFlight[id] = nil
                scheduler.abandoned(id)
                logger.warning("refreshing \(id) failed: \(failure.message)")
                events.emit(.published(.refreshFailed(id, failure)))
                for waiter in flight.waiters { waiter(failure) }
            case .success(let provider):
                guard ledger.paceAllows(provider, monotonic: context.clock.monotonicNow) else {
                    still.append(id)
                    continue
                }
                inFlight[id]?.waitingForPace = false
                inFlight[id]?.provider = provider
                started.append(id)
                start(location, selected: id == selected, provider: provider)
            }
        }
        paced = still
        if !started.isEmpty { events.emit(.published(.refreshStarted(started))) }
    }

    /// When (wall clock) the first waiting place's provider lets it start; nil when none waits.
    var pacedWake: Double? {
        let monotonic = context.clock.monotonicNow
        let providers = Set(paced.compactMap { inFlight[$0]?.provider })
        guard let opens = providers.map({ ledger.paceOpens($0, monotonic: monotonic) }).min() else { return nil }
        return now + max(0, opens - monotonic)
    }

    /// Sends what the provider's plan asks for `location`: a lookup, then
    /// (`lookedUp`) the forecast's requests with what it found, or the
    /// forecast's requests at once. The first request was counted by
    /// `start`; each further one is counted as it goes.
    func ask(_ location: Location, selected: Bool, lookedUp: Bool, provider: ProviderName) {
        let id = location.id
        let time = now
        let source = source(provider)
        // Validators are the provider's own: another provider's ETag means nothing to it.
        let cached = store[id].flatMap { $0.forecast.provider == provider.rawValue ? $0 : nil }
        let plan = source.plan(
            for: location, units: settings.units, cached: cached,
            lookup: store.lookup(of: id, by: provider, now: time), now: time)
        switch plan {
        case .notCovered(let failure):
            // Answered on the next turn, as a request would be: after RefreshStarted.
            context.loop.later { [weak self] in
                self?.finished(location, selected: selected, provider: provider, outcome: .failed(failure))
            }
        case .lookup(let request):
            guard !lookedUp else {
                let failure = RefreshFailure(
                    error: .providerError,
                    message:
                        "\(source.name) asked for its lookup of the place again after answering it; raind retries later"
                )
                context.loop.later { [weak self] in
                    self?.finished(location, selected: selected, provider: provider, outcome: .failed(failure))
                }
                return
            }
            let transfer = http.fetch(request) { [weak self] result in
                self?.lookedUp(location, selected: selected, provider: provider, result: result)
            }
            if inFlight[id] != nil { inFlight[id]?.transfers = [transfer] }
        case .forecast(let requests):
            count(extra: lookedUp ? requests.count : requests.count - 1, provider: provider)
            var results = [Result<HTTPResponse, HTTPFailure>?](repeating: nil, count: requests.count)
            var remaining = requests.count
            var transfers: [any HTTPCancellable] = []
            for (index, request) in requests.enumerated() {
                transfers.append(
                    http.fetch(request) { [weak self] result in
                        results[index] = result
                        remaining -= 1
                        guard remaining == 0, let self else { return }
                        let all = results.compactMap { $0 }
                        self.giveBackUnsent(all, provider: provider)
                        self.finished(
                            location, selected: selected, provider: provider,
                            outcome: source.interpret(all, for: location, now: self.now))
                    })
            }
            if inFlight[id] != nil { inFlight[id]?.transfers = transfers }
        }
    }

    func lookedUp(
        _ location: Location, selected: Bool, provider: ProviderName, result: Result<HTTPResponse, HTTPFailure>
    ) {
        guard inFlight[location.id] != nil else { return }
        giveBackUnsent([result], provider: provider)
        switch source(provider).interpretLookup(result, for: location, now: now) {
        case .success(let lookup):
            store.keep(lookup, of: location.id, by: provider)
            ask(location, selected: selected, lookedUp: true, provider: provider)
        case .failure(let failure):
            finished(location, selected: selected, provider: provider, outcome: .failed(failure))
        }
    }
}
