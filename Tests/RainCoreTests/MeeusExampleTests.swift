import XCTest

@testable import RainCore

/// The astronomy of `Sources/RainCore/Sky` against the worked examples of
/// Jean Meeus, *Astronomical Algorithms*, 2nd edition (Willmann-Bell,
/// 1998): each test names its example, and the figures asserted are the
/// book's, to the digits it prints (within what the shorter series raind
/// uses for nutation can give, as each tolerance says).
final class MeeusExampleTests: XCTestCase {
    /// Example 7.a: 1957 October 4.81 (Sputnik 1) is JD 2436116.31.
    func testJulianDay_example7a() {
        let unix = CivilDateTime(year: 1957, month: 10, day: 4).unixSeconds(utcOffsetSeconds: 0) + 0.81 * 86_400
        XCTAssertEqual(AstronomicalTime(unixSeconds: unix).julianDay, 2_436_116.31, accuracy: 1e-6)
    }

    /// Example 12.a: 1987 April 10, 0h UT: mean sidereal time 13h10m46.3668s,
    /// apparent 13h10m46.1351s. Example 12.b: at 19h21m00s UT, 8h34m57.0896s.
    func testSiderealTime_examples12aAnd12b() {
        let midnight = AstronomicalTime(julianDay: 2_446_895.5)
        XCTAssertEqual(midnight.meanSiderealTime, Self.degrees(hours: 13, 10, 46.3668), accuracy: 1e-6)
        // The shorter nutation series is good to about 0.5″: 0.03 s of time.
        XCTAssertEqual(midnight.apparentSiderealTime, Self.degrees(hours: 13, 10, 46.1351), accuracy: 0.000_15)
        let evening = AstronomicalTime(julianDay: 2_446_895.5 + (19 + 21.0 / 60) / 24)
        XCTAssertEqual(evening.meanSiderealTime, Self.degrees(hours: 8, 34, 57.0896), accuracy: 1e-6)
    }

    /// Example 25.a: the sun on 1992 October 13.0 TD (JDE 2448908.5):
    /// apparent longitude 199.90895°, R = 0.99766 AU, α = 198.38083°,
    /// δ = −7.78507°.
    func testSunPosition_example25a() {
        let sun = SunPosition(julianEphemerisDay: 2_448_908.5)
        XCTAssertEqual(sun.longitude, 199.908_95, accuracy: 0.000_01)
        XCTAssertEqual(sun.distance, 0.997_66, accuracy: 0.000_01)
        XCTAssertEqual(sun.equatorial.rightAscension, 198.380_83, accuracy: 0.000_01)
        XCTAssertEqual(sun.equatorial.declination, -7.785_07, accuracy: 0.000_01)
    }

    /// Example 47.a: the moon on 1992 April 12, 0h TD (JDE 2448724.5):
    /// λ = 133.167265° (apparent), β = −3.229126°, Δ = 368409.7 km,
    /// π = 0.991990°, α = 134.688470°, δ = +13.768368°.
    func testMoonPosition_example47a() {
        let moon = MoonPosition(julianEphemerisDay: 2_448_724.5)
        // Meeus adds the full nutation (Δψ = +16.595″); the shorter series is within 0.5″.
        XCTAssertEqual(moon.longitude, 133.167_265, accuracy: 0.000_15)
        XCTAssertEqual(moon.latitude, -3.229_126, accuracy: 0.000_001)
        XCTAssertEqual(moon.distance, 368_409.7, accuracy: 0.1)
        XCTAssertEqual(moon.parallax, 0.991_990, accuracy: 0.000_001)
        XCTAssertEqual(moon.equatorial.rightAscension, 134.688_470, accuracy: 0.000_2)
        XCTAssertEqual(moon.equatorial.declination, 13.768_368, accuracy: 0.000_2)
    }

