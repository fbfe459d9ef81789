extension WeatherAlert {
    /// When the hazard begins: CAP `onset`, else the time the alert takes
    /// effect (`start`); nil when the provider gave neither.
    public var begins: Double? { onset ?? start }

    /// Whether the alert is in effect at `now`: it has begun (onset, else
    /// start, at or before `now`; an alert with neither has begun) and not
    /// ended (no end, or an end after `now`). A cancellation is never in
    /// effect. The one rule every view and the notifier share: an alert is
    /// shown as current and notified only while it holds.
    public func isInEffect(at now: Double) -> Bool {
        messageType != .cancel && AlertLifecycle.isInEffect(self, now: now)
    }

    /// Whether the alert has not begun at `now` but will hold later: shown
    /// as "from Wed 14:00", notified at its onset.
    public func isUpcoming(at now: Double) -> Bool {
        messageType != .cancel && AlertLifecycle.isUpcoming(self, now: now)
    }
}

extension Forecast {
    /// The alerts in effect at `now`, most severe first (the provider's order among equals).
    public func alertsInEffect(at now: Double) -> [WeatherAlert] {
        alerts.enumerated().filter { $0.element.isInEffect(at: now) }
            .sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
    }

    /// The alerts that begin after `now`, soonest first (most severe first among equals).
    public func upcomingAlerts(at now: Double) -> [WeatherAlert] {
        alerts.enumerated().filter { $0.element.isUpcoming(at: now) }
            .sorted {
                ($0.element.begins ?? 0, $0.element.severity.rank, $0.offset)
                    < ($1.element.begins ?? 0, $1.element.severity.rank, $1.offset)
            }.map(\.element)
    }

    /// The most severe alert in effect at `now` (the first the provider lists among equals).
    public func mostSevereAlert(at now: Double) -> WeatherAlert? { alertsInEffect(at: now).first }
}
