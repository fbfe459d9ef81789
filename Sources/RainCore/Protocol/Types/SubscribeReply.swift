/// One reply of `Subscribe`: the snapshot first, then one per event. Only
/// the fields of its kind are set; the others are null.
public struct SubscribeReply: Codable, Sendable, Equatable {
    /// `Snapshot`, or an event's name.
    public var event: String
    public var status: WeatherStatus?
    public var locations: [Location]?
    public var selected: LocationID?
    public var forecast: Forecast?
    public var location: Location?
    public var settings: Settings?
    public var id: LocationID?
    public var ids: [LocationID]?
    public var online: Bool?
    public var failure: RefreshFailure?
    public var alerts: [WeatherAlert]?
    public var nowcast: Nowcast?
    /// `NowcastChanged`: what changed (`NowcastChange.Reason`).
    public var changes: [NowcastChange.Reason]?
    /// `NowcastChanged`: the rain spoken of is another spell than before.
    public var newEpisode: Bool?
    /// `ProviderChanged`: which provider serves the place now, and why.
    public var providerChange: ProviderChange?

    public static let snapshotName = "Snapshot"

    init(event: String) { self.event = event }

    /// The first reply: status, places, the selected place's forecast and,
    /// until it refreshes successfully, its last refresh failure.
    public static func snapshot(
        status: WeatherStatus, locations: [Location], selected: LocationID?, forecast: Forecast?,
        failure: RefreshFailure? = nil
    ) -> SubscribeReply {
        var reply = SubscribeReply(event: snapshotName)
        reply.status = status
        reply.locations = locations
        reply.selected = selected
        reply.forecast = forecast
        reply.failure = failure
        return reply
    }

    public var isSnapshot: Bool { event == Self.snapshotName }

    public init(_ event: Event) {
        self.init(event: event.name.rawValue)
        switch event {
        case .locationAdded(let place), .locationRemoved(let place), .locationSelected(let place),
            .locationChanged(let place):
            location = place
        case .settingsChanged(let changed):
            settings = changed
        case .weatherUpdated(let place, let updated):
            id = place
            forecast = updated
        case .reachabilityChanged(let isOnline):
            online = isOnline
        case .refreshStarted(let places):
            ids = places
        case .refreshFailed(let place, let why):
            id = place
            failure = why
        case .alertsChanged(let place, let active):
            id = place
            alerts = active
        case .nowcastChanged(let place, let outlook, let change):
            id = place
            nowcast = outlook
            changes = change.reasons
            newEpisode = change.newEpisode
        case .providerChanged(let place, let change):
            id = place
            providerChange = change
        }
    }

    /// The event this reply carries; nil for the snapshot. An event without
    /// the fields its kind needs is an error naming the missing one.
    public func decodedEvent() throws(WireDecodingError) -> Event? {
        if isSnapshot { return nil }
        guard let name = EventName(rawValue: event) else {
            throw WireDecodingError(field: "event", reason: "unknown event '\(event)'")
        }
        func need<T>(_ value: T?, _ field: String) throws(WireDecodingError) -> T {
            guard let value else { throw WireDecodingError(field: field, reason: "missing in \(event)") }
            return value
        }
        switch name {
        case .locationAdded: return .locationAdded(try need(location, "location"))
        case .locationRemoved: return .locationRemoved(try need(location, "location"))
        case .locationSelected: return .locationSelected(try need(location, "location"))
        case .locationChanged: return .locationChanged(try need(location, "location"))
        case .settingsChanged: return .settingsChanged(try need(settings, "settings"))
        case .weatherUpdated: return .weatherUpdated(try need(id, "id"), try need(forecast, "forecast"))
        case .reachabilityChanged: return .reachabilityChanged(online: try need(online, "online"))
        case .refreshStarted: return .refreshStarted(try need(ids, "ids"))
        case .refreshFailed: return .refreshFailed(try need(id, "id"), try need(failure, "failure"))
        case .alertsChanged: return .alertsChanged(try need(id, "id"), try need(alerts, "alerts"))
        case .nowcastChanged:
            let change = NowcastChange(
                reasons: try need(changes, "changes"), newEpisode: try need(newEpisode, "newEpisode"))
            return .nowcastChanged(try need(id, "id"), nowcast, change)
        case .providerChanged:
            return .providerChanged(try need(id, "id"), try need(providerChange, "providerChange"))
        }
    }
}
