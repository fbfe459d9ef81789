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
public enum AlertLifecycle {
    /// How far apart two reports' onsets and ends may be and still be one warning.
    public static let sameTimeTolerance = 60.0

    /// The alerts of `messages` in effect or upcoming at `now` (Unix
    /// seconds), by the rules above; at most `AlertLimits.alertsPerPlace`
    /// messages are read, the first ones.
    public static func current(_ messages: [WeatherAlert], now: Double) -> [WeatherAlert] {
        let messages = Array(messages.prefix(AlertLimits.alertsPerPlace))
        // Rule 2: every message an update or a cancellation names, whether
        // or not that one is itself replaced later (a chain of updates).
        var replaced: Set<String> = []
        for message in messages where message.messageType == .update || message.messageType == .cancel {
            for reference in message.references ?? [] where reference != message.id {
                replaced.insert(reference)
            }
        }
        var shown: [WeatherAlert] = []
        for message in messages {
            if message.messageType == .cancel { continue }
            if let id = message.id, replaced.contains(id) { continue }
            if let end = time(message.end), end <= now { continue }
            var alert = message
            if alert.messageType == nil { alert.messageType = .alert }
            merge(alert, into: &shown)
        }
        return
            shown.enumerated().sorted { lhs, rhs in
                let left = (upcoming: isUpcoming(lhs.element, now: now), rank: lhs.element.severity)
                let right = (upcoming: isUpcoming(rhs.element, now: now), rank: rhs.element.severity)
                if left.upcoming != right.upcoming { return !left.upcoming }
                if left.rank != right.rank { return left.rank < right.rank }
                let leftOnset = onset(lhs.element) ?? -.infinity
                let rightOnset = onset(rhs.element) ?? -.infinity
                if leftOnset != rightOnset { return leftOnset < rightOnset }
                return lhs.offset < rhs.offset
            }
            .map(\.element)
    }

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

    /// What makes two reports the same message: the source's identifier,
    /// else the title and start (`AlertNotices.key`).
    public static func key(of alert: WeatherAlert) -> String {
        alert.id ?? AlertNotices.key(of: alert)
    }

    // MARK: - Rules

    /// `alert` added to `shown`, or its areas added to the report of the
    /// same warning already there (rule 4).
    private static func merge(_ alert: WeatherAlert, into shown: inout [WeatherAlert]) {
        guard let index = shown.firstIndex(where: { isSameWarning($0, alert) }) else {
            shown.append(alert)
            return
        }
        var kept = shown[index]
        for region in alert.regions where !kept.regions.contains(region) && kept.regions.count < AlertLimits.regions {
            kept.regions.append(region)
        }
        if kept.uri.isEmpty { kept.uri = alert.uri }
        if kept.instruction == nil { kept.instruction = alert.instruction }
        // Matched by its outline in one report, it reaches the place.
        if kept.approximate == true, alert.approximate != true { kept.approximate = alert.approximate }
        shown[index] = kept
    }

    static func isSameWarning(_ a: WeatherAlert, _ b: WeatherAlert) -> Bool {
        if key(of: a) == key(of: b) { return true }
        let eventA = (a.event ?? a.title).lowercased()
        let eventB = (b.event ?? b.title).lowercased()
        return !eventA.isEmpty && eventA == eventB && a.severity == b.severity
            && closeEnough(onset(a), onset(b)) && closeEnough(time(a.end), time(b.end))
    }

    private static func closeEnough(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a - b) <= sameTimeTolerance
        default: return false
        }
    }

    private static func hasEnded(_ alert: WeatherAlert, now: Double) -> Bool {
        time(alert.end).map { $0 <= now } ?? false
    }

    /// When the hazard begins: CAP `onset`, else the message's start.
    static func onset(_ alert: WeatherAlert) -> Double? {
        time(alert.onset) ?? time(alert.start)
    }

    /// A time that is one: NaN and infinities (never from a validated
    /// source) read as none.
    private static func time(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }
}
