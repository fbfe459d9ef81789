import RainCore
import RainDaemonCore

/// What `GetStatus` reports of the forecasts: each provider's health, the
/// places it serves and its calls against its own budget (from the ledger),
/// the totals when they add up, and the nowcast's cost.
extension Refresher {
    /// Each provider a place's list holds (or `Name=`/`Providers=` names), in
    /// the table's order: its health, the places it serves and its budget.
    var providerStatuses: [ProviderStatus] { providerStatuses(now: now) }

    /// `providerStatuses` at `time`, as the refresher reads the clock.
    func providerStatuses(now time: Double) -> [ProviderStatus] {
        var used = providersInPlaceLists
        if let named = context.configuration.provider { used.insert(named) }
        for name in context.configuration.providerOrder ?? [] { used.insert(name) }
        return WeatherProviders.all.map(\.name).filter(used.contains).map { name in
            let record = ledger.health[name]
            let budget = ledger.budgets[name]
            let places = list.locations.map(\.id).filter { serving[$0] == name }
            var status = ProviderStatus(
                name: name.rawValue, places: places,
                available: ledger.health.isAvailable(name, now: time), failures: record.consecutiveFailures,
                backoffUntil: record.backoffUntil.flatMap { $0 > time ? $0 : nil }, lastSuccess: record.lastSuccess,
                lastError: record.lastFailure, usage: ledger.usage(name, now: time),
                dailyBudget: budget?.daily ?? 0, monthlyBudget: budget?.monthly)
            let chosen = places.compactMap { choices[$0] }.filter { $0.provider == name.rawValue }
            status.chosen = chosen.isEmpty ? nil : chosen
            return status
        }
    }

    /// Whether the totals `GetStatus` reports are one provider's calls against
    /// its budget (`Name=`), rather than sums of different providers' units.
    var totalAddsUp: Bool { ledger.sole != nil }

    /// Requests and counted calls of this day and month, from the ledger:
    /// with `Name=`, the provider's; with `Name=auto`, the sums over the
    /// providers, each request counted in its own provider's calls.
    public var budgetUsage: BudgetUsage { budgetUsage(now: now) }

    /// The requests and counted calls of the day and month containing `time`.
    func budgetUsage(now time: Double) -> BudgetUsage { ledgerTotal(now: time).usage }

    /// The budget a quota refusal speaks of: the one used up (the day's when none is).
    var budgetInQuestion: (period: BudgetPeriod, calls: Double, budget: Double) {
        let usage = budgetUsage
        if scheduler.exhaustedBudget(now: now)?.0 == .month, let monthly = scheduler.policy.monthlyBudget {
            return (.month, usage.callsThisMonth, monthly)
        }
        return (.day, usage.callsToday, scheduler.policy.dailyBudget)
    }

    /// The short refreshes' state and cost, for `GetStatus`.
    var nowcastStatus: NowcastStatus { nowcastStatus(now: now) }

    /// The short refreshes' state and cost at `time`.
    func nowcastStatus(now time: Double) -> NowcastStatus {
        NowcastWatch.status(scheduler, configuration: context.configuration, now: time)
    }
}
