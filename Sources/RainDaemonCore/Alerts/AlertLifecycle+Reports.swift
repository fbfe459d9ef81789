import RainCore

/// How `AlertLifecycle` turns every message a place's sources reported into
/// the alerts raind shows (its rules 1, 2, 4 and 5): the daemon's part, which
/// reads whole feeds. The rules of one alert's time, which every view shares,
/// stay with `AlertLifecycle` in RainCore.
extension AlertLifecycle {
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
}
