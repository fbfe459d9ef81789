import RainCore

extension AccuracyScorer {
    /// The lead time the days are drawn at: a day ahead, as the ranking judges.
    public static let dailyLead = 24

    /// Each provider's mean absolute temperature error at +24 h over each
    /// day of the window ending at `now` (the 24 hours from `now` less a
    /// whole number of days, oldest first), by provider then day; a day's
    /// error is nil below `AccuracyDay.minimumPairs`. A provider without
    /// a pair in the window is left out. Pure: the time is a parameter.
    public static func days(
        _ record: AccuracyRecord, now: Double, windowSeconds: Double = windowSeconds
    ) -> [AccuracyDay] {
        let count = Int((windowSeconds / 86_400).rounded())
        let from = now - Double(count) * 86_400
        var observed: [Double: Double] = [:]
        for hour in record.observed where hour.hour >= from && hour.hour < now {
            if let temperature = hour.temperature { observed[hour.hour] = temperature }
        }
        var sums: [String: [(error: Double, pairs: Int)]] = [:]
        for sample in record.samples where sample.lead == dailyLead {
            guard let forecast = sample.temperature, let actual = observed[sample.hour] else { continue }
            let day = Int(((sample.hour - from) / 86_400).rounded(.down))
            guard (0..<count).contains(day) else { continue }
            sums[sample.provider, default: Array(repeating: (0, 0), count: count)][day].error += abs(forecast - actual)
            sums[sample.provider]?[day].pairs += 1
        }
        return sums.keys.sorted().flatMap { provider in
            (sums[provider] ?? []).enumerated().map { day, sum in
                AccuracyDay(
                    provider: provider, from: from + Double(day) * 86_400,
                    temperatureError: sum.pairs >= AccuracyDay.minimumPairs ? sum.error / Double(sum.pairs) : nil,
                    pairs: sum.pairs)
            }
        }
    }
}
