/// The moon's four principal phases and their instants, by Meeus ch. 49
/// (a few seconds from the truth between 1900 and 2100).
public enum LunarPhase: Int, CaseIterable, Equatable, Sendable {
    case new = 0, firstQuarter, full, lastQuarter

    /// A phase and its instant (Unix seconds).
    public typealias Occurrence = (phase: LunarPhase, instant: Double)

    /// The mean synodic month, in days.
    static let synodicMonth = 29.530_588_861

    /// The instant of the phase of lunation `lunation` (Meeus's whole k:
    /// 0 is the new moon of 6 January 2000), in Unix seconds (UT).
    public func instant(lunation: Int) -> Double {
        let jde = Self.julianEphemerisDay(k: Double(lunation) + Double(rawValue) / 4, phase: self)
        return AstronomicalTime(julianDay: jde - AstronomicalTime.deltaT(julianDay: jde) / 86_400).unixSeconds
    }

    /// The lunation (k) whose new moon is the last before `unixSeconds`, or one off at the edges.
    static func lunation(near unixSeconds: Double) -> Int {
        let jd = AstronomicalTime(unixSeconds: unixSeconds).julianDay
        let k = ((jd - 2_451_550.097_66) / synodicMonth).rounded(.down)
        // Meeus's series hold for some millennia around 2000; beyond, and for
        // a time that is not a number, the nearest end, never a trap.
        return k.isFinite ? Int(min(max(k, -100_000), 100_000)) : 0
    }

    /// The principal phases from `start` up to `end` (Unix seconds), in order.
    public static func phases(from start: Double, to end: Double) -> [Occurrence] {
        var found: [Occurrence] = []
        let first = lunation(near: start) - 1
        let last = lunation(near: end) + 1
        guard first <= last, last - first < 2_000 else { return [] }
        for lunation in first...last {
            for phase in allCases {
                let instant = phase.instant(lunation: lunation)
                if instant >= start && instant < end { found.append((phase, instant)) }
            }
        }
        return found.sorted { $0.instant < $1.instant }
    }

    /// The last principal phase at or before `unixSeconds` and the next one after it.
    public static func surrounding(_ unixSeconds: Double) -> (previous: Occurrence, next: Occurrence) {
        let month = synodicMonth * 86_400
        let near = phases(from: unixSeconds - month / 2, to: unixSeconds + month / 2)
        let previous = near.last { $0.instant <= unixSeconds } ?? (.new, unixSeconds)
        let next = near.first { $0.instant > unixSeconds } ?? (.new, unixSeconds)
        return (previous, next)
    }

