import RainCore

/// What the daemon's parts share: the loop, the configuration in force, the
/// paths, and hooks back into the daemon. Lives on the loop like everything else.
public final class DaemonContext {
    public let loop: EventLoop
    /// The loop itself, unless a test gives its own.
    public let clock: any DaemonClock
    public internal(set) var configuration: Configuration
    public let paths: DaemonPaths
    public let logger: Logger
    let startedAt: Double

    /// Set by the daemon: the state changed (places, selection, settings).
    var onStateChanged: () -> Void = {}
    /// Set by the daemon: a forecast or reachability changed.
    var onWeatherChanged: () -> Void = {}
    /// Set by the daemon: a subscriber attached.
    var onSubscriberAttached: () -> Void = {}

    init(
        loop: EventLoop, configuration: Configuration, paths: DaemonPaths, logger: Logger,
        clock: (any DaemonClock)? = nil
    ) {
        self.loop = loop
        self.clock = clock ?? loop
        self.configuration = configuration
        self.paths = paths
        self.logger = logger
        self.startedAt = self.clock.monotonicNow
    }

    public var uptime: Double { clock.monotonicNow - startedAt }

    func stateChanged() { onStateChanged() }
    func subscriberAttached() { onSubscriberAttached() }
    func weatherChanged() { onWeatherChanged() }
}
