import RainCore
import RainDaemonCore

/// Which provider answers for a place: the sources the configuration
/// makes, each place's list, the first to ask and the next after a failure
/// (the ledger's `choose` and `next`), and why another than the first
/// choice serves it.
extension Refresher {
    /// Every provider's source, ready to ask.
    static func sources(_ configuration: Configuration, credentialsDirectory: String?) -> [ProviderName: WeatherSource]
    {
        var sources: [ProviderName: WeatherSource] = [:]
        for provider in WeatherProviders.all {
            sources[provider.name] = WeatherSource(
                provider: provider.name, configuration: configuration, credentialsDirectory: credentialsDirectory)
        }
        return sources
    }

    /// What keeps the providers the configuration names (`Name=`,
    /// `Providers=`) from being asked, to log; with `Name=auto`, the
    /// region's providers need nothing.
    var configurationProblems: [RefreshFailure] {
        let named = context.configuration.provider.map { [$0] } ?? context.configuration.providerOrder ?? []
        return named.compactMap { sources[$0]?.configurationProblem }
    }

    /// What to warn of in the sources' configuration (a key file others can read).
    var configurationWarnings: [String] {
        Array(Set(sources.values.compactMap(\.configurationWarning))).sorted()
    }

    /// The providers that may answer for `location`, best first: the
    /// configuration's list, under `Name=auto` ordered by the scores.
    func chain(for location: Location) -> [ProviderName] {
        let listed = context.configuration.providers(for: location)
        guard context.configuration.followsScores, let accuracy else { return listed }
        return accuracy.order(of: location, listed)
    }

    /// Keeps why the scores put `id`'s provider first (nil: they did not), served with its forecast.
    func setChoice(_ choice: ProviderChoice?, for id: LocationID) {
        guard store.allChoices[id] != choice else { return }
        store.setChoice(choice, for: id)
        changes &+= 1
    }

    /// Keeps the place's measured temperature biases, by provider, for its served forecast.
    func setBiases(_ biases: [String: TemperatureBias], for id: LocationID) {
        store.setBiases(biases, for: id)
    }

    /// Each place's choice by the scores.
    var choices: [LocationID: ProviderChoice] { store.allChoices }

    /// The source of `name`.
    func source(_ name: ProviderName) -> WeatherSource {
        guard let source = sources[name] else {
            preconditionFailure("every provider of WeatherProviders.all has a source")
        }
        return source
    }

    /// The providers some saved place's list holds.
    var providersInPlaceLists: Set<ProviderName> { Set(list.locations.flatMap { chain(for: $0) }) }

    /// Whether `forecast` came from a provider `location`'s list holds now;
    /// data from another one answers no person's refresh and counts as never fetched.
    func fromCurrentProvider(_ forecast: Forecast, for location: Location) -> Bool {
        chain(for: location).contains { $0.rawValue == forecast.provider }
    }

    /// The provider to ask first for `location`: its list's first that is
    /// configured, within its budget and not backing off (`ProviderHealthBook.candidates`);
    /// else why none can be asked.
    func firstProvider(for location: Location, now time: Double) -> Result<ProviderName, RefreshFailure> {
        let chain = chain(for: location)
        let selected = isSelectedOrNone(location.id)
        if let first = ledger.choose(chain, now: time, usable: { self.usable($0, now: time, selected: selected) }) {
            return .success(first)
        }
        if let problem = chain.lazy.compactMap({ self.sources[$0]?.configurationProblem }).first,
            chain.allSatisfy({ self.sources[$0]?.configurationProblem != nil })
        {
            return .failure(problem)
        }
        if let (period, resetsAt) = chain.lazy.compactMap({ self.ledger.exhausted($0, now: time) }).first {
            return .failure(
                RefreshScheduler.Refusal.quotaExhausted(period, resetsAt: resetsAt).failure(
                    policy: scheduler.policy, now: time))
        }
        if !selected,
            let (period, resetsAt) = chain.lazy.compactMap({
                self.ledger.exhausted(
                    $0, now: time, keepingBack: self.scheduler.policy.selectedRequestsLeft(now: time))
            }).first
        {
            return .failure(
                RefreshScheduler.Refusal.keptForSelected(period, resetsAt: resetsAt).failure(
                    policy: scheduler.policy, now: time))
        }
        return .failure(
            chain.lazy.compactMap({ self.ledger.health[$0].lastFailure }).first
                ?? RefreshFailure(
                    error: .providerError,
                    message:
                        "every provider for \(location.id) (\(chain.map(\.rawValue).joined(separator: ", "))) refused raind; fix the configuration, then reload raind (systemctl reload raind, or SIGHUP)"
                ))
    }

    /// Whether `name` can be asked at all now: configured and within its
    /// budget; for a place other than the selected one, within what the
    /// budget does not keep for the selected place.
    func usable(_ name: ProviderName, now time: Double, selected: Bool) -> Bool {
        let reserve = selected ? (day: 0, month: 0) : scheduler.policy.selectedRequestsLeft(now: time)
        return sources[name]?.configurationProblem == nil
            && ledger.exhausted(name, now: time, keepingBack: reserve) == nil
    }

    /// Whether `id` is the selected place, or no place is selected (nothing to keep back for).
    func isSelectedOrNone(_ id: LocationID) -> Bool {
        list.selectedID == nil || list.selectedID == id
    }

    /// The provider to ask after `failure` in this refresh: the next of the
    /// place's list not asked yet, configured, within its budget and not
    /// backing off; nil when there is none, or when no provider could do
    /// better (this machine cannot make requests at all).
    func nextProvider(
        for location: Location, after flight: Flight, failure: RefreshFailure, besides current: ProviderName? = nil
    ) -> ProviderName? {
        guard failure.error != .notConfigured || failure.httpStatus != nil, scheduler.networkUp else { return nil }
        let time = now
        var asked = Set(flight.failures.map(\.provider))
        if let current { asked.insert(current) }
        let selected = isSelectedOrNone(location.id)
        return ledger.next(after: asked, in: chain(for: location), now: time) {
            self.usable($0, now: time, selected: selected)
        }
    }

    /// One failure for a refresh every provider failed: the last one's kind
    /// and status, with each provider's own words.
    static func combined(_ failures: [(provider: ProviderName, failure: RefreshFailure)]) -> RefreshFailure {
        var result = failures[failures.count - 1].failure
        result.message =
            "every provider for this place failed: "
            + failures.map { "\($0.provider): \($0.failure.message)" }.joined(separator: "; ")
        return result
    }

    /// An answer whose every time lies in the past is no forecast, however
    /// recently it arrived: a failure of its provider, so the next answers.
    static func outdatedProblem(_ forecast: Forecast, at time: Double) -> RefreshFailure? {
        guard forecast.outdated(now: time) else { return nil }
        return RefreshFailure(
            error: .providerError,
            message:
                "\(forecast.provider) sent a forecast whose times all lie in the past; raind keeps the cached data and retries later",
            httpStatus: 200)
    }

    /// Why `provider` and not the first of `location`'s list serves it: that
    /// first choice and its last failure (this refresh's, when it was asked;
    /// nil when it has not failed since raind started); nil when `provider`
    /// is the first choice.
    func takeover(
        for location: Location, servedBy provider: ProviderName
    ) -> (firstChoice: ProviderName, failure: RefreshFailure?)? {
        guard let preferred = chain(for: location).first, preferred != provider else { return nil }
        return (preferred, ledger.health[preferred].lastFailure)
    }
}
