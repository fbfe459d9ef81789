import RainCore

/// raind's internal event stream: parts emit `DaemonEvent`s, observers
/// registered for their kinds get them at once, in registration order, on
/// the loop. An observer may emit while it observes; that event is handed
/// out before `emit` returns, as a nested call. Observers are held weakly:
/// the daemon owns its parts.
public final class DaemonEvents {
    private struct Registration {
        weak var observer: (any DaemonEventObserver)?
    }

    private var observers: [DaemonEvent.Kind: [Registration]] = [:]
    /// Events emitted so far, of every kind: what is cached until something
    /// happens (GetStatus's reply) compares it.
    public private(set) var emitted = 0

    public init() {}

    /// Hands `observer` every event of `kinds` from now on.
    public func register(_ observer: any DaemonEventObserver, for kinds: Set<DaemonEvent.Kind>) {
        for kind in DaemonEvent.Kind.allCases where kinds.contains(kind) {
            observers[kind, default: []].append(Registration(observer: observer))
        }
    }

    public func emit(_ event: DaemonEvent) {
        emitted &+= 1
        guard let registered = observers[event.kind] else { return }
        for registration in registered { registration.observer?.observe(event) }
    }

    /// Emits each of `events` as `.published`, in order.
    public func publish(_ events: [Event]) {
        for event in events { emit(.published(event)) }
    }
}
