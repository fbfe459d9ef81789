import RainCore

/// Each provider's own budget, counted its own way (docs/SCHEDULING.md,
/// "Budgets per provider"): Open-Meteo in its weighted calls per day, Pirate
/// Weather in calls per month, the fair-use services in requests per place
/// and refresh interval. A provider whose budget is spent is not asked until
/// it renews; a place it served is answered by the next provider of its
/// list. Pure: the daemon feeds it requests and the time.
public struct ProviderBudgets: Equatable, Sendable {
    /// One provider's limits and what it has counted.
    public struct Budget: Equatable, Sendable {
        /// Calls per UTC day.
        public var daily: Double
        /// Calls per UTC month, for a provider counted by the month.
        public var monthly: Double?
        /// What one request costs in the provider's units.
        public var callsPerRequest: Double
        public var usage = BudgetUsage()

        public init(daily: Double, monthly: Double? = nil, callsPerRequest: Double) {
            self.daily = daily
            self.monthly = monthly
            self.callsPerRequest = callsPerRequest
        }
    }

    public private(set) var budgets: [ProviderName: Budget] = [:]

    public init() {}

    public subscript(name: ProviderName) -> Budget? { budgets[name] }

    /// New limits for `name` (the configuration, the places or the interval
    /// changed); what it has counted is kept.
    public mutating func setLimits(_ name: ProviderName, daily: Double, monthly: Double?, callsPerRequest: Double) {
        var budget = budgets[name] ?? Budget(daily: daily, monthly: monthly, callsPerRequest: callsPerRequest)
        budget.daily = daily
        budget.monthly = monthly
        budget.callsPerRequest = callsPerRequest
        budgets[name] = budget
    }

    /// What was counted before a restart.
    public mutating func restore(_ name: ProviderName, usage: BudgetUsage) {
        budgets[name]?.usage = usage
    }

    /// One request to `name` went out.
    public mutating func sent(_ name: ProviderName, now: Double) {
        guard var budget = budgets[name] else { return }
        budget.usage.add(calls: budget.callsPerRequest, now: now)
        budgets[name] = budget
    }

    /// A request counted by `sent` never reached the provider (it could not
    /// be resolved or connected to, or never left this machine): it counts nothing.
    public mutating func notSent(_ name: ProviderName, now: Double) {
        guard var budget = budgets[name] else { return }
        budget.usage.withdraw(calls: budget.callsPerRequest, now: now)
        budgets[name] = budget
    }

    /// A request beside the forecasts (air quality) went out to `name`, counted as `calls`.
    public mutating func sent(_ name: ProviderName, calls: Double, now: Double) {
        guard var budget = budgets[name] else { return }
        budget.usage.add(calls: calls, now: now)
        budgets[name] = budget
    }

    /// A request counted by `sent(_:calls:now:)` never reached the provider.
    public mutating func notSent(_ name: ProviderName, calls: Double, now: Double) {
        guard var budget = budgets[name] else { return }
        budget.usage.withdraw(calls: calls, now: now)
        budgets[name] = budget
    }

    /// The period a request of `calls` beside the forecasts would overdraw
    /// with `reserve` calls kept back for them (`RefreshScheduler.regularReserve`),
    /// and when it renews; nil when it fits. So such requests spend only
    /// what the forecasts will not need.
    public func exhausted(
        _ name: ProviderName, calls: Double, reserve: (day: Double, month: Double), now: Double
    ) -> (BudgetPeriod, resetsAt: Double)? {
        guard let budget = budgets[name] else { return nil }
        let usage = budget.usage.current(now: now)
        if usage.callsToday + calls + reserve.day * budget.callsPerRequest > budget.daily {
            return (.day, BudgetUsage.dayStart(now) + 86400)
        }
        if let monthly = budget.monthly,
            usage.callsThisMonth + calls + reserve.month * budget.callsPerRequest > monthly
        {
            return (.month, BudgetUsage.nextMonthStart(now))
        }
        return nil
    }

    /// `name`'s counts as they stand at `now`.
    public func usage(_ name: ProviderName, now: Double) -> BudgetUsage {
        budgets[name]?.usage.current(now: now) ?? BudgetUsage().current(now: now)
    }

    /// The period whose budget one more request to `name` would exceed, and when it renews; nil when it fits.
    /// `keepingBack`: requests of the day and month that must stay unspent
    /// (the selected place's, for any other place).
    public func exhausted(
        _ name: ProviderName, now: Double, keepingBack: (day: Double, month: Double) = (0, 0)
    ) -> (BudgetPeriod, resetsAt: Double)? {
        guard let budget = budgets[name] else { return nil }
        let usage = budget.usage.current(now: now)
        if usage.callsToday + budget.callsPerRequest * (1 + keepingBack.day) > budget.daily {
            return (.day, BudgetUsage.dayStart(now) + 86400)
        }
        if let monthly = budget.monthly,
            usage.callsThisMonth + budget.callsPerRequest * (1 + keepingBack.month) > monthly
        {
            return (.month, BudgetUsage.nextMonthStart(now))
        }
        return nil
    }

    /// The daily budget of a fair-use provider, which sets no number but asks
    /// for no more than `requestsPerPlaceAndInterval` requests per place and
    /// refresh interval: that many for each of `places` places every
    /// `interval` seconds over a day, and at least 48 requests.
    public static func fairUseDaily(requestsPerPlaceAndInterval: Double, places: Int, interval: Double) -> Double {
        guard interval > 0 else { return 48 }
        return max(48, (requestsPerPlaceAndInterval * Double(max(1, places)) * 86400 / interval).rounded(.up))
    }
}
