import RainCore

extension WireDecodingError {
    /// The problem with `time`, read back from `field` of a file raind
    /// wrote, when it is no time raind accepts (`Forecast.plausibleTimes`);
    /// nil when it is one, or absent. `field` is spelled only for a problem.
    ///
    /// Called once per field, never from a loop over an array of
    /// `(name, time)` pairs: Swift 6.3's optimizer made such a loop into
    /// other IR from one build to the next, and the package built from one
    /// commit differed (tests/systemd/test_reproducible.py).
    public static func implausible(_ field: @autoclosure () -> String, time: Double?) -> WireDecodingError? {
        guard let time, !Forecast.plausibleTimes.contains(time) else { return nil }
        return WireDecodingError(field: field(), reason: "\(time) is no time raind accepts")
    }
}
