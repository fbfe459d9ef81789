/// Upstream requests made, and the calls the provider counts for them, in
/// the current UTC day and UTC calendar month. A provider may count one
/// request as several calls (Open-Meteo: one per 10 variables), so budgets
/// are kept in the provider's calls, and requests are reported beside them.
public struct BudgetUsage: Equatable, Sendable {
    /// Start (Unix seconds, UTC midnight) of the day counted.
    public var day: Double = 0
    public var requestsToday = 0
    public var callsToday: Double = 0
    /// Start (Unix seconds, 00:00 UTC on the 1st) of the month counted.
    public var month: Double = 0
    public var requestsThisMonth = 0
    public var callsThisMonth: Double = 0

    public init() {}

    /// The counts as they stand at `now`: a period that has ended counts nothing.
    public func current(now: Double) -> BudgetUsage {
        var usage = self
        usage.roll(now: now)
        return usage
    }

    /// These counts and `other`'s, of the same day and month, together.
    public func adding(_ other: BudgetUsage) -> BudgetUsage {
        var sum = self
        sum.requestsToday += other.requestsToday
        sum.callsToday += other.callsToday
        sum.requestsThisMonth += other.requestsThisMonth
        sum.callsThisMonth += other.callsThisMonth
        return sum
    }

    /// One request, counted by the provider as `calls`.
    public mutating func add(calls: Double, now: Double) {
        roll(now: now)
        requestsToday += 1
        callsToday += calls
        requestsThisMonth += 1
        callsThisMonth += calls
    }

    /// Takes back one request counted by `add` that never left this machine
    /// (`calls` as it was counted), from the day and month containing `now`
    /// that are counted; a period that has ended since, or not been counted
    /// yet, gives nothing back.
    public mutating func withdraw(calls: Double, now: Double) {
        if Self.dayStart(now) == day, requestsToday > 0 {
            requestsToday -= 1
            callsToday = max(0, callsToday - calls)
        }
        if Self.monthStart(now) == month, requestsThisMonth > 0 {
            requestsThisMonth -= 1
            callsThisMonth = max(0, callsThisMonth - calls)
        }
    }

    /// Starts a new day or month when `now` is past the one counted.
    mutating func roll(now: Double) {
        let today = Self.dayStart(now)
        if today != day {
            day = today
            requestsToday = 0
            callsToday = 0
        }
        let thisMonth = Self.monthStart(now)
        if thisMonth != month {
            month = thisMonth
            requestsThisMonth = 0
            callsThisMonth = 0
        }
    }

    /// A number of calls as people write it: `1500`, `1.5`.
    public static func text(calls: Double) -> String {
        let hundredths = (calls * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return String(Int(hundredths / 100)) }
        return String(hundredths / 100)
    }

    /// 00:00 UTC of the day containing `now`.
    public static func dayStart(_ now: Double) -> Double { (now / 86400).rounded(.down) * 86400 }

    /// 00:00 UTC on the 1st of the month containing `now`.
    public static func monthStart(_ now: Double) -> Double {
        let date = CivilDateTime(unixSeconds: now, utcOffsetSeconds: 0)
        return CivilDateTime(year: date.year, month: date.month, day: 1).unixSeconds(utcOffsetSeconds: 0)
    }

    /// 00:00 UTC on the 1st of the month after the one containing `now`.
    public static func nextMonthStart(_ now: Double) -> Double {
        let date = CivilDateTime(unixSeconds: now, utcOffsetSeconds: 0)
        let next =
            date.month == 12
            ? CivilDateTime(year: date.year + 1, month: 1, day: 1)
            : CivilDateTime(year: date.year, month: date.month + 1, day: 1)
        return next.unixSeconds(utcOffsetSeconds: 0)
    }
}

/// Which budget a refusal is about.
public enum BudgetPeriod: String, WireEnum {
    case day, month
}
