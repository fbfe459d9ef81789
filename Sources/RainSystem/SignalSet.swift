import Glibc

/// A set of signals (`sigset_t`), to block for the process: a blocked signal
/// waits, pending, until something takes it (sd-event's signalfd) instead of
/// running its default action.
public struct SignalSet: Sendable {
    private var raw = sigset_t()

    /// The set of `signals` (`sigemptyset(3)`, `sigaddset(3)`); a number that
    /// is no signal is EINVAL, from `sigaddset`.
    public init(_ signals: [Int32]) throws(SystemError) {
        try nothingOrError("sigemptyset") { SystemCall.sigemptyset(&raw) }
        for signal in signals {
            try nothingOrError("sigaddset", subject: "signal \(signal)") { SystemCall.sigaddset(&raw, signal) }
        }
    }

    private init(raw: sigset_t) { self.raw = raw }

    /// Whether `signal` is in the set (`sigismember(3)`).
    public func contains(_ signal: Int32) -> Bool {
        var copy = raw
        return SystemCall.sigismember(&copy, signal) == 1
    }

    /// Adds the set to the calling thread's blocked signals (`sigprocmask(2)`
    /// with SIG_BLOCK; in raind, which has one thread, the process's).
    public func block() throws(SystemError) {
        _ = try Self.change(SIG_BLOCK, self)
    }

    /// Removes the set from the calling thread's blocked signals (SIG_UNBLOCK).
    public func unblock() throws(SystemError) {
        _ = try Self.change(SIG_UNBLOCK, self)
    }

    /// The calling thread's blocked signals now.
    public static func blocked() throws(SystemError) -> SignalSet {
        try change(SIG_BLOCK, SignalSet([]))
    }

    /// `sigprocmask(how, set)`; returns the mask in force before.
    private static func change(_ how: Int32, _ set: SignalSet) throws(SystemError) -> SignalSet {
        var new = set.raw
        var old = sigset_t()
        try nothingOrError("sigprocmask") { SystemCall.sigprocmask(how, &new, &old) }
        return SignalSet(raw: old)
    }
}
