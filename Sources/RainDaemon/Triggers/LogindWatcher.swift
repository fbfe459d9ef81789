/// The "became active" triggers logind tells about, on the system bus:
/// resume from suspend (`PrepareForSleep(false)`), and, for the user instance,
/// the login session being unlocked or becoming the active one.
///
/// Without a system bus, or without logind on it, the watcher logs one warning
/// and stays quiet: the daemon's other triggers (timers, network, clients)
/// work without it.
///
/// Signals are only accepted from logind's bus name (the bus daemon resolves
/// it to logind's connection), unless `sender` is nil, which lets a test play
/// logind with `busctl emit`. A forged signal could at most cause a "refresh
/// if stale", which the scheduler coalesces.
public final class LogindWatcher {
    public static let busName = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    /// How long to wait for logind's answers before giving up on the session.
    static let callTimeout = 5.0

    private let bus: BusConnection?
    private let sender: String?
    private let logger: Logger
    private let onResume: () -> Void
    private let onSessionActive: () -> Void
    private var slots: [BusSlot] = []
    private var ownerCheck: BusSlot?
    private var sessionLookup: BusSlot?
    private var warned = false

    /// The object path of the login session being watched, once logind named it.
    public private(set) var sessionPath: String?

    /// Starts watching at once.
    /// - Parameters:
    ///   - bus: the system bus connection, or why there is none.
    ///   - session: for the user instance, the login session to watch: an id
    ///     (`$XDG_SESSION_ID`), or "auto" for logind's choice (the caller's
    ///     session, else its user's graphical session); nil watches no session.
    ///   - sender: the bus name signals must come from; nil accepts any (tests).
    ///   - onResume: called on the loop after the machine resumed from suspend.
    ///   - onSessionActive: called on the loop when the session was unlocked or became active.
    public init(
        bus: Result<BusConnection, BusError>,
        session: String?,
        sender: String? = LogindWatcher.busName,
        logger: Logger,
        onResume: @escaping () -> Void,
        onSessionActive: @escaping () -> Void = {}
    ) {
        self.sender = sender
        self.logger = logger
        self.onResume = onResume
        self.onSessionActive = onSessionActive
        switch bus {
        case .failure(let error):
            self.bus = nil
            warnOnce(
                "no system bus (\(error)): resume and session triggers are off; timers and network triggers still work")
        case .success(let connection):
            self.bus = connection
            do throws(BusError) {
                try watchSleep(connection)
                if let session { try findSession(session, on: connection) }
            } catch {
                warnOnce(
                    "cannot watch logind on the \(connection.name) (\(error)): resume and session triggers are off")
            }
        }
    }

    /// The session to watch for the user instance: `$XDG_SESSION_ID` when raind
    /// runs inside a session, else "auto".
    public static func sessionToWatch(environment: [String: String]) -> String {
        if let id = environment["XDG_SESSION_ID"], !id.isEmpty { return id }
        return "auto"
    }

    private func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        logger.warning(message)
    }

    private func installed(_ what: String) -> (BusError?) -> Void {
        { [weak self] error in
            guard let error else { return }
            self?.warnOnce("the system bus refused to deliver \(what) (\(error)): that trigger is off")
        }
    }

    // MARK: Sleep

    private func watchSleep(_ connection: BusConnection) throws(BusError) {
        slots.append(
            try connection.subscribe(
                sender: sender, path: Self.managerPath, interface: Self.managerInterface, member: "PrepareForSleep",
                installed: installed("logind's PrepareForSleep")
            ) { [weak self] message in
                self?.prepareForSleep(message)
            })
        slots.append(
            try connection.onDisconnect { [weak self] in
                self?.warnOnce("lost the connection to the \(connection.name): resume and session triggers are off")
            })
        guard let sender else { return }
        ownerCheck = try connection.nameHasOwner(sender, timeout: Self.callTimeout) { [weak self] result in
            guard let self else { return }
            self.ownerCheck = nil
            switch result {
            case .success(true): break
            case .success(false):
                self.warnOnce(
                    "logind (\(sender)) is not on the \(connection.name): no resume or session triggers until it starts"
                )
            case .failure(let error):
                self.warnOnce("cannot ask the \(connection.name) about logind (\(error))")
            }
        }
    }

    private func prepareForSleep(_ message: BusMessage) {
        do throws(BusError) {
            let goingToSleep = try message.readBool()
            if goingToSleep {
                logger.debug("the machine is going to sleep")
            } else {
                logger.info("resumed from suspend")
                onResume()
            }
        } catch {
            logger.debug("ignored a malformed PrepareForSleep signal: \(error)")
        }
    }

    // MARK: Session

    private func findSession(_ session: String, on connection: BusConnection) throws(BusError) {
        sessionLookup = try connection.call(
            destination: Self.busName, path: Self.managerPath, interface: Self.managerInterface, member: "GetSession",
            arguments: [.string(session)], timeout: Self.callTimeout,
            read: { message throws(BusError) in try message.readObjectPath() }
        ) { [weak self] result in
            guard let self else { return }
            self.sessionLookup = nil
            switch result {
            case .success(let path):
                do throws(BusError) {
                    try self.watchSession(at: path, on: connection)
                } catch {
                    self.warnOnce("cannot watch login session \(path) (\(error)): session triggers are off")
                }
            case .failure(let error) where error.isServiceMissing:
                self.warnOnce("logind is not on the \(connection.name): no resume or session triggers")
            case .failure(let error):
                // Not an environment fault: raind may run outside any session (a
                // user service with no graphical login). Say so once, quietly.
                self.logger.info("no login session '\(session)' to watch (\(error)); session triggers are off")
            }
        }
    }

    private func watchSession(at path: String, on connection: BusConnection) throws(BusError) {
        slots.append(
            try connection.subscribe(
                sender: sender, path: path, interface: Self.sessionInterface, member: "Unlock",
                installed: installed("the session's Unlock signal")
            ) { [weak self] _ in
                self?.logger.info("the session was unlocked")
                self?.onSessionActive()
            })
        slots.append(
            try connection.subscribe(
                .propertiesChanged(sender: sender, path: path, interface: Self.sessionInterface),
                installed: installed("the session's property changes")
            ) { [weak self] message in
                self?.sessionPropertiesChanged(message)
            })
        sessionPath = path
        logger.debug("watching login session \(path)")
    }

    /// logind sends the new values of `Active` and `LockedHint` with the change
    /// (they are not "invalidates only" properties), so no extra Get is needed.
    private func sessionPropertiesChanged(_ message: BusMessage) {
        do throws(BusError) {
            _ = try message.readString()
            let changed = try message.readProperties()
            let becameActive = changed["Active"]?.boolValue == true
            let unlocked = changed["LockedHint"]?.boolValue == false
            guard becameActive || unlocked else { return }
            logger.info(becameActive ? "the session became active" : "the session was unlocked")
            onSessionActive()
        } catch {
            logger.debug("ignored a malformed PropertiesChanged signal: \(error)")
        }
    }
}
