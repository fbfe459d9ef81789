import RainCore

/// A provider's temperature bias at a place, by lead time and hour of day,
/// as measured against the place's verifying station, and the correction
/// of its forecasts by it (`[Accuracy] CorrectTemperature=yes`,
/// docs/ACCURACY.md, "Correcting the temperature"). Pure: the time is a
/// parameter.
///
/// The hour of day is counted in UTC: at one place a UTC hour is always the
/// same time of the sun's day, where local clock time moves by an hour with
/// daylight saving. Each hour's bias is the mean of forecast minus observed
/// over the window's pairs of that hour and the hours either side (a
/// day's cycle of bias changes slowly), given only from
/// `AccuracyScorer.minimumPairs` pairs.
public struct TemperatureBias: Sendable, Equatable {
    public var provider: String
    /// The verifying station's name, said with each corrected forecast.
    public var station: String
    /// Whether the provider's current conditions are corrected: not when
    /// they are a station's measurement (`ProviderTerms.currentMeasured`).
    public var correctsCurrent = true
    /// By lead time, the bias at each UTC hour of day (0 to 23); nil below the minimum of pairs.
    var cells: [Int: [Cell?]] = [:]

    /// One hour of day's bias, °C (forecast minus observed), and its pairs.
    public struct Cell: Sendable, Equatable {
        public var bias: Double
        public var pairs: Int
    }

    /// The hours either side of an hour of day whose pairs count towards its bias.
    public static let neighbourHours = 1
    /// The furthest ahead a value is corrected, hours: past it no lead time is judged near enough.
    public static let furthestHours = 72

    public init(provider: String, station: String) {
        self.provider = provider
        self.station = station
    }

    /// Each provider's bias in `record` over the window ending at `now`, by provider.
    public static func measure(
        _ record: AccuracyRecord, station: String, now: Double,
        windowSeconds: Double = AccuracyScorer.windowSeconds, minimumPairs: Int = AccuracyScorer.minimumPairs
    ) -> [String: TemperatureBias] {
        let from = now - windowSeconds
        var observed: [Double: Double] = [:]
        for hour in record.observed where hour.hour >= from && hour.hour <= now {
            if let temperature = hour.temperature { observed[hour.hour] = temperature }
        }
        // By provider and lead, the sum of errors and the pairs at each UTC hour of day.
        var sums: [String: [Int: [(error: Double, pairs: Int)]]] = [:]
        for sample in record.samples {
            guard let forecast = sample.temperature, let actual = observed[sample.hour] else { continue }
            let hour = hourOfDay(sample.hour)
            sums[sample.provider, default: [:]][sample.lead, default: Array(repeating: (0, 0), count: 24)][hour]
                .error += forecast - actual
            sums[sample.provider]?[sample.lead]?[hour].pairs += 1
        }
        var result: [String: TemperatureBias] = [:]
        for (provider, leads) in sums {
            var bias = TemperatureBias(provider: provider, station: station)
            for (lead, hours) in leads {
                bias.cells[lead] = (0..<24).map { hour in
                    var error = 0.0
                    var pairs = 0
                    for offset in -neighbourHours...neighbourHours {
                        let sum = hours[(hour + offset + 24) % 24]
                        error += sum.error
                        pairs += sum.pairs
                    }
                    return pairs >= minimumPairs ? Cell(bias: error / Double(pairs), pairs: pairs) : nil
                }
            }
            result[provider] = bias
        }
        return result
    }

    /// The UTC hour of day of `time`, 0 to 23.
    public static func hourOfDay(_ time: Double) -> Int {
        let seconds = time.truncatingRemainder(dividingBy: 86_400)
        return Int(((seconds < 0 ? seconds + 86_400 : seconds) / 3600).rounded(.down)) % 24
    }

    /// The judged lead time nearest `seconds` ahead of the forecast's fetch
    /// (+6 h up to 15 h ahead, +24 h up to 36 h, +48 h up to
    /// `furthestHours`); nil past that.
    public static func lead(ahead seconds: Double) -> Int? {
        let hours = seconds / 3600
        if hours < 15 { return 6 }
        if hours < 36 { return 24 }
        if hours < Double(furthestHours) { return 48 }
        return nil
    }

    /// The bias of a value for `time`, from a forecast fetched at `fetchedAt`; nil when not measured enough.
    public func cell(at time: Double, fetchedAt: Double) -> Cell? {
        guard time.isFinite, let lead = Self.lead(ahead: time - fetchedAt) else { return nil }
        return cells[lead]?[Self.hourOfDay(time)] ?? nil
    }

    /// `forecast` (the provider's own, of this provider) with its
    /// temperatures corrected where the bias is measured enough: the
    /// current temperature (`correctsCurrent`), each hour's, and each day's
    /// high and low, by the bias at the hour the day's hourly forecast is
    /// warmest, or coldest. Feels-like temperatures are left as they are.
    /// The provider's values are kept in `correction`; nil when nothing
    /// was corrected.
    public func correct(_ forecast: Forecast) -> Forecast {
        guard forecast.provider == provider else { return forecast }
        var result = forecast
        var values: [CorrectedTemperature] = []
        let fetched = forecast.fetchedAt
        if correctsCurrent, let current = forecast.current, let temperature = current.temperature,
            let cell = cell(at: current.time, fetchedAt: fetched)
        {
            result.current?.temperature = temperature - cell.bias
            values.append(
                .init(value: .current, time: current.time, provider: temperature, bias: cell.bias, pairs: cell.pairs))
        }
        for (index, hour) in forecast.hourly.enumerated() {
            guard let temperature = hour.temperature, let cell = cell(at: hour.time, fetchedAt: fetched) else {
                continue
            }
            result.hourly[index].temperature = temperature - cell.bias
            values.append(
                .init(value: .hour, time: hour.time, provider: temperature, bias: cell.bias, pairs: cell.pairs))
        }
        for (index, day) in forecast.daily.enumerated() {
            let end = index + 1 < forecast.daily.count ? forecast.daily[index + 1].time : day.time + 86_400
            let hours = forecast.hourly.compactMap { hour -> (time: Double, temperature: Double)? in
                guard hour.time >= day.time, hour.time < end, let temperature = hour.temperature else { return nil }
                return (hour.time, temperature)
            }
            if let low = day.temperatureMin, let coldest = hours.min(by: { $0.temperature < $1.temperature }),
                let cell = cell(at: coldest.time, fetchedAt: fetched)
            {
                result.daily[index].temperatureMin = low - cell.bias
                values.append(.init(value: .low, time: day.time, provider: low, bias: cell.bias, pairs: cell.pairs))
            }
            if let high = day.temperatureMax, let warmest = hours.max(by: { $0.temperature < $1.temperature }),
                let cell = cell(at: warmest.time, fetchedAt: fetched)
            {
                result.daily[index].temperatureMax = high - cell.bias
                values.append(.init(value: .high, time: day.time, provider: high, bias: cell.bias, pairs: cell.pairs))
            }
        }
        result.correction = values.isEmpty ? nil : TemperatureCorrection(station: station, values: values)
        return result
    }
}
