import RainCore
import RainDaemonCore

/// Asking the providers that do not serve a place, to compare them with
/// the one that does: `comparisonsPerDay` times a day per place, only for
/// a place with a verifying station, each request spent beside the
/// forecasts in the provider's own book (`BudgetBeside`: never past its
/// budget, never what the regular forecasts need). What they answer is
/// kept as samples, never served.
extension AccuracyKeeper {
    func timerFired() {
        flush()
        let time = now
        for place in places where (nextComparison[place.id] ?? .infinity) <= time {
            nextComparison[place.id] = time + Self.spacing
            rank(place, at: time)
            compare(place, at: time)
            backfillIfDue(place)
        }
        reschedule()
    }

    func reschedule() {
        timer.arm(at: [nextComparison.values.min(), nextWrite].compactMap { $0 }.filter(\.isFinite).min(), now: now)
    }

    /// The providers `place` is compared among beside the one serving it:
    /// its list's others that are configured.
    func others(for place: Location) -> [ProviderName] {
        guard let refresher else { return [] }
        let servingNow = serving[place.id]?.provider
        return refresher.chain(for: place).filter {
            $0.rawValue != servingNow && refresher.sources[$0]?.configurationProblem == nil
        }
    }

    private func compare(_ place: Location, at time: Double) {
        guard comparing[place.id] == nil, let refresher, refresher.networkUp,
            observations?.observed(at: place.id)?.station != nil
        else { return }
        let providers = others(for: place)
        guard !providers.isEmpty else { return }
        var pending = providers.count
        comparing[place.id] = []
        for provider in providers {
            ask(place, provider: provider, lookedUp: false) { [weak self] in
                pending -= 1
                guard pending == 0, let self else { return }
                self.comparing[place.id] = nil
                self.compared(place.id)
            }
        }
    }

    /// Asks `provider` for `place`'s forecast (its lookup first when it
    /// needs one and none is kept), then `done`.
    private func ask(_ place: Location, provider: ProviderName, lookedUp: Bool, done: @escaping () -> Void) {
        guard let refresher else { return done() }
        let time = now
        let source = refresher.source(provider)
        let plan = source.plan(
            for: place, units: refresher.settings.units, cached: nil,
            lookup: refresher.store.lookup(of: place.id, by: provider, now: time), now: time)
        let perRequest = refresher.ledger.budgets[provider]?.callsPerRequest ?? 1
        switch plan {
        case .notCovered:
            done()
        case .lookup(let request):
            guard !lookedUp, spend(provider, requests: 1, perRequest: perRequest, place: place) else { return done() }
            let transfer = http.fetch(request) { [weak self] result in
                guard let self, let refresher = self.refresher else { return done() }
                self.giveBack([result], provider: provider, perRequest: perRequest)
                guard case .success(let lookup) = source.interpretLookup(result, for: place, now: self.now) else {
                    return done()
                }
                refresher.store.keep(lookup, of: place.id, by: provider)
                self.ask(place, provider: provider, lookedUp: true, done: done)
            }
            comparing[place.id, default: []].append(transfer)
        case .forecast(let requests):
            guard spend(provider, requests: requests.count, perRequest: perRequest, place: place) else { return done() }
            var results = [Result<HTTPResponse, HTTPFailure>?](repeating: nil, count: requests.count)
            var remaining = requests.count
            for (index, request) in requests.enumerated() {
                let transfer = http.fetch(request) { [weak self] result in
                    results[index] = result
                    remaining -= 1
                    guard remaining == 0, let self else { return }
                    let all = results.compactMap { $0 }
                    self.giveBack(all, provider: provider, perRequest: perRequest)
                    if case .fresh(let cached, _) = source.interpret(all, for: place, now: self.now) {
                        self.keep(cached.forecast, for: place.id)
                    } else {
                        self.logger.info("\(place.id): \(provider) gave no forecast to compare")
                    }
                    done()
                }
                comparing[place.id, default: []].append(transfer)
            }
        }
    }

    /// Spends `requests` of `provider`'s budget beside the forecasts; false (nothing spent) when it cannot afford them.
    private func spend(_ provider: ProviderName, requests: Int, perRequest: Double, place: Location) -> Bool {
        guard let refresher else { return false }
        if refresher.spendBeside(provider, calls: Double(requests) * perRequest) != nil {
            logger.info("\(place.id): \(provider)'s budget keeps nothing for a comparison now")
            return false
        }
        return true
    }

    private func giveBack(_ results: [Result<HTTPResponse, HTTPFailure>], provider: ProviderName, perRequest: Double) {
        for case .failure(let failure) in results where UpstreamClient.neverReached(failure) {
            refresher?.refundBeside(provider, calls: perRequest)
        }
    }
}
