/// The words for the moon and the length of the day, each a whole phrase
/// with its values in place (so a translation can reorder them).
public enum SkyWording {
    public static func phaseName(_ phase: MoonPhaseName) -> String {
        switch phase {
        case .new: return tr("New moon")
        case .waxingCrescent: return tr("Waxing crescent")
        case .firstQuarter: return tr("First quarter")
        case .waxingGibbous: return tr("Waxing gibbous")
        case .full: return tr("Full moon")
        case .waningGibbous: return tr("Waning gibbous")
        case .lastQuarter: return tr("Last quarter")
        case .waningCrescent: return tr("Waning crescent")
        }
    }

    /// `Waxing gibbous, 78% illuminated`.
    public static func phase(_ moon: MoonReport) -> String {
        let percent = UnitFormatter.percent(moon.illumination)
        return tr("{phase}, {percent} illuminated", ["phase": phaseName(moon.phase), "percent": percent])
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
            case (.rise(let rise), .set(let set)?):
                parts.append(tr("rises {rise}, sets {set}", ["rise": clock(rise), "set": clock(set)]))
            case (.set(let set), .rise(let rise)?):
                parts.append(tr("sets {set}, rises {rise}", ["set": clock(set), "rise": clock(rise)]))
            case (.rise(let rise), nil): parts.append(tr("rises {rise}, does not set today", ["rise": clock(rise)]))
            case (.set(let set), nil): parts.append(tr("sets {set}, does not rise today", ["set": clock(set)]))
            // Two of a kind cannot follow each other: a rising ends time below the horizon.
            case (.rise(let time), _?), (.set(let time), _?): parts.append(clock(time))
            }
        }
        if parts.isEmpty { return moon.upAtStart ? tr("up all day") : tr("below the horizon all day") }
        return Localization.list(parts)
    }

    /// `9 h 12 min`, `45 min`, `24 h`: `seconds` to the nearest minute.
    public static func duration(_ seconds: Double) -> String {
        // At most a year of minutes: a length is a day's, and a bad value must not trap.
        let minutes = seconds.isFinite ? Int((min(max(0, seconds), 366 * 86_400) / 60).rounded()) : 0
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        if hours == 0 { return trn("{count} min", "{count} min", rest) }
        if rest == 0 { return trn("{count} h", "{count} h", hours) }
        return tr(
            "{hours} {minutes}",
            ["hours": trn("{count} h", "{count} h", hours), "minutes": trn("{count} min", "{count} min", rest)])
    }

    /// `9 h 12 min, 2 min shorter`: today's daylight and its change since
    /// yesterday; `24 h (polar day)`, `no daylight (polar night)`.
    public static func dayLength(seconds: Double, polar: Polar?, change: Double) -> String {
        switch polar {
        case .day: return tr("24 h (polar day)")
        case .night: return tr("no daylight (polar night)")
        case nil: break
        }
        let length = duration(seconds)
        let size = abs(change)
        if !(size >= 1) { return tr("{length}, as long as yesterday", ["length": length]) }
        if size < 30 {
            return change > 0
                ? tr("{length}, under a minute longer", ["length": length])
                : tr("{length}, under a minute shorter", ["length": length])
        }
        let amount = duration(size)
        return change > 0
            ? tr("{length}, {change} longer", ["length": length, "change": amount])
            : tr("{length}, {change} shorter", ["length": length, "change": amount])
    }
}
