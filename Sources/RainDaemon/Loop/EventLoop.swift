import CSystemd
import RainSystem

/// epoll event bits (from <sys/epoll.h>, which Swift's Glibc module does not export).
public struct IOEvents: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let readable = IOEvents(rawValue: 0x001)
    public static let writable = IOEvents(rawValue: 0x004)
    public static let error = IOEvents(rawValue: 0x008)
    public static let hangUp = IOEvents(rawValue: 0x010)
    /// EPOLLRDHUP: the peer shut down its sending side (what is queued can still be read).
    public static let readHangUp = IOEvents(rawValue: 0x2000)
    /// EPOLLET: report readiness once per change, not on every loop iteration while it lasts.
    public static let edgeTriggered = IOEvents(rawValue: 1 << 31)
}

/// The daemon's one event loop: libsystemd's sd-event. Everything runs on the
/// loop's thread; every source is a file descriptor, a timer or a signal on it.
/// Sources live as long as the `EventSource` object their owner keeps.
public final class EventLoop {
    let event: OpaquePointer

    public init() throws(SystemError) {
        var event: OpaquePointer?
        try checkSystemd("sd_event_new", sd_event_new(&event))
        // sd_event_new succeeded, so it set the pointer.
        self.event = event!
    }

    deinit { sd_event_unref(event) }

    /// Runs until `exit(code:)`; returns the exit code.
    public func run() throws(SystemError) -> Int32 {
        try checkSystemd("sd_event_loop", sd_event_loop(event))
    }

    public func exit(code: Int32 = 0) {
        _ = sd_event_exit(event, code)
    }

    /// Sends WATCHDOG=1 from the loop itself at half of `WATCHDOG_USEC` when the
    /// service manager asked for it, so a stuck loop stops pinging. Returns whether it is on.
    @discardableResult
    public func enableWatchdog() -> Bool {
        sd_event_set_watchdog(event, 1) > 0
    }

    /// Monotonic time of the current loop iteration, in seconds (CLOCK_BOOTTIME:
    /// it keeps counting through suspend, so timers due during sleep fire on resume).
    public var monotonicNow: Double {
        var usec: UInt64 = 0
        _ = sd_event_now(event, CLOCK_BOOTTIME, &usec)
        return Double(usec) / 1_000_000
    }

    /// Wall-clock time, in Unix seconds.
    public var wallNow: Double {
        SystemClock.realtime.now()
    }

    // MARK: Sources

    /// Calls `handler` with the epoll events each time `fd` is ready for `events`.
    /// `name` is the source's description in sd-event's debug logs; without
    /// one, where the source was created (`file:line`).
    public func watch(
        fd: Int32, events: IOEvents, name: String? = nil, file: String = #fileID, line: Int = #line,
        handler: @escaping (IOEvents) -> Void
    ) throws(SystemError) -> EventSource {
        let box = EventSource.Box(io: handler)
        var source: OpaquePointer?
        let userdata = box.retainedForSource()
        let result = sd_event_add_io(
            event, &source, fd, events.rawValue,
            { _, _, revents, userdata in
                EventSource.Box.from(userdata).io?(IOEvents(rawValue: revents))
                return 0
            }, userdata)
        return try EventSource(
            adding: result, source, call: "sd_event_add_io", subject: "fd \(fd)", name: name ?? "\(file):\(line)",
            userdata: userdata)
    }

    /// A timer, disarmed until `EventSource.arm(at:)` or `arm(after:)`.
    public func timer(
        accuracy: Double = 1, name: String? = nil, file: String = #fileID, line: Int = #line,
        handler: @escaping () -> Void
    ) throws(SystemError) -> EventSource {
        let box = EventSource.Box(plain: handler)
        var source: OpaquePointer?
        let userdata = box.retainedForSource()
        let result = sd_event_add_time(
            event, &source, CLOCK_BOOTTIME, UInt64.max, UInt64(accuracy * 1_000_000),
            { _, _, userdata in
                EventSource.Box.from(userdata).plain?()
                return 0
            }, userdata)
        let timer = try EventSource(
            adding: result, source, call: "sd_event_add_time", name: name ?? "\(file):\(line)", userdata: userdata,
            loop: self)
        timer.disarm()
        return timer
    }

    /// Handles a signal on the loop. The signal is blocked for the process so it
    /// is only delivered here.
    public func onSignal(
        _ signal: Int32, name: String? = nil, file: String = #fileID, line: Int = #line, handler: @escaping () -> Void
    ) throws(SystemError) -> EventSource {
        try SignalSet([signal]).block()
        let box = EventSource.Box(plain: handler)
        var source: OpaquePointer?
        let userdata = box.retainedForSource()
        let result = sd_event_add_signal(
            event, &source, signal,
            { _, _, userdata in
                EventSource.Box.from(userdata).plain?()
                return 0
            }, userdata)
        return try EventSource(
            adding: result, source, call: "sd_event_add_signal", subject: "signal \(signal)",
            name: name ?? "\(file):\(line)",
            userdata: userdata)
    }

