import RainCore

/// raind's internal event stream: parts emit `DaemonEvent`s, and the
/// handlers registered for an event's kind get it, in registration order,
/// on the loop. Who handles what is one table, `connect(_:)`.
///
/// Delivery is first-in, first-out: an event emitted while another is
/// being handed out (a handler reacting by emitting) waits until every
/// handler of the earlier one has run, so each part sees a change before
/// anything that change caused. Handlers hold their owners weakly: the
/// daemon owns its parts.
public final class DaemonEvents {
    private var handlers: [DaemonEvent.Kind: [(DaemonEvent) -> Void]] = [:]
    /// Emitted and not yet handed out; the head is being handed out while `delivering`.
    private var queue: [DaemonEvent] = []
    private var delivering = false
    /// Events emitted so far, of every kind: what is cached until something
    /// happens (GetStatus's reply) compares it.
    public private(set) var emitted = 0

    public init() {}

    /// From now on, hands `owner` the payload of every event of `kind`,
    /// while `owner` lives. A nil `owner` (a part this daemon does not have)
    /// registers nothing.
    public func on<Owner: AnyObject, Payload>(
        _ kind: DaemonEventKind<Payload>, _ owner: Owner?, _ handler: @escaping (Owner, Payload) -> Void
    ) {
        guard let owner else { return }
        handlers[kind.kind, default: []].append { [weak owner] event in
            guard let owner, let payload = kind.payload(event) else { return }
            handler(owner, payload)
        }
    }

    /// `on` for the kinds that carry nothing.
    public func on<Owner: AnyObject>(
        _ kind: DaemonEventKind<Void>, _ owner: Owner?, _ handler: @escaping (Owner) -> Void
    ) {
        on(kind, owner) { owner, _ in handler(owner) }
    }

    /// Hands `event` to its kind's handlers: now, or, when emitted by a
    /// handler, once the events emitted before it have been handed out.
    public func emit(_ event: DaemonEvent) {
        emitted &+= 1
        queue.append(event)
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        var next = 0
        while next < queue.count {
            let event = queue[next]
            next += 1
            for handler in handlers[event.kind] ?? [] { handler(event) }
        }
        queue.removeAll(keepingCapacity: true)
    }

    /// Emits each of `events` as `.published`, in order.
    public func publish(_ events: [Event]) {
        for event in events { emit(.published(event)) }
    }
}
