/// Rising and setting, by Meeus ch. 15: a body is on the horizon when its
/// geocentric altitude equals its standard altitude h₀ (−0°50′ for the
/// sun, 0.7275 π − 0°34′ for the moon), with
/// `sin h = sin φ sin δ + cos φ cos δ cos H` and `H = θ₀ + L − α`.
///
/// Meeus interpolates positions computed at 0h on three days; for the
/// moon, which moves 13° a day, he advises computing the position anew
/// at each step instead, which is what this does for both bodies. And
/// where the book finds one rising per day from the transit, this looks
/// along the whole interval asked (a local day): the moon rises about 50
/// minutes later each day, so on one day a month it does not rise (or
/// set), and near the poles it stays up or down for days.
public enum HorizonCrossing {
    /// A rising (upward through h₀) or a setting, at a Unix time.
    public enum Event: Equatable, Sendable {
        case rise(Double)
        case set(Double)

        public var instant: Double {
            switch self {
            case .rise(let time), .set(let time): return time
            }
        }
    }

    /// Where a body is at an instant: its place of date and its h₀, in degrees.
    public typealias Body = @Sendable (AstronomicalTime) -> (position: EquatorialPosition, standardAltitude: Double)

    /// The altitude of `position` above the horizon at (latitude, longitude;
    /// east positive), in degrees, at `time` (Meeus 13.6).
    public static func altitude(
        of position: EquatorialPosition, latitude: Double, longitude: Double, at time: AstronomicalTime
    ) -> Double {
        let hourAngle = time.apparentSiderealTime + longitude - position.rightAscension
        return SkyMath.arcsine(
            SkyMath.sine(latitude) * SkyMath.sine(position.declination)
                + SkyMath.cosine(latitude) * SkyMath.cosine(position.declination) * SkyMath.cosine(hourAngle))
    }

    /// The risings and settings of `body` from `start` up to `end` (Unix
    /// seconds), in order, to about a second. The altitude is sampled every
    /// `step` seconds and each change of side refined; a graze shorter than
    /// `step` may be missed (the body touches the horizon for minutes).
    public static func events(
        of body: Body, latitude: Double, longitude: Double, from start: Double, to end: Double,
        step: Double = 3_600
    ) -> [Event] {
        guard start.isFinite, end.isFinite, end > start, step > 0, (end - start) / step < 10_000 else { return [] }
        func height(_ time: Double) -> Double {
            let instant = AstronomicalTime(unixSeconds: time)
            let (position, standard) = body(instant)
            return altitude(of: position, latitude: latitude, longitude: longitude, at: instant) - standard
        }
        var events: [Event] = []
        var time = start
        var above = height(start)
        while time < end {
            let next = min(time + step, end)
            let value = height(next)
            if (above < 0) != (value < 0) {
                let instant = refine(height, low: time, high: next, lowValue: above)
                if instant < end { events.append(above < 0 ? .rise(instant) : .set(instant)) }
            }
            time = next
            above = value
        }
        return events
    }

    /// Whether `body` is above its standard altitude at `time`.
    public static func isUp(_ body: Body, latitude: Double, longitude: Double, at time: Double) -> Bool {
        let instant = AstronomicalTime(unixSeconds: time)
        let (position, standard) = body(instant)
        return altitude(of: position, latitude: latitude, longitude: longitude, at: instant) >= standard
    }

    /// The crossing in [low, high], where `height` changes sign, to under
    /// a second: false position with the Illinois rule (the altitude is
    /// nearly straight over an hour, as Meeus's correction Δm assumes, and
    /// the rule keeps a curved stretch from holding one end fixed).
    private static func refine(
        _ height: (Double) -> Double, low: Double, high: Double, lowValue: Double
    ) -> Double {
        var (a, fa) = (low, lowValue)
        var (b, fb) = (high, height(high))
        var kept = 0
        for _ in 0..<60 where b - a > 0.5 {
            var guess = (a * fb - b * fa) / (fb - fa)
            if !(guess > a && guess < b) { guess = (a + b) / 2 }
            let value = height(guess)
            if (value < 0) == (fa < 0) {
                (a, fa) = (guess, value)
                if kept == -1 { fb /= 2 }
                kept = -1
            } else {
                (b, fb) = (guess, value)
                if kept == 1 { fa /= 2 }
                kept = 1
            }
        }
        return (a + b) / 2
    }
}
