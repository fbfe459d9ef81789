/// The moon's apparent place of date, seen from the Earth's centre, by
/// Meeus ch. 47 (the main terms of Chapront's ELP-2000/82: about 10″ in
/// longitude, 4″ in latitude). The moon moves its own diameter in an hour,
/// so 10″ is under 20 seconds of time at rising.
public struct MoonPosition: Equatable, Sendable {
    /// Apparent ecliptic longitude λ (nutation included), in degrees.
    public var longitude: Double
    /// Ecliptic latitude β, in degrees.
    public var latitude: Double
    /// Δ, the distance between the centres of the Earth and the moon, in kilometres.
    public var distance: Double
    public var equatorial: EquatorialPosition

    public init(julianEphemerisDay: Double) {
        let t = (julianEphemerisDay - AstronomicalTime.j2000) / 36_525
        // The fundamental arguments (47.1–47.5), degrees.
        let meanLongitude = SkyMath.reduced(
            SkyMath.polynomial(t, 218.316_447_7, 481_267.881_234_21, -0.001_578_6, 1.0 / 538_841, -1.0 / 65_194_000))
        let elongation = SkyMath.reduced(
            SkyMath.polynomial(t, 297.850_192_1, 445_267.111_403_4, -0.001_881_9, 1.0 / 545_868, -1.0 / 113_065_000))
        let sunAnomaly = SkyMath.reduced(
            SkyMath.polynomial(t, 357.529_109_2, 35_999.050_290_9, -0.000_153_6, 1.0 / 24_490_000))
        let moonAnomaly = SkyMath.reduced(
            SkyMath.polynomial(t, 134.963_396_4, 477_198.867_505_5, 0.008_741_4, 1.0 / 69_699, -1.0 / 14_712_000))
        let nodeDistance = SkyMath.reduced(
            SkyMath.polynomial(t, 93.272_095_0, 483_202.017_523_3, -0.003_653_9, -1.0 / 3_526_000, 1.0 / 863_310_000))
        let a1 = 119.75 + 131.849 * t
        let a2 = 53.09 + 479_264.290 * t
        let a3 = 313.45 + 481_266.484 * t
        // The decreasing eccentricity of the Earth's orbit (47.6) scales the terms with M.
        let e = SkyMath.polynomial(t, 1, -0.002_516, -0.000_007_4)

        func factor(_ m: Int8) -> Double { m == 0 ? 1 : (abs(m) == 1 ? e : e * e) }
        func argument(_ term: MoonTerms.Term) -> Double {
            Double(term.d) * elongation + Double(term.m) * sunAnomaly + Double(term.mPrime) * moonAnomaly
                + Double(term.f) * nodeDistance
        }
        var sumL = 0.0
        var sumR = 0.0
        for term in MoonTerms.longitudeAndDistance {
            let angle = argument(term)
            let scale = factor(term.m)
            sumL += Double(term.coefficient) * scale * SkyMath.sine(angle)
            sumR += Double(term.distanceCoefficient) * scale * SkyMath.cosine(angle)
        }
        var sumB = 0.0
        for term in MoonTerms.latitude {
            sumB += Double(term.coefficient) * factor(term.m) * SkyMath.sine(argument(term))
        }
        // The actions of Venus and Jupiter and the flattening of the Earth.
        sumL +=
            3958 * SkyMath.sine(a1) + 1962 * SkyMath.sine(meanLongitude - nodeDistance) + 318 * SkyMath.sine(a2)
        sumB +=
            -2235 * SkyMath.sine(meanLongitude) + 382 * SkyMath.sine(a3) + 175 * SkyMath.sine(a1 - nodeDistance)
            + 175 * SkyMath.sine(a1 + nodeDistance) + 127 * SkyMath.sine(meanLongitude - moonAnomaly)
            - 115 * SkyMath.sine(meanLongitude + moonAnomaly)

        let nutation = Nutation(centuries: t)
        longitude = SkyMath.reduced(meanLongitude + sumL / 1_000_000 + nutation.longitude)
        latitude = sumB / 1_000_000
        distance = 385_000.56 + sumR / 1000
        equatorial = EquatorialPosition(longitude: longitude, latitude: latitude, obliquity: nutation.trueObliquity)
    }

