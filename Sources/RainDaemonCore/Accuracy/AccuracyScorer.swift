import RainCore

/// Scores a place's providers (docs/ACCURACY.md): every sample of the
/// window paired with the station's observation of its hour, per provider
/// and lead time. Pure: the time is a parameter.
public enum AccuracyScorer {
    /// The rolling window scored.
    public static let windowSeconds: Double = 30 * 86_400
    /// The fewest pairs a measure needs: one day of hours.
    public static let minimumPairs = 24
    /// A forecast within this of the observation counts as right, °C.
    public static let withinDegrees = 2.0

    /// The scores of `record` over the window ending at `now`, by provider then lead time.
    public static func scores(
        _ record: AccuracyRecord, now: Double, windowSeconds: Double = windowSeconds, minimumPairs: Int = minimumPairs
    ) -> [AccuracyScore] {
        // The observed hours by their place in the window, and the tallies in
        // a short list (a few providers times three leads): no hashing per
        // sample, which took nearly all of a month's scoring.
        let hours = HourSlots(from: now - windowSeconds, to: now, includingEnd: true)
        var observed = [ObservedHour?](repeating: nil, count: hours.count)
        for hour in record.observed { if let index = hours.slot(hour.hour) { observed[index] = hour } }
        var keys = RecentKeys<ProviderLead>()
        var tallies: [Tally] = []
        for sample in record.samples {
            guard let index = hours.slot(sample.hour), let seen = observed[index] else { continue }
            let key = keys.index(of: ProviderLead(provider: sample.provider, lead: sample.lead))
            if key == tallies.count { tallies.append(Tally()) }
            tallies[key].add(sample, seen)
        }
        return keys.keys.indices.sorted { keys.keys[$0] < keys.keys[$1] }.compactMap { index in
            let key = keys.keys[index]
            guard tallies[index].pairs > 0 else { return nil }
            return tallies[index].score(provider: key.provider, lead: key.lead, minimumPairs: minimumPairs)
        }
    }

    /// A tally's key: provider, then lead time.
    struct ProviderLead: Equatable, Comparable {
        var provider: String
        var lead: Int

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.provider, lhs.lead) < (rhs.provider, rhs.lead) }
    }

    /// The whole hours of a window by their place in it (an array index, no hashing).
    struct HourSlots {
        let firstHour: Double
        let end: Double
        let includingEnd: Bool
        /// Slots from the first whole hour at or after `from` to `end`.
        let count: Int

        init(from: Double, to end: Double, includingEnd: Bool) {
            firstHour = (from / 3600).rounded(.up) * 3600
            self.end = end
            self.includingEnd = includingEnd
            count = max(0, Int(((end - firstHour) / 3600).rounded(.down)) + 1)
        }

        /// `hour`'s slot; nil when it is not a whole hour of the window.
        func slot(_ hour: Double) -> Int? {
            let offset = (hour - firstHour) / 3600
            guard includingEnd ? hour <= end : hour < end, offset >= 0, offset == offset.rounded(),
                Int(offset) < count
            else { return nil }
            return Int(offset)
        }
    }

    /// A few keys in the order first met, the last one found tried first:
    /// the samples come sorted, so most look-ups are one comparison.
    struct RecentKeys<Key: Equatable> {
        private(set) var keys: [Key] = []
        private var last = 0

        /// `key`'s place, at the end (`keys.count` before) when it is new.
        mutating func index(of key: Key) -> Int {
            if last < keys.count, keys[last] == key { return last }
            if let found = keys.firstIndex(of: key) {
                last = found
            } else {
                keys.append(key)
                last = keys.count - 1
            }
            return last
        }
    }

    struct Tally {
        var pairs = 0
        var backfilled = 0
        var temperatures = 0
        var absoluteError = 0.0
        var error = 0.0
        var within = 0
        var rainPairs = 0
        var hits = 0
        var falseAlarms = 0
        var misses = 0
        var dry = 0
        var brierPairs = 0
        var brier = 0.0
        var winds = 0
        var windError = 0.0

        mutating func add(_ sample: ForecastSample, _ seen: ObservedHour) {
            var paired = false
            if let forecast = sample.temperature, let actual = seen.temperature {
                temperatures += 1
                absoluteError += abs(forecast - actual)
                error += forecast - actual
                if abs(forecast - actual) <= AccuracyScorer.withinDegrees { within += 1 }
                paired = true
            }
            if let forecast = sample.rain, let actual = seen.rain {
                rainPairs += 1
                switch (forecast, actual) {
                case (true, true): hits += 1
                case (true, false): falseAlarms += 1
                case (false, true): misses += 1
                case (false, false): dry += 1
                }
                paired = true
            }
            if let chance = sample.rainProbability, let actual = seen.rain {
                brierPairs += 1
                let outcome = actual ? 1.0 : 0.0
                brier += (chance - outcome) * (chance - outcome)
                paired = true
            }
            if let forecast = sample.windSpeed, let actual = seen.windSpeed {
                winds += 1
                windError += abs(forecast - actual)
                paired = true
            }
            if paired {
                pairs += 1
                if sample.backfilled == true { backfilled += 1 }
            }
        }

        func score(provider: String, lead: Int, minimumPairs: Int) -> AccuracyScore {
            var score = AccuracyScore(provider: provider, leadHours: lead)
            score.pairs = pairs
            score.backfilledPairs = backfilled
            score.temperaturePairs = temperatures
            score.rainPairs = rainPairs
            score.rainHits = hits
            score.rainFalseAlarms = falseAlarms
            score.rainMisses = misses
            score.brierPairs = brierPairs
            score.windPairs = winds
            if temperatures >= minimumPairs {
                let count = Double(temperatures)
                score.temperatureError = absoluteError / count
                score.temperatureBias = error / count
                score.withinTwoDegrees = Double(within) / count
            }
            if rainPairs >= minimumPairs {
                if hits + misses > 0 { score.rainHitRate = Double(hits) / Double(hits + misses) }
                if falseAlarms + dry > 0 { score.rainFalseAlarmRate = Double(falseAlarms) / Double(falseAlarms + dry) }
            }
            if brierPairs >= minimumPairs { score.brierScore = brier / Double(brierPairs) }
            if winds >= minimumPairs { score.windError = windError / Double(winds) }
            return score
        }
    }
}
