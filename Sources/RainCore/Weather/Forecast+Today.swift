/// The place's own calendar: which daily entry is "today" (for today's
/// high, low, sunrise and sunset in every view) is decided by the local
/// date at the place, never by the order of the answer (one fetched
/// yesterday evening starts with yesterday).
extension Forecast {
    /// `unixSeconds` as the place's local date and time: by `zone`'s rules
    /// (daylight-saving changes included), or by `utcOffsetSeconds` when the
    /// zone is unknown.
    public func local(_ unixSeconds: Double, zone: TimeZoneRules?) -> CivilDateTime {
        zone?.local(unixSeconds) ?? CivilDateTime(unixSeconds: unixSeconds, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The local date `day` stands for: that of the nearest local midnight to
    /// its `time`, so a day a provider started at 23:00 or 01:00 after a clock
    /// change (one offset for its whole series) keeps its own date.
    public func date(of day: DailyForecast, zone: TimeZoneRules?) -> CivilDateTime {
        local(day.time + 43_200, zone: zone)
    }

    /// The daily entry for the local date at `now`; nil when the forecast has
    /// none for that date (its values are then unknown, not another day's).
    public func today(at now: Double, zone: TimeZoneRules?) -> DailyForecast? {
        let date = local(now, zone: zone).daysSinceEpoch
        return daily.first { self.date(of: $0, zone: zone).daysSinceEpoch == date }
    }
}
