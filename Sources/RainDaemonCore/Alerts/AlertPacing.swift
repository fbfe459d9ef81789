import RainCore

/// How often a place's official alerts are asked for (docs/ALERTS.md,
/// "Polling that follows the weather"): at the service's own rate
/// (`AlertSourceTerms.pollingInterval`, 5 min for the NWS) while an alert
/// for the place is in effect or upcoming, while its forecast for the next
/// 12 hours holds a severe signal (`SevereSignals`), or while there is no
/// forecast to judge by; at the calm rate (`calmPollingInterval`, 30 min)
/// otherwise. Pure: the clock is a parameter.
public enum AlertPacing {
    /// The pace of `place` at `now`, from the alerts it holds (the
    /// provider's own and the service's, `AlertLifecycle.current` is applied
    /// here) and its forecast (nil: none yet).
    public static func pace(
        of place: LocationID, terms: AlertSourceTerms, messages: [WeatherAlert], forecast: Forecast?, now: Double
    ) -> AlertPace {
        let alerts = AlertLifecycle.current(messages, now: now)
        let fast = { (reason: AlertPace.Reason, at: Double?) in
            AlertPace(
                place: place, pollingSeconds: terms.pollingInterval, fast: true, reason: reason, at: at,
                worstDelaySeconds: worstDelay(interval: terms.pollingInterval, terms: terms))
        }
        if let alert = alerts.first(where: { AlertLifecycle.isInEffect($0, now: now) }) {
            return fast(.alertInEffect, alert.onset ?? alert.start)
        }
        if let alert = alerts.first(where: { AlertLifecycle.isUpcoming($0, now: now) }) {
            return fast(.alertUpcoming, alert.onset ?? alert.start)
        }
        guard let forecast else { return fast(.noForecast, nil) }
        if let signal = SevereSignals.first(in: forecast, now: now) { return fast(signal.reason, signal.at) }
        return AlertPace(
            place: place, pollingSeconds: terms.calmPollingInterval, fast: false, reason: .calm,
            worstDelaySeconds: worstDelay(interval: terms.calmPollingInterval, terms: terms))
    }

    /// The longest a warning the service publishes takes to reach raind
    /// polling every `interval`, while the service answers: a warning
    /// published just after a poll's answer is in the next poll's, at most
    /// the interval and its jitter later; that poll may be given an answer
    /// another place's poll fetched up to half the service's own interval
    /// before (`SharedAnswers`), so the place asks once more. Then the
    /// alert is published (and notified) as its answer is read; the
    /// request's own time (seconds) is left out.
    public static func worstDelay(interval: Double, terms: AlertSourceTerms) -> Double {
        interval * (1 + terms.jitterFraction) + terms.pollingInterval / 2
    }
}
