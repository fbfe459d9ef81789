import RainCore
import RainDaemonCore

/// The Subscribe snapshot's framed reply, encoded once and reused until the
/// places, the selected forecast or the status (but for its uptime and
/// subscriber count, written in for each subscriber) change.
struct SnapshotCache {
    /// The status's version it was made at: while it holds, the status is
    /// not built again (a burst of subscribers costs one build).
    let version: StatusVersion
    let places: LocationList
    /// The selected place's forecast as `Refresher.forecastVersion` named it.
    let forecast: ForecastVersion?
    /// The selected place's last refresh failure, until a later success.
    let failure: RefreshFailure?
    let reply: StatusEncodingCache
}

/// Subscriptions: the snapshot, then every event through the publisher.
extension WeatherService {
    func subscribe(_ parameters: SubscribeCall.Parameters, _ responder: Responder<SubscribeReply>) throws(MethodError) {
        let request = responder.request
        // A oneway call asks for no reply: no snapshot, no events, and the connection goes on.
        if request.call.oneway {
            request.reply(encoding: NoParameters())
            return
        }
        guard request.call.more else {
            throw MethodError(service: VarlinkServiceError.ExpectedMore(), message: "Subscribe needs more=true")
        }
        request.stream(writing: snapshotWriter())
        publisher.add(request, filter: parameters.events.map(Set.init))
    }

    /// Writes the framed snapshot reply straight into the subscriber's
    /// output, from the cached encoding with this subscriber's uptime and
    /// subscriber count written in.
    func snapshotWriter() -> (inout [UInt8]) -> Void {
        let places = state.places
        let version = places.selectedID.flatMap { refresher.forecastVersion(for: $0) }
        let failure = places.selectedID.flatMap { refresher.scheduler.places[$0]?.lastFailure }
        // First: following a jump of the clock changes the refresher's times, and so the version.
        let now = refresher.now
        let statusVersion = statusVersion(now: now)
        if let cached = snapshotCache, cached.version == statusVersion, cached.places == places,
            cached.forecast == version, cached.failure == failure
        {
            let reply = cached.reply
            let (uptime, subscribers) = (statusUptime, publisher.count + 1)
            return { frame in reply.write(uptime: uptime, subscribers: subscribers, into: &frame) }
        }
        let status = status(joining: 1, now: now)
        let reply: StatusEncodingCache
        if let cached = snapshotCache, cached.places == places, cached.forecast == version, cached.failure == failure,
            cached.reply.matches(status)
        {
            reply = cached.reply
        } else {
            let forecast = places.selectedID.flatMap { refresher.forecast(for: $0)?.forecast }
            reply = StatusEncodingCache(status: status) { status in
                var bytes: [UInt8] = []
                VarlinkFramer.frameReply(
                    SubscribeReply.snapshot(
                        status: status, locations: places.locations, selected: places.selectedID, forecast: forecast,
                        failure: failure),
                    continues: true, into: &bytes)
                return bytes
            }
        }
        // Kept at this version either way: a reply found to match still saves the next subscriber the build.
        snapshotCache = SnapshotCache(
            version: statusVersion, places: places, forecast: version, failure: failure, reply: reply)
        return { frame in reply.write(status, into: &frame) }
    }
}
