/// IDL `NowcastStatus`, in `Status`: whether the selected place refreshes on
/// the nowcast's short interval, and what that costs (docs/SCHEDULING.md).
public struct NowcastStatus: Codable, Sendable, Equatable {
    /// `[Nowcast] Enabled=` (the provider offers short-range data).
    public var enabled: Bool
    /// Short refreshes are running now: someone can use the nowcast and the budgets afford it.
    public var active: Bool
    /// The short interval, in minutes.
    public var intervalMinutes: Int
    /// Requests a day the nowcast adds over the regular schedule when it runs all day.
    public var requestsPerDay: Double
    /// The calls the provider counts for them.
    public var callsPerDay: Double

    public init(enabled: Bool, active: Bool, intervalMinutes: Int, requestsPerDay: Double, callsPerDay: Double) {
        self.enabled = enabled
        self.active = active
        self.intervalMinutes = intervalMinutes
        self.requestsPerDay = requestsPerDay
        self.callsPerDay = callsPerDay
    }
}