    /// Runs `handler` once at the next loop iteration, before waiting for I/O.
    public func later(_ handler: @escaping () -> Void) {
        let box = EventSource.Box(plain: handler)
        var source: OpaquePointer?
        let result = sd_event_add_defer(
            event, &source,
            { source, userdata in
                // userdata is the box passed (retained) when the source was added.
                let box = Unmanaged<EventSource.Box>.fromOpaque(userdata!).takeRetainedValue()
                sd_event_source_disable_unref(source)
                box.plain?()
                return 0
            }, Unmanaged.passRetained(box).toOpaque())
        // Deferred sources only fail to allocate on out-of-memory; run inline then.
        if result < 0 { handler() }
    }
}

/// One sd-event source and the Swift handler it calls. Releasing it removes the source.
///
/// Lifetime, guaranteed here once for every source: the handler's box is
/// owned by the sd-event source itself (retained when the source is added,
/// released by its destroy callback). sd-event keeps a source that is being
/// dispatched alive until its callback returns, so a handler may cancel its
/// own source, or release the object that holds it, without the closure
/// being freed while it runs.
public final class EventSource {
    final class Box {
        let io: ((IOEvents) -> Void)?
        let plain: (() -> Void)?
        init(io: @escaping (IOEvents) -> Void) { self.io = io; self.plain = nil }
        init(plain: @escaping () -> Void) { self.io = nil; self.plain = plain }

        /// A +1 reference for the source's userdata; its destroy callback (or
        /// `EventSource.init` when adding failed) gives it back.
        func retainedForSource() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

        /// The box behind userdata, which the source owns while it exists.
        static func from(_ userdata: UnsafeMutableRawPointer?) -> Box {
            // Every source is added with its box as userdata, never nil.
            Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue()
        }
    }

    private var source: OpaquePointer?
    private weak var loop: EventLoop?

    /// Takes over a source just added (`result` is what the sd_event_add_* call
    /// returned): names it and hands it the box's reference.
    init(
        adding result: Int32, _ source: OpaquePointer?, call: String, subject: String = "", name: String,
        userdata: UnsafeMutableRawPointer, loop: EventLoop? = nil
    ) throws(SystemError) {
        guard result >= 0, let source else {
            Unmanaged<Box>.fromOpaque(userdata).release()
            throw result < 0
                ? SystemError(call, negativeErrno: result, subject: subject)
                : SystemError(call, errno: .invalidArgument, subject: subject)
        }
        _ = sd_event_source_set_destroy_callback(source) { userdata in
            // The reference taken by retainedForSource() when the source was added.
            Unmanaged<Box>.fromOpaque(userdata!).release()
        }
        _ = sd_event_source_set_description(source, name)
        self.source = source
        self.loop = loop
    }

    deinit { cancel() }

    /// The description given when the source was added (sd_event_source_get_description).
    public var name: String? {
        guard let source else { return nil }
        var description: UnsafePointer<CChar>?
        guard sd_event_source_get_description(source, &description) >= 0, let description else { return nil }
        return String(cString: description)
    }

    /// Removes the source; its handler is not called again.
    public func cancel() {
        guard let source else { return }
        sd_event_source_disable_unref(source)
        self.source = nil
    }

    /// Changes the epoll events an I/O source waits for.
    public func setEvents(_ events: IOEvents) {
        guard let source else { return }
        _ = sd_event_source_set_io_events(source, events.rawValue)
    }

    /// Turns an I/O source on or off without forgetting its descriptor and events.
    public func setEnabled(_ enabled: Bool) {
        guard let source else { return }
        _ = sd_event_source_set_enabled(source, enabled ? Int32(SD_EVENT_ON) : Int32(SD_EVENT_OFF))
    }

    /// Arms a timer to fire once at a monotonic (CLOCK_BOOTTIME) time in seconds.
    public func arm(at monotonicSeconds: Double) {
        guard let source else { return }
        _ = sd_event_source_set_time(source, Self.microseconds(monotonicSeconds))
        _ = sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT))
    }

    /// Arms a timer to fire once after a delay in seconds.
    public func arm(after seconds: Double) {
        guard let loop else { return }
        arm(at: loop.monotonicNow + max(0, seconds))
    }

    /// Changes how late a timer may fire, so wake-ups coalesce.
    public func setAccuracy(_ seconds: Double) {
        guard let source else { return }
        _ = sd_event_source_set_time_accuracy(source, Self.microseconds(seconds))
    }

    /// Seconds as sd-event's microseconds, never trapping: negative and NaN
    /// are 0, anything past ten thousand years is ten thousand years (a timer
    /// that far out never fires, and `UInt64.max` would mean "no time").
    static func microseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds, 3.2e11) * 1_000_000)
    }

    public func disarm() {
        guard let source else { return }
        _ = sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF))
    }

    public var isArmed: Bool {
        guard let source else { return false }
        var enabled: Int32 = 0
        _ = sd_event_source_get_enabled(source, &enabled)
        return enabled != SD_EVENT_OFF
    }
}
