import RainCore

/// GetStatus's reply, built once per `StatusVersion` rather than per call:
/// pipelined GetStatus calls spent a third of their time building and
/// comparing the status (docs/PERFORMANCE.md).
extension WeatherService {
    /// Appends GetStatus's framed reply as of now.
    func writeStatusReply(into bytes: inout [UInt8]) {
        statusReply().write(uptime: statusUptime, subscribers: publisher.count, into: &bytes)
    }

    /// GetStatus's reply but for the uptime and subscriber count: the one
    /// kept while its `StatusVersion` holds, else built anew.
    func statusReply() -> StatusEncodingCache {
        if let cached = statusReplyCache, cached.version == statusVersion(now: context.clock.wallNow) {
            return cached.reply
        }
        // First: following a jump of the clock changes the refresher's times, and so the version.
        let now = refresher.now
        let reply = StatusEncodingCache.getStatusReply(status(now: now))
        statusReplyCache = (statusVersion(now: now), reply)
        return reply
    }

    func statusVersion(now: Double) -> StatusVersion {
        StatusVersion(
            events: events.emitted, refresher: refresher.changes, alerts: alerts?.changes ?? 0,
            observations: observations?.changes ?? 0, now: now)
    }

    /// In whole microseconds: plenty, and a number written without converting a float to text.
    var statusUptime: Double { (context.uptime * 1e6).rounded() / 1e6 }

    /// The table's method named `name`. Pipelined calls name the same method
    /// with the same String (`VarlinkCall(message:methodLike:)`), which
    /// compares equal at once: no hashing of the name per call.
    func method(named name: String) -> Method? {
        if let lastMethod, lastMethod.name == name { return lastMethod.method }
        guard let method = Self.methods[name] else { return nil }
        lastMethod = (name, method)
        return method
    }
}
