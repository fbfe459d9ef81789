/// The life of an alert as CAP means it, from every message a place's
/// sources reported to the alerts raind shows: upcoming until its onset, in
/// effect until it ends, replaced by an update, withdrawn by a
/// cancellation, and one alert however many sources or areas report it.
/// Pure: the clock is a parameter, so the daemon asks again at
/// `nextChange` and the tests replay a warning's life.
///
/// The rules, in order (docs/ALERTS.md, "An alert's life"):
/// 1. A message without a `messageType` (a forecast provider's own alert)
///    is an `Alert`; one without an `id` is known by its title and start
///    (`AlertNotices.key`).
/// 2. An `Update` or a `Cancel` takes the messages it `references` out:
///    the update is shown instead, the cancellation is not shown at all.
///    One referencing a message raind never saw is an alert of its own (an
///    update) or nothing (a cancellation).
/// 3. An alert whose end (CAP `ends`, else `expires`) is at or before now
///    is over.
/// 4. Alerts with the same `id`, or the same event and severity whose
///    onsets and ends lie within a minute of each other, are one warning
///    reported twice (by two sources, for two areas that both hold the
///    place): the first reported is kept, with the areas of all.
/// 5. In effect before upcoming, then most severe first, then earliest onset.
///
/// Here are the rules of one alert's time, which every view shares; the
/// rules that read a place's whole feed (`current`) are the daemon's
/// (`AlertLifecycle+Reports.swift`, RainDaemonCore).
public enum AlertLifecycle {
    /// Whether `alert` is in effect at `now`: its onset (else its start,
    /// else always) has come and its end, if it has one, has not.
    public static func isInEffect(_ alert: WeatherAlert, now: Double) -> Bool {
        (onset(alert).map { $0 <= now } ?? true) && !hasEnded(alert, now: now)
    }

    /// Whether `alert` is announced for later: its onset (else its start)
    /// lies after `now`, and it has not ended.
    public static func isUpcoming(_ alert: WeatherAlert, now: Double) -> Bool {
        (onset(alert).map { $0 > now } ?? false) && !hasEnded(alert, now: now)
    }

    /// The first moment after `now` at which one of `alerts` begins or
    /// ends: when the daemon looks again to notify an onset or take an
    /// expired alert away, without polling. nil when none will.
    public static func nextChange(_ alerts: [WeatherAlert], after now: Double) -> Double? {
        var next: Double?
        for alert in alerts {
            for moment in [onset(alert), time(alert.end)] {
                guard let moment, moment > now else { continue }
                next = min(next ?? moment, moment)
            }
        }
        return next
    }

    // MARK: - Rules

    private static func hasEnded(_ alert: WeatherAlert, now: Double) -> Bool {
        time(alert.end).map { $0 <= now } ?? false
    }

    /// When the hazard begins: CAP `onset`, else the message's start.
    package static func onset(_ alert: WeatherAlert) -> Double? {
        time(alert.onset) ?? time(alert.start)
    }

    /// A time that is one: NaN and infinities (never from a validated
    /// source) read as none.
    package static func time(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }
}
