/// Where the daemon's logic reads the time: the loop's clocks when raind
/// runs, a test's own clock in fast in-process tests (so a rule measured in
/// minutes is crossed by setting the clock, not by waiting). Timers still
/// fire on the loop's real clock; what they decide uses this one.
public protocol DaemonClock: AnyObject {
    /// Unix seconds, for times people see and files keep.
    var wallNow: Double { get }
    /// Seconds that never jump (CLOCK_BOOTTIME), for intervals.
    var monotonicNow: Double { get }
}

extension EventLoop: DaemonClock {}
