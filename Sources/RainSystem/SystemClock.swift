import Glibc

/// The kernel's clocks (`clock_gettime(2)`), and sleeping on them (`nanosleep(2)`).
public enum SystemClock: Sendable {
    /// CLOCK_MONOTONIC: seconds since some moment at boot, never set back;
    /// stops while the machine sleeps. For measuring how long things take.
    case monotonic
    /// CLOCK_REALTIME: Unix time, which an administrator or NTP may set.
    case realtime

    var id: clockid_t {
        switch self {
        case .monotonic: return CLOCK_MONOTONIC
        case .realtime: return CLOCK_REALTIME
        }
    }

    /// The clock's time in seconds.
    public func now() -> Double {
        let spec = read()
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The clock's time in whole microseconds (systemd's `MONOTONIC_USEC=`).
    public func microseconds() -> UInt64 {
        let spec = read()
        return UInt64(max(0, spec.tv_sec)) * 1_000_000 + UInt64(max(0, spec.tv_nsec)) / 1000
    }

    /// `clock_gettime(2)`, which fails only for an unknown clock or a bad
    /// pointer, neither possible here: the epoch stands in for the impossible.
    private func read() -> timespec {
        var spec = timespec()
        do throws(SystemError) {
            try nothingOrError("clock_gettime") { SystemCall.clockGetTime(id, &spec) }
        } catch {
            return timespec()
        }
        return spec
    }

    /// Sleeps `seconds` (`nanosleep(2)`): a signal does not cut the sleep
    /// short, it goes on for the time that remains. A negative or NaN time
    /// sleeps not at all; a day at most.
    public static func sleep(seconds: Double) throws(SystemError) {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
        let whole = clamped.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: min(Int((clamped - whole) * 1e9), 999_999_999))
        var remaining = timespec()
        try nothingOrError("nanosleep") { () -> Int32 in
            let result = SystemCall.nanosleep(&request, &remaining)
            // Interrupted: what is left is the next request.
            if result == -1 { request = remaining }
            return result
        }
    }

    /// The local time zone's offset from UTC at `unixSeconds`, in seconds
    /// (`localtime_r(3)`: `$TZ`, else `/etc/localtime`); 0 when the C library
    /// cannot tell.
    public static func localUTCOffset(at unixSeconds: Int) -> Int {
        var time = time_t(unixSeconds)
        var parts = tm()
        guard SystemCall.localtime(&time, &parts) else { return 0 }
        return parts.tm_gmtoff
    }
}
