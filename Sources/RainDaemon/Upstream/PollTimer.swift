import RainCore
import RainDaemonCore
import RainSystem

/// The one timer of a poller (forecasts, air quality, official alerts):
/// armed for the poller's next wake-up in wall-clock seconds, with slack so
/// wake-ups coalesce; reading the time through it follows a jump of the
/// wall clock (`WallClockWatch`), which it hands to the poller first so the
/// times it holds keep the distances that really passed; and it holds the
/// poller's seeded jitter. All on the loop.
final class PollTimer {
    private let clock: any DaemonClock
    private var watch: WallClockWatch
    private var timer: EventSource?
    /// The poller's jitter; seeded by its owner (tests seed their own).
    var jitter: SeededJitter
    /// Called with the jump in seconds (negative: set back) when the wall
    /// clock was set, before `now` returns.
    var clockJumped: (Double) -> Void = { _ in }
    /// What the poller does when the timer fires (set once its owner exists).
    var fired: () -> Void = {}
    /// When the timer is armed for (wall clock); nil when disarmed.
    private(set) var armedFor: Double?

    init(loop: EventLoop, clock: any DaemonClock, seed: UInt64) throws(SystemError) {
        self.clock = clock
        self.watch = WallClockWatch(wall: clock.wallNow, monotonic: clock.monotonicNow)
        self.jitter = SeededJitter(seed: seed)
        self.timer = try loop.timer(accuracy: 1) { [weak self] in self?.fired() }
    }

    /// The wall-clock time, after following any jump since the last reading.
    var now: Double {
        if let jump = watch.observe(wall: clock.wallNow, monotonic: clock.monotonicNow) { clockJumped(jump) }
        return clock.wallNow
    }

    /// Fires at `wake` (wall clock; at once when it has passed), late by up
    /// to a twentieth of the wait (1 to 30 s) so wake-ups coalesce; nil disarms.
    func arm(at wake: Double?, now time: Double) {
        armedFor = wake
        guard let wake else {
            timer?.disarm()
            return
        }
        let delay = max(0, wake - time)
        timer?.setAccuracy(Self.accuracy(delay: delay))
        timer?.arm(after: delay)
    }

    /// How late a timer due in `delay` seconds may fire.
    static func accuracy(delay: Double) -> Double { min(30, max(1, delay / 20)) }

    func disarm() {
        armedFor = nil
        timer?.disarm()
    }
}
