import RainCore

/// Notices when the wall clock (CLOCK_REALTIME) is set, by comparing it with
/// a clock that only counts time passing (CLOCK_BOOTTIME). The difference of
/// the two stays constant while time passes, suspend included; a change of
/// more than `threshold` is a jump (a person or NTP set the clock), smaller
/// changes are NTP slewing and are followed silently.
///
/// Pure: the caller reads both clocks and passes them in.
public struct WallClockWatch: Sendable {
    /// Jumps smaller than this are not reported.
    public static let threshold: Double = 2

    private var offset: Double

    public init(wall: Double, monotonic: Double) {
        offset = wall - monotonic
    }

    /// The jump since the last reading, in seconds (negative: set back), or nil
    /// when the clock ran as it should.
    public mutating func observe(wall: Double, monotonic: Double) -> Double? {
        let current = wall - monotonic
        let delta = current - offset
        offset = current
        guard delta.isFinite, abs(delta) > Self.threshold else { return nil }
        return delta
    }
}
