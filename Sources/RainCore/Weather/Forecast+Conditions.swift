/// The conditions every view shows as "now" (rule shared by all providers):
/// the provider's current block while it is recent, else the forecast for
/// the hour in progress, marked as a forecast. Chosen from `now` at each
/// reading, so a cached forecast's "now" moves on hour by hour.
extension Forecast {
    /// How long a current block stands for the present: Open-Meteo renews it
    /// every 15 minutes and Pirate Weather observes at each request, so one
    /// older than an hour is a cached copy, and the hour in progress says more.
    public static let observationLifetime: Double = 3600

    /// The longest step one hourly entry stands for: far ahead, met.no gives
    /// 6-hour steps; a longer gap is data missing, not a step.
    public static let longestStep: Double = 6 * 3600

    /// When the step that `hourly[index]` starts ends: at the next entry's
    /// time; for the last entry, as long after it as the step before it (an
    /// hour when it is alone). Never more than `longestStep` after it.
    /// Nothing assumes the entries are in order.
    public func stepEnd(ofHourAt index: Int) -> Double {
        let time = hourly[index].time
        let times = hourly.lazy.map(\.time)
        let step =
            times.filter { $0 > time }.min().map { $0 - time }
            ?? times.filter { $0 < time }.max().map { time - $0 } ?? 3600
        return time + min(step, Self.longestStep)
    }

    /// The index of the hour in progress at `now`: the latest entry at or
    /// before `now` whose step (`stepEnd(ofHourAt:)`) has not ended; nil when
    /// `now` lies before the first entry, after the last step, or in a gap.
    public func hourInProgress(at now: Double) -> Int? {
        guard
            let index = hourly.indices.filter({ hourly[$0].time <= now })
                .max(by: { hourly[$0].time < hourly[$1].time })
        else { return nil }
        return now < stepEnd(ofHourAt: index) ? index : nil
    }

    /// The conditions to show as "now", and whether they were `observed`:
    /// the current block if it is younger than `observationLifetime` (or
    /// from a clock ahead of ours); else the forecast for the hour in
    /// progress (`observed` false), with only what an hourly entry holds;
    /// else nil: nothing in the forecast speaks of `now`.
    public func conditions(at now: Double) -> (conditions: CurrentConditions, observed: Bool)? {
        if let current, now < current.time + Self.observationLifetime { return (current, true) }
        guard let index = hourInProgress(at: now) else { return nil }
        return (CurrentConditions(forecastFor: hourly[index]), false)
    }
}

extension CurrentConditions {
    /// The hour's forecast as conditions: what an hour has, nothing made up
    /// for the rest (humidity, gusts, pressure, ... stay unknown).
    public init(forecastFor hour: HourlyForecast) {
        self.init(
            time: hour.time, summary: hour.summary, icon: hour.icon, temperature: hour.temperature,
            apparentTemperature: hour.apparentTemperature, windSpeed: hour.windSpeed,
            windBearing: hour.windBearing, precipIntensity: hour.precipIntensity,
            precipProbability: hour.precipProbability)
    }
}
