import RainCore
import RainDaemonCore

/// When the rules change under the refresher: a new configuration or
/// refresh setting, a reload (SIGHUP), and the wall clock being set.
extension Refresher {
    /// `reconfigure` with `source` in place of its provider's (tests).
    func reconfigure(source: WeatherSource, refreshMinutes: Int?, retryRefused: Bool) {
        var replaced = sources
        replaced[source.name] = source
        reconfigure(refreshMinutes: refreshMinutes, retryRefused: retryRefused, sources: replaced)
    }

    /// A new configuration or refresh setting: new rules.
    /// `retryRefused`: a reload (SIGHUP) gives a provider that refused the
    /// credentials another chance, whether or not the configuration changed;
    /// a settings change does not.
    func reconfigure(refreshMinutes: Int?, retryRefused: Bool, sources newSources: [ProviderName: WeatherSource]? = nil)
    {
        if let newSources { sources = newSources }
        if retryRefused { ledger.configurationReloaded() }
        scheduler.reconfigure(
            Self.policy(context.configuration, refreshMinutes: refreshMinutes), credentialsChanged: retryRefused)
        updateBudgets()
        // Data from a provider no longer in a place's list stays served, but is fetched anew.
        let time = now
        for location in list.locations {
            guard let cached = store[location.id], !fromCurrentProvider(cached.forecast, for: location) else {
                continue
            }
            serving[location.id] = nil
            if let last = refetchedForProviderChange[location.id], time - last < scheduler.policy.staleAfter {
                continue
            }
            refetchedForProviderChange[location.id] = time
            scheduler.restored(location.id, fetchedAt: 0, expiresAt: nil, selected: false, now: time)
        }
        nowcastDemandChanged()
    }

    /// SIGHUP: the key is read again and a provider that refused it gets
    /// another chance on every reload, changed configuration or not
    /// (docs/CONFIGURATION.md); then what is stale is fetched.
    func configurationReloaded() {
        let sources = Self.sources(context.configuration, credentialsDirectory: context.paths.credentialsDirectory)
        reconfigure(refreshMinutes: settings.refreshMinutes, retryRefused: true, sources: sources)
        // The user's order (or one provider) now: the scores no longer say why a provider serves.
        if !context.configuration.followsScores {
            for id in Array(choices.keys) { setChoice(nil, for: id) }
        }
        accuracy?.explained = []
        for problem in configurationProblems { logger.warning(problem.message) }
        for warning in configurationWarnings { logger.warning(warning) }
        refreshIfStale(reason: "reload")
    }

    /// Moves every wall-clock time raind holds by the jump: the scheduler's,
    /// the providers' back-offs, and the fetch times of the forecasts in
    /// memory, so ages stay what really passed. Files on disk catch up at the next write.
    func followClockJump(_ jump: Double) {
        logger.notice(
            "the wall clock was set \(jump < 0 ? "back" : "forward") by \(Int(min(abs(jump), 1e15).rounded())) s; refresh times follow it"
        )
        scheduler.clockJumped(by: jump)
        ledger.clockJumped(by: jump)
        store.clockJumped(by: jump)
        lastSuccess = lastSuccess.map { $0 + jump }
        if let time = lastFailure?.time { lastFailure?.time = time + jump }
        nextWake = nextWake.map { $0 + jump }
    }
}
