import RainCore

/// The parts of the daemon that act on its events. `Daemon.init` hands
/// all of them to `DaemonEvents.connect`; a test hands the ones it made.
struct EventParts {
    var notifier: DesktopNotifier?
    var publisher: Publisher?
    var refresher: Refresher?
    var alerts: AlertWatcher?
    var air: AirWatcher?
    var observations: ObservationWatcher?
    var accuracy: AccuracyKeeper?
    var service: WeatherService?
    var daemon: Daemon?
}

extension DaemonEvents {
    /// raind's event table: every kind of event, and who acts on it in the
    /// order they act (docs/ARCHITECTURE.md, "The path of an event", lists
    /// the same). The notifier sees a change before subscribers are sent
    /// it; the refresher and the watchers have acted on a state change
    /// before the status line is written.
    func connect(_ parts: EventParts) {
        on(.published, parts.notifier) { $0.published($1) }
        on(.published, parts.publisher) { $0.publish($1) }
        on(.published, parts.alerts) { $0.published($1) }
        on(.published, parts.accuracy) { $0.published($1) }

        on(.stateChanged, parts.notifier) { $0.stateChanged(from: $1.from, to: $1.to) }
        on(.stateChanged, parts.refresher) { $0.stateChanged(from: $1.from, to: $1.to) }
        on(.stateChanged, parts.alerts) { $0.stateChanged(from: $1.from, to: $1.to) }
        on(.stateChanged, parts.air) { $0.stateChanged(from: $1.from, to: $1.to) }
        on(.stateChanged, parts.observations) { $0.stateChanged(from: $1.from, to: $1.to) }
        on(.stateChanged, parts.accuracy) { $0.stateChanged(from: $1.from, to: $1.to) }
        on(.stateChanged, parts.daemon) { $0.stateChanged(to: $1.to) }

        on(.placeMoved, parts.refresher) { $0.placeMoved($1) }
        on(.positionMoved, parts.service) { $0.moveFollowing(to: $1) }

        on(.weatherChanged, parts.daemon) { $0.updateStatus() }

        on(.watchingChanged, parts.refresher) { $0.watchingChanged($1) }

        on(.becameActive, parts.refresher) { $0.refreshIfStale(reason: $1) }
        on(.becameActive, parts.alerts) { $0.becameActive(resumed: $1 == DaemonEvent.resumeReason) }
        on(.becameActive, parts.air) { watcher, _ in watcher.timerFired() }
        on(.becameActive, parts.observations) { watcher, _ in watcher.timerFired() }

        on(.networkChanged, parts.refresher) { $0.setNetworkUp($1) }
        on(.networkChanged, parts.alerts) { $0.networkChanged($1) }
        on(.networkChanged, parts.air) { watcher, _ in watcher.timerFired() }
        on(.networkChanged, parts.observations) { watcher, _ in watcher.timerFired() }

        on(.rainSoonInterestChanged, parts.refresher) { $0.notificationsWantNowcast = $1 }

        on(.configurationReloaded, parts.notifier) { $0.configurationReloaded() }
        on(.configurationReloaded, parts.refresher) { $0.configurationReloaded() }
        on(.configurationReloaded, parts.alerts) { $0.configurationReloaded() }
        on(.configurationReloaded, parts.air) { $0.configurationReloaded() }
        on(.configurationReloaded, parts.observations) { $0.configurationReloaded() }
        on(.configurationReloaded, parts.accuracy) { $0.configurationReloaded() }

        on(.alertMomentReached, parts.notifier) { $0.reconsiderAlerts() }

        on(.airKept, parts.notifier) { $0.airKept($1.id, air: $1.air) }

        on(.observed, parts.accuracy) { $0.observed($1.places, $1.observation) }
    }
}
