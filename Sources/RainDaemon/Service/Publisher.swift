import RainCore

/// Sends events to subscribers. Each event is encoded once and the same bytes
/// are queued to every subscriber that asked for it; one that has let too
/// much pile up is told `SubscriberTooSlow` and dropped, never waited for.
/// Emits `.watchingChanged` when the first subscriber comes and when the
/// last one leaves (the nowcast's short refreshes run only while someone
/// can use them); not for the ones in between, which change nothing there.
public final class Publisher {
    /// Where the status sent with `SettingsChanged` comes from: the settings
    /// in force (the interval, `StaleAfterMinutes=`) change with them, or on
    /// a reload, and every subscriber must read them anew. The service is it,
    /// set once it is built (it is built after the publisher).
    weak var statusSource: WeatherService?

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
    /// The cached forecasts: a place's is sent along with `LocationSelected`
    /// so a status bar shows the new place at once, not at its next refresh.
    private let forecasts: ForecastStore
    private let clock: any DaemonClock
    private let events: DaemonEvents
    private let logger: Logger

    init(
        maximumQueuedBytes: Int, forecasts: ForecastStore, clock: any DaemonClock, events: DaemonEvents,
        logger: Logger
    ) {
        self.maximumQueuedBytes = maximumQueuedBytes
        self.forecasts = forecasts
        self.clock = clock
        self.events = events
        self.logger = logger
    }

    public var count: Int { subscriptions.count }

    /// Adds a subscriber whose snapshot was already sent.
    public func add(_ request: VarlinkRequest, filter: Set<EventName>?) {
        let key = ObjectIdentifier(request)
        subscriptions[key] = Subscription(request: request, filter: filter)
        request.onCancel = { [weak self] in self?.remove(key) }
        if subscriptions.count == 1 { events.emit(.watchingChanged(true)) }
    }

    private func remove(_ key: ObjectIdentifier) {
        guard subscriptions.removeValue(forKey: key) != nil else { return }
        if subscriptions.isEmpty { events.emit(.watchingChanged(false)) }
    }

    /// Sends `event` to every subscriber that asked for its kind.
    func publish(_ event: Event) {
        guard !subscriptions.isEmpty else { return }
        var reply = SubscribeReply(event)
        if case .locationSelected(let location) = event {
            reply.forecast = forecasts.served(location.id, at: clock.wallNow)
        }
        if case .settingsChanged = event { reply.status = statusSource?.status() }
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
            subscription.request.stream(framed: bytes)
        }
    }
}
