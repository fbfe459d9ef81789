import RainCore

/// The alert pace's lines of `raindctl status` (docs/ALERTS.md, "Polling
/// that follows the weather"): each place's interval now, and why.
extension StatusCommand {
    /// "every 5 min" when the service's places are asked at one pace, "every 5 min to 30 min" when not;
    /// the service's own interval from a raind without paces.
    static func interval(_ source: AlertSourceStatus) -> String {
        let intervals = (source.paces ?? []).map(\.pollingSeconds)
        guard let shortest = intervals.min(), let longest = intervals.max(), shortest != longest else {
            return Durations.span(source.paces?.first?.pollingSeconds ?? source.pollingSeconds)
        }
        return tr(
            "{shortest} to {longest}", ["shortest": Durations.span(shortest), "longest": Durations.span(longest)])
    }

    /// "every 5 min (thunderstorm forecast in 3 h 0 min); warnings read within 8 min".
    static func pace(_ pace: AlertPace, now: Double) -> String {
        let values: KeyValuePairs<String, String> = [
            "interval": Durations.span(pace.pollingSeconds), "why": why(pace, now: now),
            "delay": Durations.span(pace.worstDelaySeconds),
        ]
        return tr("every {interval} ({why}); warnings read within {delay}", values)
    }

    /// Why the place is asked at its pace.
    static func why(_ pace: AlertPace, now: Double) -> String {
        let signal: String
        switch pace.reason {
        case .alertInEffect: return tr("an alert is in effect")
        case .alertUpcoming: return tr("an alert is upcoming")
        case .noForecast: return tr("no forecast yet to judge the weather by")
        case .calm: return tr("calm: no alert, no severe weather forecast for the next 12 h")
        case .thunderstorm: signal = tr("thunderstorm forecast")
        case .gusts: signal = tr("storm gusts")
        case .wind: signal = tr("strong wind forecast")
        case .heavyRain: signal = tr("heavy rain forecast")
        case .heavySnow: signal = tr("heavy snow forecast")
        case .heat: signal = tr("extreme heat forecast")
        case .cold: signal = tr("extreme cold forecast")
        }
        guard let at = pace.at, at - now >= 60 else { return tr("{signal} now", ["signal": signal]) }
        return tr("{signal} in {span}", ["signal": signal, "span": Durations.span(at - now)])
    }

    /// The rows for `status`: the places' alert paces, service by service,
    /// places asked at one pace for one reason on one row (ten places with
    /// an alert in effect make one line, not ten).
    static func alertPaceRows(_ status: WeatherStatus, now: Double) -> [[String]] {
        placeRows(
            tr("Alert pace:"),
            (status.alertSources ?? []).flatMap { $0.paces ?? [] }.map { ($0.place, Self.pace($0, now: now)) })
    }
}
