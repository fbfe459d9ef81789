import RainCore

/// Sends events to subscribers. Each event is encoded once and the same bytes
/// are queued to every subscriber that asked for it; one that has let too
/// much pile up is told `SubscriberTooSlow` and dropped, never waited for.
public final class Publisher {
    final class Subscription {
        let request: VarlinkRequest
        /// nil: every event.
        let filter: Set<EventName>?
        init(request: VarlinkRequest, filter: Set<EventName>?) {
            self.request = request
            self.filter = filter
        }
    }

    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    private let maximumQueuedBytes: Int
    private let logger: Logger

    public init(maximumQueuedBytes: Int, logger: Logger) {
        self.maximumQueuedBytes = maximumQueuedBytes
        self.logger = logger
    }

    public var count: Int { subscriptions.count }

    /// Called after the first subscriber arrived or the last one went away
    /// (the nowcast's short refreshes run only while someone can use them);
    /// not for the ones in between, which change nothing there.
    var onWatchingChanged: () -> Void = {}

    /// The cached forecast of a place, sent along with `LocationSelected` so
    /// a status bar shows the new place at once, not at its next refresh.
    var cachedForecast: (LocationID) -> Forecast? = { _ in nil }

    /// Adds a subscriber whose snapshot was already sent.
    public func add(_ request: VarlinkRequest, filter: Set<EventName>?) {
        let key = ObjectIdentifier(request)
        subscriptions[key] = Subscription(request: request, filter: filter)
        request.onCancel = { [weak self] in self?.remove(key) }
        if subscriptions.count == 1 { onWatchingChanged() }
    }

    private func remove(_ key: ObjectIdentifier) {
        guard subscriptions.removeValue(forKey: key) != nil else { return }
        if subscriptions.isEmpty { onWatchingChanged() }
    }

    public func publish(_ events: [Event]) {
        for event in events { publish(event) }
    }

    /// Parts of raind itself that act on events (the desktop notifier, for
    /// one), called with every event before subscribers are sent it.
    private var observers: [(Event) -> Void] = []

    /// Adds an in-process observer of every event, for the daemon's lifetime.
    public func addObserver(_ observer: @escaping (Event) -> Void) {
        observers.append(observer)
    }

    public func publish(_ event: Event) {
        for observer in observers { observer(event) }
        guard !subscriptions.isEmpty else { return }
        var reply = SubscribeReply(event)
        if case .locationSelected(let location) = event { reply.forecast = cachedForecast(location.id) }
        var bytes: [UInt8] = []
        VarlinkFramer.frameReply(reply, continues: true, into: &bytes)
        for (key, subscription) in subscriptions {
            if let filter = subscription.filter, !filter.contains(event.name) { continue }
            guard let connection = subscription.request.connection else {
                remove(key)
                continue
            }
            if connection.queuedBytes + bytes.count > maximumQueuedBytes {
                logger.warning(
                    "\(connection.description) did not read \(connection.queuedBytes) bytes of events; dropped as too slow"
                )
                remove(key)
                subscription.request.abort(
                    MethodError(
                        SubscriberTooSlow(
                            queuedBytes: connection.queuedBytes,
                            message:
                                "events were not read fast enough (\(connection.queuedBytes) bytes waiting); reconnect and read continuously"
                        )
                    ))
                continue
            }
            subscription.request.stream { $0 += bytes }
        }
    }
}