    public init(at time: AstronomicalTime) { self.init(julianEphemerisDay: time.julianEphemerisDay) }

    /// π, the equatorial horizontal parallax, in degrees (Meeus ch. 47: sin π = 6378.14 / Δ).
    public var parallax: Double { SkyMath.arcsine(6_378.14 / distance) }

    /// h₀ for moonrise and moonset, 0.7275 π − 0°34′: the upper limb on the
    /// horizon, with the parallax, the semi-diameter and the mean refraction
    /// (Meeus ch. 15).
    public var standardAltitude: Double { 0.7275 * parallax - 34.0 / 60 }
}

/// Meeus's tables 47.A and 47.B: the multiples of D, M, M′ and F in each
/// periodic term and its coefficient (longitude and latitude in 10⁻⁶
/// degrees, distance in metres).
enum MoonTerms {
    struct Term {
        var d: Int8
        var m: Int8
        var mPrime: Int8
        var f: Int8
        var coefficient: Int32
        var distanceCoefficient: Int32 = 0
    }

    private static func term(_ d: Int8, _ m: Int8, _ mPrime: Int8, _ f: Int8, _ l: Int32, _ r: Int32 = 0) -> Term {
        Term(d: d, m: m, mPrime: mPrime, f: f, coefficient: l, distanceCoefficient: r)
    }

    /// Table 47.A: Σl and Σr.
    static let longitudeAndDistance: [Term] = [
        term(0, 0, 1, 0, 6_288_774, -20_905_355), term(2, 0, -1, 0, 1_274_027, -3_699_111),
        term(2, 0, 0, 0, 658_314, -2_955_968), term(0, 0, 2, 0, 213_618, -569_925),
        term(0, 1, 0, 0, -185_116, 48_888), term(0, 0, 0, 2, -114_332, -3_149),
        term(2, 0, -2, 0, 58_793, 246_158), term(2, -1, -1, 0, 57_066, -152_138),
        term(2, 0, 1, 0, 53_322, -170_733), term(2, -1, 0, 0, 45_758, -204_586),
        term(0, 1, -1, 0, -40_923, -129_620), term(1, 0, 0, 0, -34_720, 108_743),
        term(0, 1, 1, 0, -30_383, 104_755), term(2, 0, 0, -2, 15_327, 10_321),
        term(0, 0, 1, 2, -12_528, 0), term(0, 0, 1, -2, 10_980, 79_661),
        term(4, 0, -1, 0, 10_675, -34_782), term(0, 0, 3, 0, 10_034, -23_210),
        term(4, 0, -2, 0, 8_548, -21_636), term(2, 1, -1, 0, -7_888, 24_208),
        term(2, 1, 0, 0, -6_766, 30_824), term(1, 0, -1, 0, -5_163, -8_379),
        term(1, 1, 0, 0, 4_987, -16_675), term(2, -1, 1, 0, 4_036, -12_831),
        term(2, 0, 2, 0, 3_994, -10_445), term(4, 0, 0, 0, 3_861, -11_650),
        term(2, 0, -3, 0, 3_665, 14_403), term(0, 1, -2, 0, -2_689, -7_003),
        term(2, 0, -1, 2, -2_602, 0), term(2, -1, -2, 0, 2_390, 10_056),
        term(1, 0, 1, 0, -2_348, 6_322), term(2, -2, 0, 0, 2_236, -9_884),
        term(0, 1, 2, 0, -2_120, 5_751), term(0, 2, 0, 0, -2_069, 0),
        term(2, -2, -1, 0, 2_048, -4_950), term(2, 0, 1, -2, -1_773, 4_130),
        term(2, 0, 0, 2, -1_595, 0), term(4, -1, -1, 0, 1_215, -3_958),
        term(0, 0, 2, 2, -1_110, 0), term(3, 0, -1, 0, -892, 3_258),
        term(2, 1, 1, 0, -810, 2_616), term(4, -1, -2, 0, 759, -1_897),
        term(0, 2, -1, 0, -713, -2_117), term(2, 2, -1, 0, -700, 2_354),
        term(2, 1, -2, 0, 691, 0), term(2, -1, 0, -2, 596, 0),
        term(4, 0, 1, 0, 549, -1_423), term(0, 0, 4, 0, 537, -1_117),
        term(4, -1, 0, 0, 520, -1_571), term(1, 0, -2, 0, -487, -1_739),
        term(2, 1, 0, -2, -399, 0), term(0, 0, 2, -2, -381, -4_421),
        term(1, 1, 1, 0, 351, 0), term(3, 0, -2, 0, -340, 0),
        term(4, 0, -3, 0, 330, 0), term(2, -1, 2, 0, 327, 0),
        term(0, 2, 1, 0, -323, 1_165), term(1, 1, -1, 0, 299, 0),
        term(2, 0, 3, 0, 294, 0), term(2, 0, -1, -2, 0, 8_752),
    ]

