/// How an alert's time span and origin read for people, the same in
/// `raindctl now`, status bars and desktop notifications: "until Thu 15 Jan
/// 08:00", "from Wed 14 Jan 14:00 until Thu 15 Jan 08:00", then " · dwd"
/// (the source) and " (approximate area)" when it was matched by region.
/// Times are local: `local` turns Unix seconds into the place's civil time.
public enum AlertWording {
    /// "until Thu 15 Jan 08:00" for an alert in effect at `now`; "from Wed 14
    /// Jan 14:00" (and its end) for one that begins later; nil when there is
    /// no time to tell (in effect with no end).
    public static func span(of alert: WeatherAlert, at now: Double, local: (Double) -> CivilDateTime) -> String? {
        let end = alert.end.map { moment(local($0)) }
        guard alert.isUpcoming(at: now), let begins = alert.begins else {
            return end.map { tr("until {end}", ["end": $0]) }
        }
        let start = moment(local(begins))
        guard let end else { return tr("from {start}", ["start": start]) }
        return tr("from {start} until {end}", ["start": start, "end": end])
    }

    /// " · dwd (approximate area)": who reported it and whether it may miss
    /// the place; empty for a provider's alert without either.
    public static func origin(of alert: WeatherAlert) -> String {
        var text = ""
        if let source = alert.source, !source.isEmpty { text += " · " + source }
        if alert.approximate == true { text += " (" + tr("approximate area") + ")" }
        return text
    }

    /// "until Thu 15 Jan 08:00 · dwd (approximate area)": the span and the
    /// origin on their own (a notification's line); empty when neither is known.
    public static func details(of alert: WeatherAlert, at now: Double, local: (Double) -> CivilDateTime) -> String {
        var parts: [String] = []
        if let span = span(of: alert, at: now, local: local) { parts.append(span) }
        if let source = alert.source, !source.isEmpty { parts.append(source) }
        var text = parts.joined(separator: " · ")
        if alert.approximate == true {
            text += text.isEmpty ? tr("approximate area") : " (" + tr("approximate area") + ")"
        }
        return text
    }

    /// "Thu 15 Jan 08:00", or with the date in figures where the reader's
    /// short dates are (`CivilDateTime.shortMonth`: Czech "Čt 15. 1. 08:00").
    public static func moment(_ time: CivilDateTime) -> String {
        tr(
            "{weekday} {day} {month} {time}",
            [
                "weekday": time.shortWeekdayName, "day": time.shortDay, "month": time.shortMonth,
                "time": time.hourMinute,
            ])
    }

    /// "08:00" on the day of `now`, "Thu 08:00" within the coming week, else
    /// "Thu 15 Jan 08:00": short enough for a status bar.
    public static func shortMoment(_ time: CivilDateTime, now: CivilDateTime) -> String {
        let days = time.daysSinceEpoch - now.daysSinceEpoch
        if days == 0 { return time.hourMinute }
        if (1..<7).contains(days) {
            return tr("{weekday} {time}", ["weekday": time.shortWeekdayName, "time": time.hourMinute])
        }
        return moment(time)
    }

    /// The severity as people read it (`Severe`, `Schwer`).
    public static func name(_ severity: AlertSeverity) -> String {
        switch severity {
        case .extreme: return tr("Extreme")
        case .severe: return tr("Severe")
        case .moderate: return tr("Moderate")
        case .minor: return tr("Minor")
        case .unknown: return tr("Unknown")
        }
    }

    /// The severity as a lower-case word (`severe`), for templates and CSS classes.
    public static func word(_ severity: AlertSeverity) -> String { severity.rawValue.lowercased() }
}
