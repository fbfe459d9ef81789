import RainCore
import RainDaemonCore

/// What a poller beside the forecasts (the air) spends from: the
/// providers' budgets with what the forecasts' schedule needs kept back,
/// and whether the machine is online. The refresher, which keeps the
/// ledger, is it; the air watcher is given it when built.
protocol BudgetBeside: AnyObject {
    /// Counts `calls` of `provider`'s budget (nil), or says which budget
    /// cannot afford them and when it renews, counting nothing.
    func spendBeside(_ provider: ProviderName, calls: Double) -> (BudgetPeriod, resetsAt: Double)?
    /// Gives back what `spendBeside` counted for a request that never reached the provider.
    func refundBeside(_ provider: ProviderName, calls: Double)
    /// Whether the machine has a network route (the refresher's judgement).
    var networkUp: Bool { get }
}

extension Refresher: BudgetBeside {
    var networkUp: Bool { scheduler.networkUp }
}

/// What a poller with books of its own (the alert services,
/// `ProviderName.alerts(_:)`) keeps in the one ledger: its daily budget,
/// every request that reached it, its health and back-off, written to the
/// cache like the providers'. The refresher, which keeps the ledger, is
/// it; the alert watcher is given it when built.
protocol ServiceBooks: AnyObject {
    /// Sets `service`'s daily budget (kept apart from the forecasts' total);
    /// the first time, also what it counted before a restart.
    func setBudget(of service: ProviderName, daily: Double)
    /// One request reached `service` (answered, or failed after it may have
    /// reached it: `UpstreamClient.neverReached` counts nothing).
    func count(on service: ProviderName)
    /// `service` answered: its back-off ends.
    func answered(by service: ProviderName)
    /// `service` failed: it backs off (`ProviderHealthBook`).
    func failed(at service: ProviderName, _ failure: RefreshFailure)
    /// When `service` may be asked next (wall clock, at least `time`): after
    /// its back-off and its budget's renewal; nil when it refused raind
    /// (asked again after a reload).
    func opens(_ service: ProviderName, after time: Double) -> Double?
    /// The network came back: `service`'s back-off ends when failed
    /// transfers started it (never the service's `Retry-After`). Whether it did.
    func networkBack(for service: ProviderName) -> Bool
    /// Whether the machine has a network route (the refresher's judgement).
    var networkUp: Bool { get }
    /// `service`'s counts, daily budget and health as they stand now.
    func book(of service: ProviderName) -> (usage: BudgetUsage, daily: Double?, health: ProviderHealthBook.Health)
}

extension ServiceBooks {
    /// What a request's outcome says of `service`'s health: an answer (even
    /// "not modified") ends its back-off; a transfer that failed, a 429 or a
    /// 5xx starts one. Any other status is about the question (a point
    /// outside its area), not the service.
    func note(_ outcome: UpstreamClient.Outcome, of service: ProviderName) {
        switch outcome {
        case .answered, .notModified:
            answered(by: service)
        case .failed(let failure), .unreached(let failure):
            failed(at: service, RefreshFailure(error: .offline, message: failure.message))
        case .refused(let response, let retryAfter) where response.status == 429 || response.status >= 500:
            failed(
                at: service,
                RefreshFailure(
                    error: .providerError, message: "HTTP \(response.status)", httpStatus: response.status,
                    retryAfter: retryAfter))
        case .refused:
            break
        }
    }
}

extension Refresher: ServiceBooks {
    func setBudget(of service: ProviderName, daily: Double) {
        let first = ledger.budgets[service] == nil
        ledger.setLimits(service, daily: daily, monthly: nil, callsPerRequest: 1, apart: true)
        if first { ledger.restore(service, usage: store.cache.loadBudget(provider: service), now: now) }
    }

    func count(on service: ProviderName) {
        ledger.spend(service, now: now, monotonic: context.clock.monotonicNow)
        recorded(service)
    }

    func answered(by service: ProviderName) { ledger.succeeded(service, now: now) }

    func failed(at service: ProviderName, _ failure: RefreshFailure) {
        ledger.failed(service, failure: failure, now: now)
    }

    func networkBack(for service: ProviderName) -> Bool { ledger.networkBack(service, now: now) }

    func opens(_ service: ProviderName, after time: Double) -> Double? {
        ledger.next(service, after: time, monotonic: context.clock.monotonicNow)
    }

    func book(of service: ProviderName) -> (usage: BudgetUsage, daily: Double?, health: ProviderHealthBook.Health) {
        (ledger.usage(service, now: now), ledger.budgets[service]?.daily, ledger.health[service])
    }
}

