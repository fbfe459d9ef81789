import RainCore

/// The ISO 8601 forms api.weather.gov writes, read strictly and without
/// Foundation: instants with their offset (`2019-10-14T20:00:00-04:00`, the
/// place's local time in forecast periods; `2022-02-04T03:00:00+00:00` in
/// the raw grid), durations (`PT3H`, `P1DT6H`) and the grid's intervals, an
/// instant and a duration (`2022-02-04T03:00:00+00:00/PT3H`,
/// https://weather-gov.github.io/api/gridpoints). Anything else is nil:
/// fractions, years and months (which have no fixed length), and instants
/// without an offset.
enum NWSTime {
    /// The longest duration raind reads: the grid merges equal hours into
    /// one value, which may span days, never weeks.
    static let maximumDuration = 31.0 * 86_400

    /// Unix seconds of `text` and the UTC offset (seconds) it is written in.
    static func instant(_ text: String) -> (seconds: Double, offset: Int)? {
        ISO8601Instant.parse(text).map { ($0.unixSeconds, $0.utcOffsetSeconds) }
    }

    /// Seconds of a duration written `PnW`, or `PnDTnHnMnS` with any part
    /// left out (at least one present, and one after a `T`); nil for zero,
    /// for longer than `maximumDuration` and for anything else.
    static func duration(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return nil }
        // The designators of the date part and of the time part, in the order they must come.
        let dateUnits: [(UInt8, Double)] = [(UInt8(ascii: "W"), 604_800), (UInt8(ascii: "D"), 86_400)]
        let timeUnits: [(UInt8, Double)] = [
            (UInt8(ascii: "H"), 3600), (UInt8(ascii: "M"), 60), (UInt8(ascii: "S"), 1),
        ]
        var index = 1
        var total = 0.0
        var inTime = false
        var timeParts = 0
        var parts = 0
        var weeks = false
        var next = 0  // the first designator still allowed in the current part
        while index < bytes.count {
            // Weeks stand alone in ISO 8601: nothing may follow them.
            guard !weeks else { return nil }
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                next = 0
                index += 1
                continue
            }
            var digits = 0
            var value = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
                guard digits <= 6 else { return nil }
            }
            guard digits > 0, index < bytes.count else { return nil }
            let units = inTime ? timeUnits : dateUnits
            guard let found = units[next...].firstIndex(where: { $0.0 == bytes[index] }) else { return nil }
            if !inTime && found == 0 {
                guard parts == 0 else { return nil }
                weeks = true
            }
            total += Double(value) * units[found].1
            next = found + 1
            parts += 1
            if inTime { timeParts += 1 }
            index += 1
        }
        guard parts > 0, !inTime || timeParts > 0, total > 0, total <= maximumDuration else { return nil }
        return total
    }

    /// The start and end (Unix seconds) of an interval written `instant/duration`.
    static func interval(_ text: String) -> (start: Double, end: Double)? {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let start = instant(String(halves[0])), let length = duration(String(halves[1]))
        else { return nil }
        return (start.seconds, start.seconds + length)
    }
}
