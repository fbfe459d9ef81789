/// How long the sun is up at a place on one local day: the time between
/// midnight and midnight when its upper limb is above the horizon (with
/// the mean refraction, h₀ = −0°50′; Meeus ch. 15 and 25). On an ordinary
/// day that is sunset less sunrise; on a day when the sun sets after
/// midnight, or rises twice, it is still the time it is up.
public struct Daylight: Equatable, Sendable {
    /// Seconds of sun within the day.
    public var seconds: Double
    /// Polar day (up the whole day) or night (down the whole day); nil on
    /// a day the sun rises or sets.
    public var polar: Polar?

    /// The sun for `HorizonCrossing`: its place of date and its h₀.
    public static let body: HorizonCrossing.Body = { time in
        (SunPosition(at: time).equatorial, SunPosition.standardAltitude)
    }

    /// The daylight at (latitude, longitude; degrees, east positive) on the
    /// local day from `dayStart` up to `dayEnd` (Unix seconds).
    public init(latitude: Double, longitude: Double, dayStart: Double, dayEnd: Double) {
        let events = HorizonCrossing.events(
            of: Self.body, latitude: latitude, longitude: longitude, from: dayStart, to: dayEnd)
        var up = HorizonCrossing.isUp(Self.body, latitude: latitude, longitude: longitude, at: dayStart)
        guard !events.isEmpty else {
            seconds = up ? max(0, dayEnd - dayStart) : 0
            polar = up ? .day : .night
            return
        }
        var total = 0.0
        var from = dayStart
        for event in events {
            if up { total += event.instant - from }
            from = event.instant
            if case .rise = event { up = true } else { up = false }
        }
        if up { total += dayEnd - from }
        seconds = total
        polar = nil
    }
}