/// The refresher's side of the ledger: each provider's limits from the
/// configuration, every request spent and refunded there and written to
/// the cache, and the scheduler's pace read from its total.
extension Refresher {
    /// Sets each provider's budget from the configuration, the places and
    /// the interval, and the scheduler's pace from the ledger's total.
    func updateBudgets() {
        setBudgetLimits()
        // The scheduler's pace follows the ledger's total: with Name= the one
        // provider's budget; with Name=auto what all of them together allow.
        let total = ledgerTotal(now: now)
        scheduler.policy.dailyBudget = total.daily
        scheduler.policy.monthlyBudget = total.monthly
        if let sole = ledger.sole, let budget = ledger.budgets[sole] {
            scheduler.policy.callsPerRequest = budget.callsPerRequest
        }
        scheduler.restoreBudget(total.usage)
    }

    /// Each provider's budget from the configuration, the places and the
    /// interval, and which one is the sole provider (`Name=`).
    func setBudgetLimits() {
        let interval = scheduler.policy.interval
        ledger.sole = context.configuration.provider
        for provider in WeatherProviders.all {
            let budget = context.configuration.budget(
                for: provider.name, places: list.locations.count, intervalSeconds: interval)
            ledger.setLimits(
                provider.name, daily: budget.daily, monthly: budget.monthly, callsPerRequest: budget.callsPerRequest,
                perMinute: provider.terms.quota.callsPerMinute)
        }
    }

    /// The ledger's total at `time` over the providers the places use (all of them when none is saved).
    func ledgerTotal(now time: Double) -> (usage: BudgetUsage, daily: Double, monthly: Double?, addsUp: Bool) {
        let used = providersInPlaceLists
        return ledger.total(of: used.isEmpty ? Set(WeatherProviders.all.map(\.name)) : used, now: time)
    }

    /// After a spend or refund of `provider`: its count goes to its file
    /// (and, for the sole provider, to the total's file), and the scheduler
    /// reads the ledger's total.
    func recorded(_ provider: ProviderName) {
        let time = now
        let usage = ledger.usage(provider, now: time)
        store.cache.storeBudget(usage, provider: provider)
        if provider == ledger.sole { store.cache.storeBudget(usage) }
        scheduler.restoreBudget(ledgerTotal(now: time).usage)
    }

    static func policy(_ configuration: Configuration, refreshMinutes: Int?) -> RefreshPolicy {
        let terms = configuration.providerTerms
        var policy = RefreshPolicy(
            interval: Double((refreshMinutes ?? configuration.intervalMinutes) * 60),
            staleAfter: Double(configuration.staleAfterMinutes * 60),
            dailyBudget: Double(configuration.effectiveDailyBudget),
            monthlyBudget: configuration.effectiveMonthlyBudget.map(Double.init),
            callsPerRequest: terms.quota.callsPerRequest,
            nowcastInterval: configuration.effectiveNowcastIntervalMinutes.map { Double($0 * 60) })
        policy.jitterFraction = terms.jitterFraction
        return policy
    }

    /// One request to `provider` went out: the ledger counts it, on disk too.
    func spend(_ provider: ProviderName) {
        ledger.spend(provider, now: now, monotonic: context.clock.monotonicNow)
        recorded(provider)
    }

    /// Spends `calls` of `provider`'s budget on a request beside the
    /// forecasts (air quality), when they fit with what the regular forecast
    /// schedule needs for the rest of the day and month kept back: such
    /// requests never starve the forecasts. nil when counted (on disk too);
    /// else the budget that cannot afford it and when it renews, nothing counted.
    func spendBeside(_ provider: ProviderName, calls: Double) -> (BudgetPeriod, resetsAt: Double)? {
        let time = now
        if let refused = ledger.spend(
            provider, beside: calls, reserve: scheduler.regularReserve(now: time), now: time,
            monotonic: context.clock.monotonicNow)
        {
            return refused
        }
        recorded(provider)
        return nil
    }

    /// A request counted by `spendBeside` never reached the provider: its calls are given back.
    func refundBeside(_ provider: ProviderName, calls: Double) {
        ledger.refund(provider, calls: calls, now: now)
        recorded(provider)
    }

    /// Counts requests beyond the first of one refresh against the budgets.
    func count(extra: Int, provider: ProviderName) {
        guard extra > 0 else { return }
        for _ in 0..<extra { spend(provider) }
    }

    /// Requests that never reached the provider count nothing: libcurl could
    /// not be loaded, or the provider's name could not be resolved or its
    /// address connected to (nothing was asked of it).
    func giveBackUnsent(_ results: [Result<HTTPResponse, HTTPFailure>], provider: ProviderName) {
        var changed = false
        for case .failure(let transport) in results where UpstreamClient.neverReached(transport) {
            ledger.refund(provider, now: now)
            changed = true
        }
        if changed { recorded(provider) }
    }
}
