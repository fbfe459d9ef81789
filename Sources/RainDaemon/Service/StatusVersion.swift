/// What GetStatus's reply was built at. Between two changes of what raind
/// holds, and within one second of the wall clock, the reply says the same
/// but for its uptime and subscriber count (written in for each call by
/// `StatusEncodingCache`), so it is built once per version, not per call.
///
/// Nothing here names a field of the status: a change is anything emitted
/// as an event (a state written, a refresh, reachability, a reload, a
/// subscriber's coming or going) and anything the refresher holds for the
/// status (`Refresher.changes`: budgets, the nowcast, the next wake-up),
/// whichever field shows it. What depends on time alone moves at most once a
/// second, and the ones that move on a second's edge exactly there: the day's
/// and the month's budgets renew at 00:00 UTC.
struct StatusVersion: Equatable {
    /// `DaemonEvents.emitted`.
    var events: Int
    /// `Refresher.changes`.
    var refresher: Int
    /// `AlertWatcher.changes`.
    var alerts: Int
    /// `ObservationWatcher.changes`.
    var observations: Int
    /// The wall-clock second (Unix seconds, rounded down) the status was built in.
    var second: Double

    init(events: Int, refresher: Int, alerts: Int = 0, observations: Int = 0, now: Double) {
        self.events = events
        self.refresher = refresher
        self.alerts = alerts
        self.observations = observations
        second = now.rounded(.down)
    }
}
