import RainCore

/// The Subscribe snapshot's costly part (places and the selected forecast),
/// serialized once and reused until either changes.
struct SnapshotCache {
    let places: LocationList
    /// The selected place's forecast as `Refresher.forecastVersion` named it.
    let forecast: ForecastVersion?
    /// `"locations":…,"selected":…,"forecast":…` without braces.
    let members: [UInt8]
}

/// Subscriptions: the snapshot, then every event through the publisher.
extension WeatherService {
    func subscribe(_ parameters: SubscribeCall.Parameters, _ responder: Responder<SubscribeReply>) throws(MethodError) {
        let request = responder.request
        // A oneway call asks for no reply: no snapshot, no events, and the connection goes on.
        if request.call.oneway {
            request.reply(.object(JSONObject()))
            return
        }
        guard request.call.more else {
            throw MethodError(service: .expectedMore, NoParameters(), message: "Subscribe needs more=true")
        }
        request.streamFramed(writing: snapshotWriter())
        let quiet = publisher.count == 0
        publisher.add(request, filter: parameters.events.map(Set.init))
        // The first subscriber after a time with none is someone looking: refresh what is stale.
        if quiet { context.subscriberAttached() }
    }

    /// Writes the framed snapshot reply straight into the subscriber's
    /// output. The status differs for each subscriber only by its uptime and
    /// subscriber count, which are written into its cached encoding; places
    /// and forecast come from their cache, copied once.
    func snapshotWriter() -> (inout [UInt8]) -> Void {
        let version = state.places.selectedID.flatMap { refresher.forecastVersion(for: $0) }
        let members: [UInt8]
        if let cached = snapshotCache, cached.places == state.places, cached.forecast == version {
            members = cached.members
        } else {
            let forecast = state.places.selectedID.flatMap { refresher.forecast(for: $0)?.forecast }
            let snapshot = SubscribeReply.snapshot(
                status: status(), locations: state.places.locations, selected: state.places.selectedID,
                forecast: forecast)
            // Everything but the event and the status, written per subscriber; without the braces.
            var object = snapshot.json.objectValue ?? JSONObject()
            object["event"] = nil
            object["status"] = nil
            members = Array(JSON.object(object).serialized().utf8.dropFirst().dropLast())
            snapshotCache = SnapshotCache(places: state.places, forecast: version, members: members)
        }
        let status = status(joining: 1)
        let statusCache = StatusEncodingCache.current(
            &snapshotStatusCache, for: status, make: StatusEncodingCache.object)
        return { frame in
            let head = #"{"parameters":{"event":"\#(SubscribeReply.snapshotName)","status":"#
            frame.reserveCapacity(frame.count + head.utf8.count + members.count + 1024)
            frame += head.utf8
            statusCache.write(status, into: &frame)
            if !members.isEmpty { frame.append(UInt8(ascii: ",")) }
            frame += members
            frame += #"},"continues":true}"#.utf8
            frame.append(0)
        }
    }
}
