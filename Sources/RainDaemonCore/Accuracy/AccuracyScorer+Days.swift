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
        let firstHour = (from / 3600).rounded(.up) * 3600
        let slots = max(0, Int(((now - firstHour) / 3600).rounded(.up)))
        func slot(_ hour: Double) -> Int? {
            let offset = (hour - firstHour) / 3600
            guard hour < now, offset >= 0, offset == offset.rounded(), Int(offset) < slots else { return nil }
            return Int(offset)
        }
        var observed = [Double?](repeating: nil, count: slots)
        for hour in record.observed { if let index = slot(hour.hour) { observed[index] = hour.temperature } }
        var providers: [String] = []
        var sums: [[(error: Double, pairs: Int)]] = []
        var last = 0
        for sample in record.samples where sample.lead == dailyLead {
            guard let forecast = sample.temperature, let index = slot(sample.hour), let actual = observed[index]
            else { continue }
            let day = Int(((sample.hour - from) / 86_400).rounded(.down))
            guard (0..<count).contains(day) else { continue }
            if last >= providers.count || providers[last] != sample.provider {
                if let found = providers.firstIndex(of: sample.provider) {
                    last = found
                } else {
                    providers.append(sample.provider)
                    sums.append(Array(repeating: (0, 0), count: count))
                    last = providers.count - 1
                }
            }
            sums[last][day].error += abs(forecast - actual)
            sums[last][day].pairs += 1
        }
        let order = providers.indices.sorted { providers[$0] < providers[$1] }
        return order.flatMap { index in
            sums[index].enumerated().map { day, sum in
                AccuracyDay(
                    provider: providers[index], from: from + Double(day) * 86_400,
                    temperatureError: sum.pairs >= AccuracyDay.minimumPairs ? sum.error / Double(sum.pairs) : nil,
                    pairs: sum.pairs)
            }
        }
    }
}
