import RainCore

/// The days of a Locationforecast answer, which has none: each derived from
/// the steps and periods that fall in one local day of the place's zone,
/// `time` its local midnight (23 or 25 hours after the one before across a
/// clock change).
///
/// met.no sends hours for the first two or three days, then 6-hour periods
/// starting at 00, 06, 12 and 18 UTC, which straddle local midnight wherever
/// the offset is not a multiple of six hours. A value is only claimed from
/// data lying inside the local day, and only when that data covers the
/// day's 06:00 to 18:00 local time; otherwise it is unknown:
///
/// - **min and max**: the lowest and highest of the instant temperatures in
///   the day (each standing for the hour it begins) and of the 6-hour
///   periods' `air_temperature_min`/`max` wholly inside it. A first day that
///   starts in the afternoon, or a last day cut short, has none. Every full
///   day has them in a `complete` answer: whatever the offset, the three
///   whole 6-hour periods inside a local day start before its 06:00 and end
///   after its 18:00. A `compact` answer has no period extremes, so its days
///   beyond the hours have none either (four instants a day are too few).
/// - **accumulation**: the sum of the non-overlapping periods (each step's
///   hour, else its six hours, one after the other) wholly inside the day.
///   Where 6-hour periods straddle local midnight the sum covers the 18 to
///   24 hours inside the day (02:00 to 20:00 in Berlin in summer): met.no
///   does not say how a period's amount falls within it.
/// - **chance of rain**: the highest `probability_of_precipitation` of the
///   1-, 6- and 12-hour periods wholly inside the day; nil when the answer
///   gives none (`compact`).
/// - **summary and icon**: the day's dominant symbol. The non-overlapping
///   periods are weighed by the hours they share with the day's 06:00 to
///   18:00 (with the whole day when none does); the symbol with the most
///   hours wins, ties going to the worse weather. Its icon is the day
///   variant unless the symbol was mostly drawn for night or polar twilight
///   (a polar-night day has no sun in its icon). No symbol: `unknown`.
///
/// Wind, sunrise and sunset stay unknown: met.no's forecast has no daily
/// wind, and sun times belong to its Sunrise API, which raind does not ask.
enum MetNorwayDays {
    /// The days of `steps` (ordered by time) in `zone`, one for each local
    /// day holding a step.
    static func days(_ steps: [MetNorwayStep], zone: TimeZoneRules) -> [DailyForecast] {
        var numbers: [Int] = []
        for step in steps {
            let number = zone.local(step.time).daysSinceEpoch
            if numbers.last != number { numbers.append(number) }
        }
        let chain = self.chain(steps)
        return numbers.map { day($0, steps: steps, chain: chain, zone: zone) }
    }

    /// The periods that follow one another without overlapping: from each
    /// step, its hour (else its six hours), then the step where that ends.
    static func chain(_ steps: [MetNorwayStep]) -> [MetNorwayStep.Period] {
        var chain: [MetNorwayStep.Period] = []
        var next = -Double.infinity
        for step in steps where step.time >= next {
            guard let period = step.nextHour ?? step.nextSixHours else { continue }
            chain.append(period)
            next = period.end
        }
        return chain
    }

    private static func day(
        _ number: Int, steps: [MetNorwayStep], chain: [MetNorwayStep.Period], zone: TimeZoneRules
    ) -> DailyForecast {
        let start = zone.startOfDay(number)
        let end = zone.startOfDay(number + 1)
        let daytime = instant(hour: 6, day: number, zone: zone)..<instant(hour: 18, day: number, zone: zone)
        func inside(_ period: MetNorwayStep.Period) -> Bool { period.start >= start && period.end <= end }
        let periods = steps.flatMap(\.periods).filter(inside)

        var temperatures: [Double] = []
        var temperatureSpans: [Range<Double>] = []
        for step in steps where step.time >= start && step.time < end {
            guard let temperature = step.instant.temperature else { continue }
            temperatures.append(temperature)
            temperatureSpans.append(step.time..<step.time + 3600)
        }
        for period in periods {
            let extremes = [period.temperatureMin, period.temperatureMax].compactMap { $0 }
            guard !extremes.isEmpty else { continue }
            temperatures += extremes
            temperatureSpans.append(period.start..<period.end)
        }
        let knowsTemperatures = covers(temperatureSpans, daytime)

        let rained = chain.filter { inside($0) && $0.precipitation != nil }
        let knowsRain = covers(rained.map { $0.start..<$0.end }, daytime)

        let chances = periods.compactMap(\.probability)

        let symbol = dominantSymbol(chain, daytime: daytime, day: start..<end)
        return DailyForecast(
            time: start, summary: symbol?.summary ?? "", icon: symbol?.icon ?? "unknown",
            temperatureMin: knowsTemperatures ? temperatures.min() : nil,
            temperatureMax: knowsTemperatures ? temperatures.max() : nil,
            windSpeed: nil, precipProbability: chances.max(),
            precipAccumulation: knowsRain ? rained.compactMap(\.precipitation).reduce(0, +) : nil,
            sunrise: nil, sunset: nil, polar: nil)
    }

    /// The symbol covering most of `daytime` (of `day` when none does), as
    /// the day's summary and icon.
    private static func dominantSymbol(
        _ chain: [MetNorwayStep.Period], daytime: Range<Double>, day: Range<Double>
    ) -> (summary: String, icon: String)? {
        for span in [daytime, day] {
            var hours: [String: (symbol: MetNorwaySymbol, total: Double, night: Double)] = [:]
            for period in chain {
                guard let symbol = period.symbol else { continue }
                let shared = min(period.end, span.upperBound) - max(period.start, span.lowerBound)
                guard shared > 0 else { continue }
                let dark = symbol.variant == .night || symbol.variant == .polarTwilight
                var tally = hours[symbol.base] ?? (symbol, 0, 0)
                tally.total += shared
                if dark { tally.night += shared }
                hours[symbol.base] = tally
            }
            let best = hours.values.max { lhs, rhs in
                (lhs.total, lhs.symbol.severity, rhs.symbol.base) < (rhs.total, rhs.symbol.severity, lhs.symbol.base)
            }
            if let best {
                let variant: MetNorwaySymbol.Variant? =
                    best.symbol.variant == nil ? nil : best.night * 2 > best.total ? .night : .day
                return (best.symbol.summary, best.symbol.icon(as: variant))
            }
        }
        return nil
    }

    /// Whether `spans` together cover all of `window`.
    static func covers(_ spans: [Range<Double>], _ window: Range<Double>) -> Bool {
        var reached = window.lowerBound
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if reached >= window.upperBound { break }
            guard span.upperBound > reached else { continue }
            guard span.lowerBound <= reached else { return false }
            reached = span.upperBound
        }
        return reached >= window.upperBound
    }

    /// The instant of `hour`:00 local time on local day `day`, found as
    /// `TimeZoneRules.startOfDay` finds midnight: clocks change at night,
    /// so the offset at a guess near the hour is the hour's.
    static func instant(hour: Int, day: Int, zone: TimeZoneRules) -> Double {
        let naive = Double(day * 86_400 + hour * 3600)
        return naive - Double(zone.offset(at: naive - Double(zone.offset(at: naive))))
    }
}
