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
        let until = alert.end.map { "until " + moment(local($0)) }
        guard alert.isUpcoming(at: now), let begins = alert.begins else { return until }
        return "from " + moment(local(begins)) + (until.map { " " + $0 } ?? "")
    }

    /// " · dwd (approximate area)": who reported it and whether it may miss
    /// the place; empty for a provider's alert without either.
    public static func origin(of alert: WeatherAlert) -> String {
        var text = ""
        if let source = alert.source, !source.isEmpty { text += " · " + source }
        if alert.approximate == true { text += " (approximate area)" }
        return text
    }

    /// "until Thu 15 Jan 08:00 · dwd (approximate area)": the span and the
    /// origin on their own (a notification's line); empty when neither is known.
    public static func details(of alert: WeatherAlert, at now: Double, local: (Double) -> CivilDateTime) -> String {
        var parts: [String] = []
        if let span = span(of: alert, at: now, local: local) { parts.append(span) }
        if let source = alert.source, !source.isEmpty { parts.append(source) }
        var text = parts.joined(separator: " · ")
        if alert.approximate == true { text += text.isEmpty ? "approximate area" : " (approximate area)" }
        return text
    }

    /// "Thu 15 Jan 08:00".
    public static func moment(_ time: CivilDateTime) -> String {
        "\(time.shortWeekdayName) \(time.day) \(time.shortMonthName) \(time.hourMinute)"
    }

    /// "08:00" on the day of `now`, "Thu 08:00" within the coming week, else
    /// "Thu 15 Jan 08:00": short enough for a status bar.
    public static func shortMoment(_ time: CivilDateTime, now: CivilDateTime) -> String {
        let days = time.daysSinceEpoch - now.daysSinceEpoch
        if days == 0 { return time.hourMinute }
        if (1..<7).contains(days) { return "\(time.shortWeekdayName) \(time.hourMinute)" }
        return moment(time)
    }

    /// The severity as a lower-case word (`severe`), for templates and CSS classes.
    public static func word(_ severity: AlertSeverity) -> String { severity.rawValue.lowercased() }
}
