/// Whether a forecast still speaks of the present, from its own times and
/// not from when it arrived: an answer received a second ago may hold
/// nothing but yesterday (a proxy's or provider's stale copy, a clock set
/// wrong on either side).
extension Forecast {
    /// The latest moment the forecast speaks of, the latest of:
    /// - the current block's time plus `observationLifetime` (an observation
    ///   stands for the hour after it, as `conditions(at:)` shows it);
    /// - each hour's end, `stepEnd(ofHourAt:)` (an hour, or the step of
    ///   sparse data, up to 6 hours);
    /// - each day's end, 24 hours after its `time` (its local midnight; a
    ///   day with a daylight-saving change is an hour longer or shorter, and
    ///   an hour does not decide whether data is a day old);
    /// - the nowcast's end (its last step's end).
    ///
    /// nil when the forecast holds no time at all. Alerts do not count: they
    /// are warnings, not the weather.
    public var coverageEnd: Double? {
        var ends: [Double] = []
        if let current { ends.append(current.time + Self.observationLifetime) }
        // The latest entry's step ends last: any other's ends by the next entry.
        if let latest = hourly.indices.max(by: { hourly[$0].time < hourly[$1].time }) {
            ends.append(stepEnd(ofHourAt: latest))
        }
        if let lastDay = daily.map(\.time).max() { ends.append(lastDay + 86_400) }
        if let nowcast, let last = nowcast.steps.map(\.time).max() {
            ends.append(last + Double(nowcast.resolutionSeconds))
        }
        return ends.max()
    }

    /// Whether every time the forecast holds lies before `now`: `now` is at
    /// or past `coverageEnd` (a forecast with no times at all is outdated).
    /// Such a forecast is stale however recently it was received: views say
    /// when it ended rather than when it arrived, and bars show it as stale.
    public func outdated(now: Double) -> Bool {
        guard let end = coverageEnd else { return true }
        return !(now < end)
    }
}
