extension Forecast {
    /// Whether every time the forecast speaks of lies before `now`: the
    /// hour after its current conditions, each hour's end, each day's end
    /// and the end of its nowcast. Such data is stale however recently it
    /// arrived.
    public func outdated(now: Double) -> Bool {
        var latest = current.map { $0.time + 3600 } ?? -Double.infinity
        if let hour = hourly.last { latest = max(latest, hour.time + 3600) }
        if let day = daily.last { latest = max(latest, day.time + 86400) }
        if let nowcast { latest = max(latest, nowcast.coveredUntil) }
        return latest < now
    }
}
