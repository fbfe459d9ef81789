import Glibc
import RainCore
import RainDaemonCore
import RainNameService
import RainSystem

/// How raind was asked to run (from its command line).
public struct DaemonOptions {
    public var mode: DaemonPaths.Mode = .user
    public var socketPath: String?
    public var environment: [String: String]
    public var logLevel: Logger.Level = .info

    public init(environment: [String: String]) { self.environment = environment }
}

/// Why raind could not start, said so a person knows what to do.
public struct StartupError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The daemon: builds the loop, the socket server, the state, the service
/// and the triggers, connects them through one event stream (`DaemonEvents`;
/// who acts on what is the table at the end of `init`), and runs until
/// SIGTERM or SIGINT.
public final class Daemon {
    let loop: EventLoop
    let context: DaemonContext
    let events = DaemonEvents()
    let forecasts: ForecastStore
    let publisher: Publisher
    let logger: Logger
    let manager = ServiceManager()
    let service: WeatherService
    let refresher: Refresher
    let alerts: AlertWatcher
    let air: AirWatcher
    let observations: ObservationWatcher
    let accuracy: AccuracyKeeper
    let server: VarlinkServer
    /// Resume and session triggers; nil fields mean the source is unavailable (logged once).
    let logind: LogindWatcher
    let network: NetworkMonitor?
    /// Desktop notifications; nil in the system instance, which never notifies.
    let notifier: DesktopNotifier?
    /// Keeps the place that follows the machine where it is.
    let follower: PlaceFollower
    let listener: FileDescriptor
    /// The socket file we bound ourselves and so remove on exit; nil when activated.
    let ownedSocketPath: String?
    let socketPath: String
    private var signalSources: [EventSource] = []

