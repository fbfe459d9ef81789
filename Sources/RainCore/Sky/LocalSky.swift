/// A place on the Earth for the sky's sake: latitude and longitude in
/// degrees (north and east positive), checked to be on the globe.
public struct PlaceCoordinates: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double

    /// Nil unless latitude is within −90...90 and longitude within −180...180.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What the sky does at a place today: the moon, and how long the sun is
/// up today and was yesterday. Computed, not fetched: no provider is asked
/// and nothing is sent over the wire (docs/DECISIONS.md, "The moon and the
/// day").
public struct LocalSky: Equatable, Sendable {
    public var moon: MoonReport
    public var daylight: Daylight
    public var daylightYesterday: Daylight

    /// The sky at `coordinates` at `now`; `startOfDay` gives the first
    /// instant of a local day (days since 1970-01-01 at the place), so the
    /// days are the place's own, daylight-saving changes included.
    public init(coordinates: PlaceCoordinates, now: Double, today: Int, startOfDay: (Int) -> Double) {
        let (latitude, longitude) = (coordinates.latitude, coordinates.longitude)
        let yesterday = startOfDay(today - 1)
        let start = startOfDay(today)
        let end = startOfDay(today + 1)
        moon = MoonReport(latitude: latitude, longitude: longitude, now: now, dayStart: start, dayEnd: end)
        daylight = Daylight(latitude: latitude, longitude: longitude, dayStart: start, dayEnd: end)
        daylightYesterday = Daylight(latitude: latitude, longitude: longitude, dayStart: yesterday, dayEnd: start)
    }
}

extension LocalSky {
    /// Today's daylight as the views show it: the provider's sunset less its
    /// sunrise when it gave both for today, or its polar day or night (so
    /// the length agrees with the sunrise and sunset shown beside it), else
    /// the computed time up; and the change since yesterday, always the
    /// computed one (both days to the second, so the provider's times,
    /// rounded to the minute, add no noise to a change of a minute or two).
    public func shownDaylight(given day: DailyForecast?) -> (seconds: Double, polar: Polar?, change: Double) {
        var seconds = daylight.seconds
        var polar = daylight.polar
        if let day {
            if let given = day.polar {
                polar = given
                seconds = given == .day ? 86_400 : 0
            } else if let rise = day.sunrise, let set = day.sunset, set > rise, set - rise <= 86_400 {
                seconds = set - rise
                polar = nil
            }
        }
        return (seconds, polar, daylight.seconds - daylightYesterday.seconds)
    }
}