    /// Table 47.B: Σb.
    static let latitude: [Term] = [
        term(0, 0, 0, 1, 5_128_122), term(0, 0, 1, 1, 280_602), term(0, 0, 1, -1, 277_693),
        term(2, 0, 0, -1, 173_237), term(2, 0, -1, 1, 55_413), term(2, 0, -1, -1, 46_271),
        term(2, 0, 0, 1, 32_573), term(0, 0, 2, 1, 17_198), term(2, 0, 1, -1, 9_266),
        term(0, 0, 2, -1, 8_822), term(2, -1, 0, -1, 8_216), term(2, 0, -2, -1, 4_324),
        term(2, 0, 1, 1, 4_200), term(2, 1, 0, -1, -3_359), term(2, -1, -1, 1, 2_463),
        term(2, -1, 0, 1, 2_211), term(2, -1, -1, -1, 2_065), term(0, 1, -1, -1, -1_870),
        term(4, 0, -1, -1, 1_828), term(0, 1, 0, 1, -1_794), term(0, 0, 0, 3, -1_749),
        term(0, 1, -1, 1, -1_565), term(1, 0, 0, 1, -1_491), term(0, 1, 1, 1, -1_475),
        term(0, 1, 1, -1, -1_410), term(0, 1, 0, -1, -1_344), term(1, 0, 0, -1, -1_335),
        term(0, 0, 3, 1, 1_107), term(4, 0, 0, -1, 1_021), term(4, 0, -1, 1, 833),
        term(0, 0, 1, -3, 777), term(4, 0, -2, 1, 671), term(2, 0, 0, -3, 607),
        term(2, 0, 2, -1, 596), term(2, -1, 1, -1, 491), term(2, 0, -2, 1, -451),
        term(0, 0, 3, -1, 439), term(2, 0, 2, 1, 422), term(2, 0, -3, -1, 421),
        term(2, 1, -1, 1, -366), term(2, 1, 0, 1, -351), term(4, 0, 0, 1, 331),
        term(2, -1, 1, 1, 315), term(2, -2, 0, -1, 302), term(0, 0, 1, 3, -283),
        term(2, 1, 1, -1, -229), term(1, 1, 0, -1, 223), term(1, 1, 0, 1, 223),
        term(0, 1, -2, -1, -220), term(2, 1, -1, -1, -220), term(1, 0, 1, 1, -185),
        term(2, -1, -2, -1, 181), term(0, 1, 2, 1, -177), term(4, 0, -2, -1, 176),
        term(4, -1, -1, -1, 166), term(1, 0, 1, -1, -164), term(4, 0, 1, -1, 132),
        term(1, 0, -1, -1, -119), term(4, -1, 0, -1, 115), term(2, -2, 0, 1, 107),
    ]
}
