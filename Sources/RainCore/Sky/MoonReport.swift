/// The moon at a place on one local day: its phase, how much of it is lit
/// now, and when it rises and sets. Pure: the place, the day's bounds and
/// the time are given, so the same inputs give the same answer anywhere.
public struct MoonReport: Equatable, Sendable {
    public var phase: MoonPhaseName
    /// The illuminated fraction of the disk at `now`, 0...1 (Meeus ch. 48).
    public var illumination: Double
    /// How far `now` is from the last principal phase to the next, 0..<1
    /// (for icons that draw the moon in finer steps than the eight names).
    public var progress: Double
    /// The risings and settings within the day, in order.
    public var events: [HorizonCrossing.Event]
    /// Whether the moon is up when the day begins; with no event, up (or
    /// down) the whole day.
    public var upAtStart: Bool

    /// The moon seen from (latitude, longitude; degrees, east positive) on
    /// the local day from `dayStart` up to `dayEnd` (Unix seconds: its two
    /// midnights by the place's zone), and lit as at `now`, a moment of that day.
    public init(latitude: Double, longitude: Double, now: Double, dayStart: Double, dayEnd: Double) {
        let (previous, next) = LunarPhase.surrounding(now)
        // The day's own principal phase, if any, is one of the two around `now`.
        if let principal = [previous, next].first(where: { $0.instant >= dayStart && $0.instant < dayEnd }) {
            phase = MoonPhaseName(principal.phase)
        } else {
            phase = MoonPhaseName(after: previous.phase)
        }
        let span = next.instant - previous.instant
        progress = span > 0 ? min(max((now - previous.instant) / span, 0), 0.999_999) : 0
        illumination = Self.illuminatedFraction(at: AstronomicalTime(unixSeconds: now))
        events = HorizonCrossing.events(
            of: Self.body, latitude: latitude, longitude: longitude, from: dayStart, to: dayEnd)
        upAtStart = HorizonCrossing.isUp(Self.body, latitude: latitude, longitude: longitude, at: dayStart)
    }

    /// The moon for `HorizonCrossing`: its place of date and its h₀ at each instant.
    public static let body: HorizonCrossing.Body = { time in
        let moon = MoonPosition(at: time)
        return (moon.equatorial, moon.standardAltitude)
    }

    /// k = (1 + cos i) / 2, with the phase angle i from the elongation ψ
    /// of the moon from the sun (Meeus 48.2, 48.3, 48.1).
    public static func illuminatedFraction(at time: AstronomicalTime) -> Double {
        let jde = time.julianEphemerisDay
        let moon = MoonPosition(julianEphemerisDay: jde)
        let sun = SunPosition(julianEphemerisDay: jde)
        let elongation = SkyMath.arccosine(
            SkyMath.cosine(moon.latitude) * SkyMath.cosine(moon.longitude - sun.longitude))
        let sunDistance = sun.distance * SunPosition.kilometresPerAstronomicalUnit
        let phaseAngle = SkyMath.arctangent(
            sunDistance * SkyMath.sine(elongation), moon.distance - sunDistance * SkyMath.cosine(elongation))
        return (1 + SkyMath.cosine(phaseAngle)) / 2
    }
}
