/// The sun's apparent place, to 0.01° (Meeus ch. 25, "low accuracy"):
/// for sunrise, sunset and the moon's phase angle, where a hundredth of a
/// degree is under two seconds of time.
public struct SunPosition: Equatable, Sendable {
    /// Apparent ecliptic longitude λ, in degrees.
    public var longitude: Double
    /// The distance from the Earth, in astronomical units.
    public var distance: Double
    public var equatorial: EquatorialPosition

    public static let kilometresPerAstronomicalUnit = 149_597_870.7

    public init(julianEphemerisDay: Double) {
        let t = (julianEphemerisDay - AstronomicalTime.j2000) / 36_525
        let meanLongitude = SkyMath.polynomial(t, 280.466_46, 36_000.769_83, 0.000_303_2)
        let anomaly = SkyMath.polynomial(t, 357.529_11, 35_999.050_29, -0.000_153_7)
        let eccentricity = SkyMath.polynomial(t, 0.016_708_634, -0.000_042_037, -0.000_000_126_7)
        let centre =
            SkyMath.polynomial(t, 1.914_602, -0.004_817, -0.000_014) * SkyMath.sine(anomaly)
            + (0.019_993 - 0.000_101 * t) * SkyMath.sine(2 * anomaly) + 0.000_289 * SkyMath.sine(3 * anomaly)
        let trueLongitude = meanLongitude + centre
        let trueAnomaly = anomaly + centre
        distance =
            1.000_001_018 * (1 - eccentricity * eccentricity) / (1 + eccentricity * SkyMath.cosine(trueAnomaly))
        let node = 125.04 - 1_934.136 * t
        longitude = SkyMath.reduced(trueLongitude - 0.005_69 - 0.004_78 * SkyMath.sine(node))
        let obliquity = Nutation(centuries: t).meanObliquity + 0.002_56 * SkyMath.cosine(node)
        equatorial = EquatorialPosition(longitude: longitude, latitude: 0, obliquity: obliquity)
    }

    public init(at time: AstronomicalTime) { self.init(julianEphemerisDay: time.julianEphemerisDay) }

    /// h₀ for sunrise and sunset, −0°50′: the sun's upper limb on the
    /// horizon, with the mean refraction (Meeus ch. 15).
    public static let standardAltitude = -50.0 / 60
}