    /// Example 48.a: on 1992 April 12, 0h TD the moon is 0.6786 illuminated.
    func testIlluminatedFraction_example48a() {
        let time = AstronomicalTime(julianDay: 2_448_724.5 - AstronomicalTime.deltaT(julianDay: 2_448_724.5) / 86_400)
        XCTAssertEqual(MoonReport.illuminatedFraction(at: time), 0.6786, accuracy: 0.000_1)
    }

    /// Example 49.a: the new moon of 1977 February (k = −283) is at JDE
    /// 2443192.65118 (1977 February 18, 3h37m42s TD). Example 49.b: the first
    /// last quarter of 2044 (k = 544.75) is at JDE 2467636.49186.
    func testPhaseInstants_examples49aAnd49b() {
        XCTAssertEqual(LunarPhase.julianEphemerisDay(k: -283, phase: .new), 2_443_192.651_18, accuracy: 0.000_01)
        XCTAssertEqual(
            LunarPhase.julianEphemerisDay(k: 544.75, phase: .lastQuarter), 2_467_636.491_86, accuracy: 0.000_01)
        // The same instants through the public UT interface, and found by searching.
        let newMoon = LunarPhase.new.instant(lunation: -283)
        let tdMoment = CivilDateTime(year: 1977, month: 2, day: 18, hour: 3, minute: 37, second: 42)
        let deltaT = AstronomicalTime.deltaT(julianDay: 2_443_192.651_18)
        XCTAssertEqual(newMoon, tdMoment.unixSeconds(utcOffsetSeconds: 0) - deltaT, accuracy: 1)
        let found = LunarPhase.phases(from: newMoon - 86_400, to: newMoon + 86_400)
        XCTAssertEqual(found.map(\.phase), [.new])
    }

    /// Example 15.a: Venus at Boston (42°20′ N, 71°05′ W) on 1988 March 20,
    /// with α and δ at 0h TD on the 19th, 20th and 21st, h₀ = −0°34′ and
    /// ΔT = 56 s: rising at 12h25m UT, setting at 2h55m UT (m₁ = 0.51766,
    /// m₂ = 0.12130). Rising and setting are found here by the same search
    /// as the moon's, over the book's interpolated positions (Meeus 3.3).
    func testRisingAndSetting_example15a() {
        let midnight = 2_447_240.5
        let rightAscensions = (40.680_21, 41.731_29, 42.782_04)
        let declinations = (18.047_61, 18.440_92, 18.827_42)
        @Sendable func interpolate(_ values: (Double, Double, Double), _ n: Double) -> Double {
            let a = values.1 - values.0
            let b = values.2 - values.1
            return values.1 + n / 2 * (a + b + n * (b - a))
        }
        let venus: HorizonCrossing.Body = { time in
            let n = time.julianDay - midnight + 56.0 / 86_400
            return (
                EquatorialPosition(
                    rightAscension: interpolate(rightAscensions, n), declination: interpolate(declinations, n)),
                -34.0 / 60
            )
        }
        let start = AstronomicalTime(julianDay: midnight).unixSeconds
        let events = HorizonCrossing.events(
            of: venus, latitude: 42 + 20.0 / 60, longitude: -(71 + 5.0 / 60), from: start, to: start + 86_400)
        guard events.count == 2, case .set(let setting) = events[0], case .rise(let rising) = events[1] else {
            return XCTFail("expected a setting, then a rising; got \(events)")
        }
        XCTAssertEqual(setting - start, 0.121_30 * 86_400, accuracy: 30)
        XCTAssertEqual(rising - start, 0.517_66 * 86_400, accuracy: 30)
        XCTAssertEqual(Self.minute(setting), "02:55")
        XCTAssertEqual(Self.minute(rising), "12:25")
    }

    static func degrees(hours: Double, _ minutes: Double, _ seconds: Double) -> Double {
        (hours + minutes / 60 + seconds / 3600) * 15
    }

    /// A UTC time rounded to the minute, as the tables print it.
    static func minute(_ unixSeconds: Double, offset: Int = 0) -> String {
        CivilDateTime(unixSeconds: (unixSeconds / 60).rounded() * 60, utcOffsetSeconds: offset).hourMinute
    }
}
