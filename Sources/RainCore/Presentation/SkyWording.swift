/// The words for the moon and the length of the day, each a whole phrase
/// with its values in place (so a translation can reorder them).
public enum SkyWording {
    public static func phaseName(_ phase: MoonPhaseName) -> String {
        switch phase {
        case .new: return "New moon"
        case .waxingCrescent: return "Waxing crescent"
        case .firstQuarter: return "First quarter"
        case .waxingGibbous: return "Waxing gibbous"
        case .full: return "Full moon"
        case .waningGibbous: return "Waning gibbous"
        case .lastQuarter: return "Last quarter"
        case .waningCrescent: return "Waning crescent"
        }
    }

    /// `Waxing gibbous, 78% illuminated`.
    public static func phase(_ moon: MoonReport) -> String {
        let percent = UnitFormatter.percent(moon.illumination)
        return "\(phaseName(moon.phase)), \(percent) illuminated"
    }

    /// `rises 14:02, sets 03:41` in the order they happen, `sets 10:12,
    /// does not rise today`, `up all day`, `below the horizon all day`;
    /// `clock` writes a local time.
    public static func moonTimes(_ moon: MoonReport, clock: (Double) -> String) -> String {
        var parts: [String] = []
        var events = moon.events[...]
        while let first = events.popFirst() {
            let second = events.popFirst()
            switch (first, second) {
            case (.rise(let rise), .set(let set)?): parts.append("rises \(clock(rise)), sets \(clock(set))")
            case (.set(let set), .rise(let rise)?): parts.append("sets \(clock(set)), rises \(clock(rise))")
            case (.rise(let rise), nil): parts.append("rises \(clock(rise)), does not set today")
            case (.set(let set), nil): parts.append("sets \(clock(set)), does not rise today")
            // Two of a kind cannot follow each other: a rising ends time below the horizon.
            case (.rise(let time), _?), (.set(let time), _?): parts.append(clock(time))
            }
        }
        if parts.isEmpty { return moon.upAtStart ? "up all day" : "below the horizon all day" }
        return parts.joined(separator: ", ")
    }

    /// `9 h 12 min`, `45 min`, `24 h`: `seconds` to the nearest minute.
    public static func duration(_ seconds: Double) -> String {
        // At most a year of minutes: a length is a day's, and a bad value must not trap.
        let minutes = seconds.isFinite ? Int((min(max(0, seconds), 366 * 86_400) / 60).rounded()) : 0
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        if hours == 0 { return "\(rest) min" }
        if rest == 0 { return "\(hours) h" }
        return "\(hours) h \(rest) min"
    }

    /// `9 h 12 min, 2 min shorter`: today's daylight and its change since
    /// yesterday; `24 h (polar day)`, `no daylight (polar night)`.
    public static func dayLength(seconds: Double, polar: Polar?, change: Double) -> String {
        switch polar {
        case .day: return "24 h (polar day)"
        case .night: return "no daylight (polar night)"
        case nil: break
        }
        let length = duration(seconds)
        let size = abs(change)
        if !(size >= 1) { return "\(length), as long as yesterday" }
        if size < 30 {
            return change > 0 ? "\(length), under a minute longer" : "\(length), under a minute shorter"
        }
        let amount = duration(size)
        return change > 0 ? "\(length), \(amount) longer" : "\(length), \(amount) shorter"
    }
}