    /// The signals raind handles on its loop.
    static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGPIPE]

    public init(options: DaemonOptions) throws(StartupError) {
        // Blocked before the socket exists: a signal sent as soon as a client can
        // connect waits for the loop's handler instead of killing the process.
        do {
            try SignalSet(Self.handledSignals).block()
        } catch {
            throw StartupError("cannot block the signals raind handles: \(error)")
        }
        logger = Logger(subsystem: "raind", threshold: options.logLevel)
        // Notifications are written in the session's language (DesktopNotifier);
        // nothing else the daemon writes is translated.
        Localization.bind(
            environment: options.environment, executablePath: try? FileIO.symbolicLinkTarget(of: "/proc/self/exe"),
            warn: { [logger] in logger.warning($0) })
        let paths = DaemonPaths(mode: options.mode, environment: options.environment)
        let loaded = ConfigLoader(paths: paths).load()
        for diagnostic in loaded.diagnostics where diagnostic.severity == .warning {
            logger.warning(diagnostic.description)
        }
        guard loaded.errors.isEmpty else {
            throw StartupError(
                loaded.errors.map(\.description).joined(separator: "\n")
                    + "\nraind did not start: fix the configuration (check it with 'raind --check-config')")
        }
        do {
            loop = try EventLoop()
        } catch {
            throw StartupError("cannot create the event loop: \(error)")
        }
        context = DaemonContext(loop: loop, configuration: loaded.configuration, paths: paths, logger: logger)

        try Self.checkOwnDirectories(paths)
        let store = StateStore(path: paths.stateFile)
        for name in FileIO.removeLeftoverTemporaries(in: paths.stateDirectory) {
            logger.info("removed \(paths.stateDirectory)/\(name), left over from an interrupted write")
        }
        let state = try Self.loadState(store, loop: loop, environment: options.environment, logger: logger)
        forecasts = ForecastStore(
            cache: ForecastCache(directory: paths.cacheDirectory, logger: logger.scoped("cache")))
        publisher = Publisher(
            maximumQueuedBytes: VarlinkServer.Limits().maximumQueuedBytes, forecasts: forecasts, clock: loop,
            events: events, logger: logger.scoped("publish"))
        let places = PlaceLookup(loop: loop, environment: options.environment, logger: logger.scoped("places"))
        let http: HTTPClient
        do {
            http = try HTTPClient(
                loop: loop,
                userAgent: RaindVersion.userAgent(),
                logger: logger.scoped("http"))
            refresher = try Refresher(
                context: context, http: http, store: forecasts, events: events,
                places: state.places, settings: state.settings)
            alerts = try AlertWatcher(
                context: context, http: http, store: forecasts, events: events, books: refresher,
                languages: options.mode == .user ? nil : AlertWatcher.languages(options.environment))
            air = try AirWatcher(
                context: context, http: http, store: forecasts, events: events, budget: refresher)
            observations = try ObservationWatcher(
                context: context, http: http, books: refresher, cache: forecasts.cache, events: events)
            accuracy = try AccuracyKeeper(
                context: context, http: http, refresher: refresher, observations: observations)
        } catch {
            throw StartupError("cannot set up HTTP: \(error)")
        }
        // The selected place's cached data first, and the cache's leftovers
        // gone, before the socket exists: the first client to connect gets it
        // (the other places' are read in `run`, right after READY=1).
        refresher.restore(othersLater: true)
        // The NWS's /points the station search keeps gives the place's alert zones too (docs/ALERTS.md).
        alerts.moreLookups = { [weak observations] id in observations?.lookup(of: id).map { [$0] } ?? [] }
        // Of what fell due while asleep or offline, the places a person looks
        // at are asked at once, the others spread: one rule (`PlaceAttention`).
        alerts.attention = { [weak refresher = self.refresher] in refresher?.placesLookedAt() }
        air.attention = { [weak refresher = self.refresher] in refresher?.placesLookedAt() }
        alerts.restore(state.places.locations)
        if options.mode == .user {
            let session = SessionLanguages(
                connect: { [loop] () throws(BusError) in try BusConnection(.user, loop: loop) },
                ownEnvironment: options.environment, logger: logger.scoped("alerts"))
            alerts.sessionLanguages = session
            session.read { [weak alerts] in alerts?.languagesChanged($0) }
        }
        air.restore(state.places, othersLater: true)
        observations.restore(state.places.locations)
        accuracy.restore(state.places.locations, forecasts: forecasts)
        let systemBus: Result<BusConnection, BusError>
        do {
            systemBus = .success(try BusConnection(.system, loop: loop))
        } catch {
            systemBus = .failure(error)
        }
        let geoclue = GeoClueClient(
            loop: loop, bus: try? systemBus.get(), timeout: 10, logger: logger.scoped("geoclue"))
        service = WeatherService(
            context: context, places: places, geocoder: OnlineGeocoder(http: http, logger: logger.scoped("geocoder")),
            geoclue: geoclue, refresher: refresher, state: state, store: store, publisher: publisher,
            events: events, alerts: alerts, observations: observations)
        publisher.statusSource = service
        service.accuracy = accuracy
        logind = LogindWatcher(
            bus: systemBus,
            session: options.mode == .user ? LogindWatcher.sessionToWatch(environment: options.environment) : nil,
            logger: logger.scoped("logind"),
            onResume: { [events] in events.emit(.becameActive(reason: DaemonEvent.resumeReason)) },
            onSessionActive: { [events] in events.emit(.becameActive(reason: "session active")) })
        do {
            let monitor = try NetworkMonitor(loop: loop, logger: logger.scoped("network")) { [events] hasRoute in
                events.emit(.networkChanged(hasRoute: hasRoute))
            }
            if case .success(let bus) = systemBus {
                do {
                    try monitor.watchNetworkServices(on: bus)
                } catch {
                    logger.debug("network managers not watched: \(error)")
                }
            }
            // Start offline when there is no route; starting online needs no change.
            if !monitor.currentlyHasRoute { refresher.setNetworkUp(false) }
            network = monitor
        } catch {
            logger.warning(
                "cannot watch the network (\(error)); raind assumes it is up and learns otherwise from requests")
            network = nil
        }

        if let activated = manager.activatedSocket() {
            listener = activated
            ownedSocketPath = nil
            socketPath = "(activated)"
        } else {
            let path = options.socketPath ?? loaded.configuration.socketPath ?? paths.socket
            listener = try Self.bindSocket(path: path, mode: options.mode, logger: logger)
            ownedSocketPath = path
            socketPath = path
        }

        let limits = Self.socketLimits(
            loaded.configuration, descriptorLimit: Self.raiseDescriptorLimit(), logger: logger)
        server = VarlinkServer(
            loop: loop, listener: listener, limits: limits,
            info: .init(
                version: RaindVersion.string, interfaces: [WeatherInterface.name: WeatherInterface.description]),
            logger: logger.scoped("socket"),
            // Only the system instance lets group `raind` change things: a user
            // instance does not ask the name service (which may load a module
            // and walk the userdb directories) for a group it never reads.
            policy: AccessPolicy(
                mode: options.mode, ownUID: ProcessIdentity.userID,
                raindGroup: options.mode == .system ? Self.groupID(named: "raind") : nil),
            handler: service)
        if options.mode == .user {
            notifier = DesktopNotifier(
                connect: { [loop] () throws(BusError) in try BusConnection(.user, loop: loop) },
                configuration: { [context] in context.configuration }, now: { [context] in context.clock.wallNow },
                recordPath: paths.cacheDirectory + "/notifications.json", places: state.places, events: events,
                logger: logger.scoped("notify"))
        } else {
            notifier = nil
        }
        follower = PlaceFollower(
            loop: loop, systemBus: systemBus, places: places, events: events, logger: logger.scoped("follow"))

        // Who acts on what: the event table (Events/EventTable.swift).
        events.connect(
            EventParts(
                notifier: notifier, publisher: publisher, refresher: refresher, alerts: alerts, air: air,
                observations: observations, accuracy: accuracy, service: service, daemon: self))
        // Rain soon is a use of the nowcast: its short refreshes go on
        // without subscribers only while it can be shown.
        notifier?.announceRainSoonInterest()
    }

    /// Descriptors raind keeps for itself beyond its clients: the listener,
    /// the loop, signals, timers, HTTP transfers, D-Bus, netlink, files.
    static let descriptorsForOwnUse = 64

    /// Raises the soft RLIMIT_NOFILE to the hard limit (the soft one is often
    /// 1024 for compatibility with select(), which raind does not use) and
    /// returns the soft limit in force.
    static func raiseDescriptorLimit() -> Int {
        guard var limit = try? ResourceLimit.current(.openFiles) else { return 1024 }
        if limit.soft < limit.hard {
            let raised = ResourceLimit(soft: limit.hard, hard: limit.hard)
            if (try? ResourceLimit.set(.openFiles, to: raised)) != nil { limit = raised }
        }
        return limit.soft > UInt64(Int.max) ? Int.max : Int(limit.soft)
    }

    /// The socket limits from the configuration, with MaxClients kept below
    /// the descriptor limit so raind never runs out while admitting clients.
    static func socketLimits(
        _ configuration: Configuration, descriptorLimit: Int, logger: Logger
    ) -> VarlinkServer.Limits {
        var limits = VarlinkServer.Limits()
        let affordable = max(1, descriptorLimit - descriptorsForOwnUse)
        if configuration.maxClients > affordable {
            logger.warning(
                "[Socket] MaxClients=\(configuration.maxClients) is above what the descriptor limit (\(descriptorLimit)) allows; using \(affordable). Raise LimitNOFILE= to allow more"
            )
        }
        limits.maximumClients = min(configuration.maxClients, affordable)
        limits.maximumClientsPerUser = configuration.maxClientsPerUser
        limits.idleTimeout = Double(configuration.idleTimeoutSeconds)
        limits.slowClientTimeout = Double(configuration.slowClientTimeoutSeconds)
        return limits
    }

    /// The group's id; nil when there is none, or the name service cannot say.
    static func groupID(named name: String) -> gid_t? {
        (try? UserDatabase.groupID(named: name)) ?? nil
    }

    /// Refuses to start on a state or cache directory someone else could
    /// write in (`FileIO.untrustedDirectoryReason`): what raind would read
    /// back from it could have been put there by them.
    static func checkOwnDirectories(_ paths: DaemonPaths) throws(StartupError) {
        let owner = ProcessIdentity.effectiveUserID
        for (role, directory, variable) in [
            ("state", paths.stateDirectory, "STATE_DIRECTORY"), ("cache", paths.cacheDirectory, "CACHE_DIRECTORY"),
        ] {
            guard let reason = FileIO.untrustedDirectoryReason(directory, owner: owner) else { continue }
            throw StartupError(
                "the \(role) directory \(directory) is not raind's own: \(reason). Another user could replace the files raind reads back from it. Make it a directory of user \(owner) that only it can write (chown \(owner) \(directory); chmod go-w \(directory)), or give raind another one with \(variable)=, and start raind again"
            )
        }
    }

    static func loadState(
        _ store: StateStore, loop: EventLoop, environment: [String: String], logger: Logger
    )
        throws(StartupError) -> PersistentState
    {
        let fresh = PersistentState(settings: Settings(units: UnitSystem.defaultFor(environment: environment)))
        do {
            switch try store.load(now: loop.wallNow) {
            case .missing:
                return fresh
            case .loaded(let state):
                return state
            case .quarantined(let reason, let keptAt):
                logger.error(
                    "state file \(store.path) could not be read (\(reason)); it was kept as \(keptAt) and raind starts with no places. Repair it and move it back while raind is stopped, or remove it"
                )
                return fresh
            case .repaired(let state, let problems, let keptAt):
                for problem in problems { logger.error("state file \(store.path): \(problem)") }
                logger.error(
                    "state file \(store.path) held invalid values (above); raind starts without them and kept the original as \(keptAt)"
                )
                return state
            }
        } catch {
            throw StartupError("cannot read the state file: \(error); check its permissions")
        }
    }

    static func bindSocket(path: String, mode: DaemonPaths.Mode, logger: Logger) throws(StartupError) -> FileDescriptor
    {
        let directory = FileIO.parentDirectory(of: path)
        do {
            try FileIO.makeDirectories(directory, mode: mode == .user ? 0o700 : 0o755)
        } catch {
            throw StartupError("cannot create the socket directory: \(error)")
        }
        if FileIO.exists(path) {
            if UnixSocket.isAnswering(path: path) {
                throw StartupError(
                    "another raind already answers at \(path); stop it first, or give this one another socket with --socket PATH"
                )
            }
            logger.info("removing stale socket \(path)")
            try? FileIO.removeFile(path)
        }
        do {
            // The system socket lets everyone connect, like systemd's own Varlink
            // sockets: who may change things is decided per peer (`access(for:)`).
            return try UnixSocket.listen(path: path, mode: mode == .user ? 0o600 : 0o666)
        } catch {
            throw StartupError("cannot listen on \(path): \(error)")
        }
    }

    /// Serves until SIGTERM or SIGINT; returns the process exit code.
    public func run() -> Int32 {
        do {
            try server.start()
            for signal in [SIGTERM, SIGINT] {
                signalSources.append(
                    try loop.onSignal(signal, name: "stop signal \(signal)") { [weak self] in self?.shutdown() })
            }
            signalSources.append(try loop.onSignal(SIGHUP, name: "SIGHUP reload") { [weak self] in self?.reload() })
            signalSources.append(
                try loop.onSignal(SIGUSR1, name: "SIGUSR1 refresh") { [events] in
                    events.emit(.becameActive(reason: "SIGUSR1"))
                })
            signalSources.append(try loop.onSignal(SIGPIPE, name: "SIGPIPE ignored") {})
        } catch {
            logger.error("cannot start serving: \(error)")
            return 1
        }
        loop.enableWatchdog()
        logger.info(
            "raind \(RaindVersion.string) serving on \(socketPath) (\(context.configuration.providerSetting))")
        lastStatus = statusLine()
        manager.ready(status: lastStatus)
        // The other places' cached forecasts and air, and what their station
        // searches settled on, before the loop runs: nothing can ask for
        // them, or fetch them, before they are read.
        refresher.restoreOthers()
        air.restoreOthers()
        observations.restoreKept()
        updateStatus()
        // Places without fresh data are fetched now that the socket serves.
        events.emit(.becameActive(reason: "start"))
        follower.update(following: service.state.places.following)
        let code: Int32
        do {
            code = try loop.run()
        } catch {
            logger.error("event loop failed: \(error)")
            return 1
        }
        return code
    }

    /// "3 places, updated 4 min ago, online": the STATUS= line a person reads in `systemctl status`.
    func statusLine() -> String {
        let count = service.state.places.locations.count
        var parts = ["\(count) place\(count == 1 ? "" : "s")"]
        if let last = refresher.lastSuccess {
            parts.append("updated " + AgeText.describe(ageSeconds: max(0, loop.wallNow - last)))
        }
        parts.append(refresher.isOnline ? "online" : "offline")
        return parts.joined(separator: ", ")
    }

    private var lastStatus = ""

    func updateStatus() {
        let line = statusLine()
        guard line != lastStatus else { return }
        lastStatus = line
        manager.status(line)
    }

    /// SIGHUP: reads the configuration again, keeping state and clients. A
    /// configuration with errors is refused and the old one stays in force.
    private func reload() {
        manager.reloading()
        let before = service.status()
        let loaded = ConfigLoader(paths: context.paths).load()
        for diagnostic in loaded.diagnostics {
            logger.log(diagnostic.severity == .error ? .error : .warning, diagnostic.description)
        }
        if loaded.errors.isEmpty {
            if loaded.configuration.socketPath != context.configuration.socketPath
                || loaded.configuration.maxClients != context.configuration.maxClients
                || loaded.configuration.maxClientsPerUser != context.configuration.maxClientsPerUser
                || loaded.configuration.idleTimeoutSeconds != context.configuration.idleTimeoutSeconds
                || loaded.configuration.slowClientTimeoutSeconds != context.configuration.slowClientTimeoutSeconds
            {
                logger.notice("[Socket] changes take effect when raind restarts")
            }
            context.configuration = loaded.configuration
            logger.info("configuration reloaded")
        } else {
            logger.error(
                "configuration not reloaded: \(loaded.errors.count) error(s); the previous configuration stays in force"
            )
        }
        // Changed or not: the key is read again, RainSoon= may have changed.
        events.emit(.configurationReloaded)
        // The interval or StaleAfterMinutes= in force changed: every subscriber reads them anew.
        let after = service.status()
        if before.refreshMinutes != after.refreshMinutes || before.staleAfterMinutes != after.staleAfterMinutes {
            events.emit(.published(.settingsChanged(service.state.settings)))
        }
        lastStatus = ""
        manager.ready(status: statusLine())
    }

    private func shutdown() {
        logger.info("stopping")
        manager.stopping()
        refresher.cancelAll()
        alerts.cancelAll()
        air.cancelAll()
        observations.cancelAll()
        accuracy.cancelAll()
        server.stop()
        // An activated socket belongs to the service manager and must stay.
        if let ownedSocketPath { try? FileIO.removeFile(ownedSocketPath) }
        loop.exit(code: 0)
    }
}

/// The status line follows the state and the weather; the followed place's
/// watch follows the state (the event table, `DaemonEvents.connect`).
extension Daemon {
    func stateChanged(to new: PersistentState) {
        updateStatus()
        follower.update(following: new.places.following)
    }
}