    /// Meeus 49.1 with the corrections of ch. 49 for `k` (a whole number
    /// for a new moon, .25 first quarter, .5 full, .75 last quarter).
    static func julianEphemerisDay(k: Double, phase: LunarPhase) -> Double {
        let t = k / 1_236.85
        let mean = SkyMath.polynomial(
            t, 2_451_550.097_66 + synodicMonth * k, 0, 0.000_154_37, -0.000_000_150, 0.000_000_000_73)
        let e = SkyMath.polynomial(t, 1, -0.002_516, -0.000_007_4)
        let m = SkyMath.polynomial(t, 2.5534 + 29.105_356_70 * k, 0, -0.000_001_4, -0.000_000_11)
        let mp = SkyMath.polynomial(
            t, 201.5643 + 385.816_935_28 * k, 0, 0.010_758_2, 0.000_012_38, -0.000_000_058)
        let f = SkyMath.polynomial(
            t, 160.7108 + 390.670_502_84 * k, 0, -0.001_611_8, -0.000_002_27, 0.000_000_011)
        let node = SkyMath.polynomial(t, 124.7746 - 1.563_755_88 * k, 0, 0.002_067_2, 0.000_002_15)
        func s(_ degrees: Double) -> Double { SkyMath.sine(degrees) }

        var correction: Double
        switch phase {
        case .new, .full:
            // The two columns of Meeus's first table differ only in the first terms.
            let isNew = phase == .new
            correction =
                (isNew ? -0.407_20 : -0.406_14) * s(mp) + (isNew ? 0.172_41 : 0.173_02) * e * s(m)
                + (isNew ? 0.016_08 : 0.016_14) * s(2 * mp) + (isNew ? 0.010_39 : 0.010_43) * s(2 * f)
                + (isNew ? 0.007_39 : 0.007_34) * e * s(mp - m) - (isNew ? 0.005_14 : 0.005_15) * e * s(mp + m)
                + (isNew ? 0.002_08 : 0.002_09) * e * e * s(2 * m) - 0.001_11 * s(mp - 2 * f)
                - 0.000_57 * s(mp + 2 * f) + 0.000_56 * e * s(2 * mp + m) - 0.000_42 * s(3 * mp)
                + 0.000_42 * e * s(m + 2 * f) + 0.000_38 * e * s(m - 2 * f) - 0.000_24 * e * s(2 * mp - m)
                - 0.000_17 * s(node) - 0.000_07 * s(mp + 2 * m) + 0.000_04 * s(2 * mp - 2 * f)
                + 0.000_04 * s(3 * m) + 0.000_03 * s(mp + m - 2 * f) + 0.000_03 * s(2 * mp + 2 * f)
                - 0.000_03 * s(mp + m + 2 * f) + 0.000_03 * s(mp - m + 2 * f) - 0.000_02 * s(mp - m - 2 * f)
                - 0.000_02 * s(3 * mp + m) + 0.000_02 * s(4 * mp)
        case .firstQuarter, .lastQuarter:
            correction =
                -0.628_01 * s(mp) + 0.171_72 * e * s(m) - 0.011_83 * e * s(mp + m) + 0.008_62 * s(2 * mp)
                + 0.008_04 * s(2 * f) + 0.004_54 * e * s(mp - m) + 0.002_04 * e * e * s(2 * m)
                - 0.001_80 * s(mp - 2 * f) - 0.000_70 * s(mp + 2 * f) - 0.000_40 * s(3 * mp)
                - 0.000_34 * e * s(2 * mp - m) + 0.000_32 * e * s(m + 2 * f) + 0.000_32 * e * s(m - 2 * f)
                - 0.000_28 * e * e * s(mp + 2 * m) + 0.000_27 * e * s(2 * mp + m) - 0.000_17 * s(node)
                - 0.000_05 * s(mp - m - 2 * f) + 0.000_04 * s(2 * mp + 2 * f) - 0.000_04 * s(mp + m + 2 * f)
                + 0.000_04 * s(mp - 2 * m) + 0.000_03 * s(mp + m - 2 * f) + 0.000_03 * s(3 * m)
                + 0.000_02 * s(2 * mp - 2 * f) + 0.000_02 * s(mp - m + 2 * f) - 0.000_02 * s(3 * mp + m)
            let w =
                0.003_06 - 0.000_38 * e * SkyMath.cosine(m) + 0.000_26 * SkyMath.cosine(mp)
                - 0.000_02 * SkyMath.cosine(mp - m) + 0.000_02 * SkyMath.cosine(mp + m)
                + 0.000_02 * SkyMath.cosine(2 * f)
            correction += phase == .firstQuarter ? w : -w
        }
        // The planetary arguments, for every phase.
        let planetary: [(Double, Double)] = [
            (325, 299.77 + 0.107_408 * k - 0.009_173 * t * t), (165, 251.88 + 0.016_321 * k),
            (164, 251.83 + 26.651_886 * k), (126, 349.42 + 36.412_478 * k), (110, 84.66 + 18.206_239 * k),
            (62, 141.74 + 53.303_771 * k), (60, 207.14 + 2.453_732 * k), (56, 154.84 + 7.306_860 * k),
            (47, 34.52 + 27.261_239 * k), (42, 207.19 + 0.121_824 * k), (40, 291.34 + 1.844_379 * k),
            (37, 161.72 + 24.198_154 * k), (35, 239.56 + 25.513_099 * k), (23, 331.55 + 3.592_518 * k),
        ]
        for (coefficient, argument) in planetary { correction += coefficient / 1_000_000 * s(argument) }
        return mean + correction
    }
}
