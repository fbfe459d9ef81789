/// An instant as the astronomical formulas take it: the Julian Day in
/// Universal Time (Meeus ch. 7), Terrestrial (Dynamical) Time for the
/// positions (ch. 10), and the sidereal time at Greenwich (ch. 12).
///
/// Unix time is taken for UT: the two differ by less than a second (UTC
/// is kept within 0.9 s of UT1), far below the minute raind shows.
public struct AstronomicalTime: Equatable, Sendable {
    /// The Julian Day (UT) of the Unix epoch, 1970-01-01 00:00 UTC.
    static let unixEpochJulianDay = 2_440_587.5
    /// J2000.0, the epoch of Meeus's series, as a Julian Ephemeris Day.
    static let j2000 = 2_451_545.0

    /// Julian Day in Universal Time.
    public var julianDay: Double

    public init(julianDay: Double) { self.julianDay = julianDay }

    public init(unixSeconds: Double) { julianDay = unixSeconds / 86_400 + Self.unixEpochJulianDay }

    public var unixSeconds: Double { (julianDay - Self.unixEpochJulianDay) * 86_400 }

    /// The Julian Ephemeris Day (TT = UT + ΔT), which the positions are computed in.
    public var julianEphemerisDay: Double { julianDay + Self.deltaT(julianDay: julianDay) / 86_400 }

    /// Julian centuries of TT since J2000.0 (Meeus 22.1).
    var centuries: Double { (julianEphemerisDay - Self.j2000) / 36_525 }

    /// ΔT = TT − UT in seconds, by the polynomials of Espenak and Meeus
    /// (NASA's *Five Millennium Canon of Solar Eclipses*, 2006) for
    /// 1986–2150, and Morrison and Stephenson's parabola outside. An error
    /// of a few seconds moves the moon by under 0.002°: nothing at the
    /// minute shown.
    static func deltaT(julianDay: Double) -> Double {
        let year = 2000 + (julianDay - j2000) / 365.25
        let t = year - 2000
        switch year {
        case 1986..<2005:
            return SkyMath.polynomial(t, 63.86, 0.3345, -0.060374, 0.0017275, 0.000651814, 0.00002373599)
        case 2005..<2050:
            return SkyMath.polynomial(t, 62.92, 0.32217, 0.005589)
        case 2050..<2150:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u - 0.5628 * (2150 - year)
        default:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u
        }
    }

    /// Mean sidereal time at Greenwich, in degrees (Meeus 12.4).
    public var meanSiderealTime: Double {
        let t = (julianDay - Self.j2000) / 36_525
        return SkyMath.reduced(
            280.460_618_37 + 360.985_647_366_29 * (julianDay - Self.j2000) + 0.000_387_933 * t * t
                - t * t * t / 38_710_000)
    }

    /// Apparent sidereal time at Greenwich, in degrees: the mean corrected
    /// by the nutation in longitude (Meeus ch. 12, "apparent sidereal time").
    public var apparentSiderealTime: Double {
        let nutation = Nutation(centuries: centuries)
        return SkyMath.reduced(meanSiderealTime + nutation.longitude * SkyMath.cosine(nutation.trueObliquity))
    }
}

/// The nutation and the obliquity of the ecliptic, to 0.5″ (Meeus ch. 22,
/// the shorter series): enough for positions meant to the minute.
struct Nutation {
    /// Δψ, in degrees.
    var longitude: Double
    /// Δε, in degrees.
    var obliquity: Double
    /// ε₀, the mean obliquity (22.2), in degrees.
    var meanObliquity: Double

    init(centuries t: Double) {
        let moonNode = SkyMath.polynomial(t, 125.044_52, -1_934.136_261, 0.002_070_8, 1.0 / 450_000)
        let sunLongitude = 280.4665 + 36_000.7698 * t
        let moonLongitude = 218.3165 + 481_267.8813 * t
        longitude =
            (-17.20 * SkyMath.sine(moonNode) - 1.32 * SkyMath.sine(2 * sunLongitude)
                - 0.23 * SkyMath.sine(2 * moonLongitude) + 0.21 * SkyMath.sine(2 * moonNode)) / 3600
        obliquity =
            (9.20 * SkyMath.cosine(moonNode) + 0.57 * SkyMath.cosine(2 * sunLongitude)
                + 0.10 * SkyMath.cosine(2 * moonLongitude) - 0.09 * SkyMath.cosine(2 * moonNode)) / 3600
        meanObliquity = 23.439_291_111 + SkyMath.polynomial(t, 0, -46.8150, -0.000_59, 0.001_813) / 3600
    }

    /// ε = ε₀ + Δε.
    var trueObliquity: Double { meanObliquity + obliquity }
}

/// A body's place in the sky of date, seen from the Earth's centre.
public struct EquatorialPosition: Equatable, Sendable {
    /// α, degrees 0..<360.
    public var rightAscension: Double
    /// δ, degrees.
    public var declination: Double

    public init(rightAscension: Double, declination: Double) {
        self.rightAscension = rightAscension
        self.declination = declination
    }

    /// From ecliptic longitude and latitude with the obliquity ε, all in degrees (Meeus 13.3, 13.4).
    init(longitude λ: Double, latitude β: Double, obliquity ε: Double) {
        rightAscension = SkyMath.reduced(
            SkyMath.arctangent(
                SkyMath.sine(λ) * SkyMath.cosine(ε) - SkyMath.tangent(β) * SkyMath.sine(ε), SkyMath.cosine(λ)))
        declination = SkyMath.arcsine(
            SkyMath.sine(β) * SkyMath.cosine(ε) + SkyMath.cosine(β) * SkyMath.sine(ε) * SkyMath.sine(λ))
    }
}
