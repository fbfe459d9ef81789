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
        // By place in the window and in a short list, as `scores` does: no hashing per sample.
        let hours = HourSlots(from: from, to: now, includingEnd: false)
        var observed = [Double?](repeating: nil, count: hours.count)
        for hour in record.observed { if let index = hours.slot(hour.hour) { observed[index] = hour.temperature } }
        var providers = RecentKeys<String>()
        var sums: [[(error: Double, pairs: Int)]] = []
        for sample in record.samples where sample.lead == dailyLead {
            guard let forecast = sample.temperature, let index = hours.slot(sample.hour), let actual = observed[index]
            else { continue }
            let day = Int(((sample.hour - from) / 86_400).rounded(.down))
            guard (0..<count).contains(day) else { continue }
            let provider = providers.index(of: sample.provider)
            if provider == sums.count { sums.append(Array(repeating: (0, 0), count: count)) }
            sums[provider][day].error += abs(forecast - actual)
            sums[provider][day].pairs += 1
        }
        let names = providers.keys
        return names.indices.sorted { names[$0] < names[$1] }.flatMap { index in
            sums[index].enumerated().map { day, sum in
                AccuracyDay(
                    provider: names[index], from: from + Double(day) * 86_400,
                    temperatureError: sum.pairs >= AccuracyDay.minimumPairs ? sum.error / Double(sum.pairs) : nil,
                    pairs: sum.pairs)
            }
        }
    }
}
