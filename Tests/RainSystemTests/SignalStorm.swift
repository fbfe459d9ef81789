import Foundation
import Glibc

/// Signals that interrupt: SIGURG sent to one thread about every
/// millisecond, from a helper thread, while a handler is installed without
/// SA_RESTART, so a blocking call in that thread returns EINTR each time one
/// arrives. (SIGURG is ignored by default: one arriving after the storm has
/// passed does nothing.)
final class SignalStorm: @unchecked Sendable {
    static let signal = SIGURG

    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    private let finished = DispatchSemaphore(value: 0)
    private var previous = sigaction()

    /// Starts sending to `target`. After `beforeAction` signals, `action`
    /// runs once on the helper thread (a write into a pipe, say) and the
    /// storm goes on; it ends by itself after `maximumSeconds`, so a call
    /// that only returns once the signals stop shows up as too slow.
    init(
        target: pthread_t, beforeAction: Int = 0, maximumSeconds: Double = 5,
        action: (@Sendable () -> Void)? = nil
    ) {
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { _ in }
        handler.sa_flags = 0  // no SA_RESTART: the kernel returns EINTR instead of restarting
        sigemptyset(&handler.sa_mask)
        sigaction(Self.signal, &handler, &previous)
        let deadline = Date().addingTimeInterval(maximumSeconds)
        Thread { [self] in
            var acted = action == nil
            while !isStopped && Date() < deadline {
                pthread_kill(target, Self.signal)
                let sent = increment()
                if !acted && sent >= beforeAction {
                    action?()
                    acted = true
                }
                usleep(1000)  // a pace, not a wait for anything
            }
            finished.signal()
        }.start()
    }

    /// Ends the storm, waits for the helper thread, puts the old handler
    /// back; returns how many signals were sent.
    @discardableResult
    func stop() -> Int {
        lock.withLock { stopped = true }
        finished.wait()
        sigaction(Self.signal, &previous, nil)
        return lock.withLock { count }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
