import RainCore

/// A provider's book as raind keeps it in its cache directory
/// (`budget-NAME.json`, and `budget.json` for the sole provider):
/// `{"day", "calls", "requests", "month", "monthCalls", "monthRequests"}`,
/// times in Unix seconds at UTC midnight. Read back only as raind writes it:
/// anything else is refused with what is wrong, and counts as nothing.
extension BudgetUsage {
    /// The book in `bytes`. A file from before monthly counting (`day` and
    /// `calls` only) reads as that day's requests and calls, with the month
    /// unknown (counted from zero).
    public init(persisted bytes: [UInt8]) throws(WireDecodingError) {
        let value: JSON
        do {
            value = try JSON(parsing: bytes)
        } catch {
            throw WireDecodingError(field: "budget", reason: "not JSON (\(error))")
        }
        self.init()
        day = try Self.midnight(value, "day")
        callsToday = try Self.count(value, "calls")
        // `calls` is bounded above, so the conversion cannot trap.
        requestsToday = value["requests"] == nil ? Int(callsToday) : Int(try Self.count(value, "requests"))
        guard value["month"] != nil else { return }
        month = try Self.midnight(value, "month")
        callsThisMonth = value["monthCalls"] == nil ? 0 : try Self.count(value, "monthCalls")
        requestsThisMonth = value["monthRequests"] == nil ? 0 : Int(try Self.count(value, "monthRequests"))
    }

    /// The book as raind writes it.
    public var persisted: JSON {
        .object([
            "day": .number(day), "calls": .number(callsToday), "requests": .int(requestsToday),
            "month": .number(month), "monthCalls": .number(callsThisMonth), "monthRequests": .int(requestsThisMonth),
        ])
    }

    private static func midnight(_ value: JSON, _ field: String) throws(WireDecodingError) -> Double {
        guard let time = value[field]?.doubleValue else {
            throw WireDecodingError(field: field, reason: "missing or not a number")
        }
        guard Forecast.plausibleTimes.contains(time), time.truncatingRemainder(dividingBy: 86400) == 0 else {
            throw WireDecodingError(field: field, reason: "\(time) is not a UTC midnight of a plausible date")
        }
        return time
    }

    /// A count raind could have made: 0 to 100,000,000 (requests: whole).
    private static func count(_ value: JSON, _ field: String) throws(WireDecodingError) -> Double {
        guard let count = value[field]?.doubleValue else {
            throw WireDecodingError(field: field, reason: "missing or not a number")
        }
        guard (0...100_000_000).contains(count) else {
            throw WireDecodingError(field: field, reason: "\(count) is not a count raind makes")
        }
        if field.lowercased().hasSuffix("requests"), count.rounded(.down) != count {
            throw WireDecodingError(field: field, reason: "\(count) is not a whole number of requests")
        }
        return count
    }
}
