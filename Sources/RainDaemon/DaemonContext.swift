import RainCore
import RainDaemonCore

/// What the daemon's parts share: the loop, the clock, the configuration in
/// force and the paths. Lives on the loop like everything else; what
/// happens travels as events (`DaemonEvents`), not through here.
public final class DaemonContext {
    public let loop: EventLoop
    /// The loop itself, unless a test gives its own.
    public let clock: any DaemonClock
    public internal(set) var configuration: Configuration
    public let paths: DaemonPaths
    public let logger: Logger
    let startedAt: Double

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
}
