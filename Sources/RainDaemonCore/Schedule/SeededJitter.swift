import RainCore

/// The jitter every poller adds to its intervals, so machines that started
/// together (or saw the same outage) do not ask in the same second: from a
/// seeded generator, so a test that seeds it knows every delay.
public struct SeededJitter: Sendable {
    private var random: SplitMix64

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// Uniform in 0..<1.
    public mutating func unit() -> Double { random.nextUnit() }

    /// Up to `fraction` of `interval`, in seconds: what a poll every
    /// `interval` seconds is moved later by.
    public mutating func delay(interval: Double, fraction: Double) -> Double {
        guard interval.isFinite, fraction.isFinite, interval > 0, fraction > 0 else { return 0 }
        return interval * fraction * unit()
    }
}
