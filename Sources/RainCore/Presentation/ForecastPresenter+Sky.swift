/// The rows `now` gives the sky: the length of the day and the moon,
/// computed for the place's coordinates in its own days (`LocalSky`).
extension ForecastPresenter {
    /// The sky at the place today; nil without its coordinates.
    var sky: LocalSky? {
        guard let coordinates else { return nil }
        let offset = forecast.utcOffsetSeconds
        return LocalSky(coordinates: coordinates, now: now, today: local(now).daysSinceEpoch) { [zone] day in
            zone?.startOfDay(day) ?? Double(day * 86_400 - offset)
        }
    }

    /// The rows under `Sun`:
    ///
    ///     Day length      9 h 12 min, 2 min shorter
    ///     Moon            Waxing gibbous, 78% illuminated
    ///                     rises 14:02, sets 03:41
    ///
    /// The day's length agrees with the `Sun` row where the provider gave
    /// today's sunrise and sunset, and is computed where it did not
    /// (`LocalSky.shownDaylight`).
    func skyRows() -> [[String]] {
        guard let sky else { return [] }
        let day = sky.shownDaylight(given: forecast.today(at: now, zone: zone))
        return [
            [tr("Day length"), SkyWording.dayLength(seconds: day.seconds, polar: day.polar, change: day.change)],
            [tr("Moon"), SkyWording.phase(sky.moon)],
            // Rounded to the nearest minute, as almanacs print rising and setting.
            ["", SkyWording.moonTimes(sky.moon) { local(($0 / 60).rounded() * 60).hourMinute }],
        ]
    }
}
