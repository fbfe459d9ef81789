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
        let from = now - windowSeconds
        // The observed hours by their place in the window, and the tallies in
        // a short list (a few providers times three leads) whose last one is
        // tried first, as the samples come sorted: no hashing per sample, which
        // took nearly all of a month's scoring.
        let firstHour = (from / 3600).rounded(.up) * 3600
        var observed = [ObservedHour?](repeating: nil, count: max(0, Int((now - firstHour) / 3600) + 1))
        func slot(_ hour: Double) -> Int? {
            let offset = (hour - firstHour) / 3600
            guard hour <= now, offset >= 0, offset == offset.rounded() else { return nil }
            return Int(offset)
        }
        for hour in record.observed { if let index = slot(hour.hour) { observed[index] = hour } }
        var tallies: [(provider: String, lead: Int, tally: Tally)] = []
        var last = 0
        for sample in record.samples {
            guard let index = slot(sample.hour), let seen = observed[index] else { continue }
            if last >= tallies.count || tallies[last].lead != sample.lead || tallies[last].provider != sample.provider {
                if let found = tallies.firstIndex(where: { $0.lead == sample.lead && $0.provider == sample.provider }) {
                    last = found
                } else {
                    tallies.append((sample.provider, sample.lead, Tally()))
                    last = tallies.count - 1
                }
            }
            tallies[last].tally.add(sample, seen)
        }
        return tallies.sorted { ($0.provider, $0.lead) < ($1.provider, $1.lead) }.compactMap { entry in
            guard entry.tally.pairs > 0 else { return nil }
            return entry.tally.score(provider: entry.provider, lead: entry.lead, minimumPairs: minimumPairs)
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
