import RainCore

/// The daily list, which the API does not have: it is made of the
/// forecast's day periods (6 am to 6 pm, `isDaytime`) and night periods
/// (6 pm to 6 am), each with the NWS's own high (day) or low (night).
extension NWS {
    /// One day for each local date a period starts on, at that date's local
    /// midnight in `zone`. Without it, the offsets the periods are written
    /// in (the place's local time, as the NWS writes it) say the dates, and
    /// midnight is in the offset of the night that spans it (the clocks of
    /// the United States change at 2 am), else of the date's first period.
    ///
    /// - `temperatureMax` is the high of the date's day period, and
    ///   `temperatureMin` the low of the night that ends on the date's
    ///   morning, where the day's lowest temperature usually falls. A date
    ///   without such a period has none: the first day of a forecast made in
    ///   the afternoon has no low (its morning is past), one made at night
    ///   no high. Neither is made up from a few hours.
    /// - The summary, icon, wind (the top of its range) and chance of rain
    ///   are the day period's, or the evening's when the date has only a night.
    /// - The amount of rain is unknown: the grid gives it for 6-hour
    ///   intervals in UTC, which do not fall on the place's midnights.
    /// - Sunrise and sunset are unknown: the API does not give them.
    static func days(_ periods: [NWSPeriod], zone: TimeZoneRules?) -> [DailyForecast] {
        func date(_ instant: Double, offset: Int) -> Int {
            zone?.local(instant).daysSinceEpoch
                ?? CivilDateTime(unixSeconds: instant, utcOffsetSeconds: offset).daysSinceEpoch
        }
        let starts = periods.map { date($0.start, offset: $0.offset) }
        let ends = periods.map { date($0.end, offset: $0.endOffset) }
        var days: [DailyForecast] = []
        var seen = Set<Int>()
        for (index, day) in starts.enumerated() where seen.insert(day).inserted {
            let dayPeriod = periods.indices.first { starts[$0] == day && periods[$0].isDaytime == true }
            let evening = periods.indices.first { starts[$0] == day && periods[$0].isDaytime == false }
            let night = periods.indices.first { ends[$0] == day && periods[$0].isDaytime == false }
            let main = periods[dayPeriod ?? evening ?? index]
            let midnight: Double
            if let zone {
                midnight = zone.startOfDay(day)
            } else {
                let civil = CivilDateTime.civil(fromDays: day)
                midnight = CivilDateTime(year: civil.year, month: civil.month, day: civil.day)
                    .unixSeconds(utcOffsetSeconds: periods[night ?? index].offset)
            }
            days.append(
                DailyForecast(
                    time: midnight, summary: main.summary, icon: main.icon,
                    temperatureMin: night.flatMap { periods[$0].temperature },
                    temperatureMax: dayPeriod.flatMap { periods[$0].temperature }, windSpeed: main.windSpeed,
                    precipProbability: main.precipProbability, precipAccumulation: nil))
        }
        return days
    }
}
