import RainCore

/// The user instance's reader's languages for the alert services that write
/// in several (docs/ALERTS.md, "Which language"): the session's, as the user
/// manager's environment on the session bus names them (`LANG`, `LC_ALL`,
/// `LC_MESSAGES`, set by `systemctl --user set-environment` or a login's
/// `import-environment`), read again before each round of polls, so a
/// language set after raind started is the next poll's. `LANGUAGE` in
/// raind's own environment comes first, as for the notifications. Without
/// a user manager on the bus (raind started by hand), raind's own
/// environment, as the system instance always uses.
final class SessionLanguages {
    private let connect: () throws(BusError) -> BusConnection
    private let ownEnvironment: [String: String]
    private let logger: Logger
    private var connection: BusConnection?
    private var inFlight: BusSlot?
    private var waiting: [([String]) -> Void] = []
    /// Whether it was logged that the user manager could not be asked.
    private var toldNoManager = false

    init(connect: @escaping () throws(BusError) -> BusConnection, ownEnvironment: [String: String], logger: Logger) {
        self.connect = connect
        self.ownEnvironment = ownEnvironment
        self.logger = logger
    }

    /// Asks the user manager and calls `then` with the languages, most
    /// preferred first; always called, with raind's own when the manager
    /// cannot be asked. Reads already under way are joined.
    func read(then: @escaping ([String]) -> Void) {
        waiting.append(then)
        guard inFlight == nil else { return }
        do throws(BusError) {
            let bus: BusConnection
            if let connection {
                bus = connection
            } else {
                bus = try connect()
            }
            connection = bus
            inFlight = try bus.getProperty(
                destination: DesktopNotifier.manager.name, path: DesktopNotifier.manager.path,
                interface: DesktopNotifier.manager.interface, name: "Environment",
                timeout: DesktopNotifier.callTimeout
            ) { [weak self] result in
                guard let self else { return }
                self.inFlight = nil
                switch result {
                case .success(let value):
                    self.answer(DesktopNotifier.localeVariables(of: value))
                case .failure(let error):
                    // A bus that went away is connected again at the next read.
                    self.connection = nil
                    self.answer(nil, because: "\(error)")
                }
            }
        } catch {
            connection = nil
            answer(nil, because: "\(error)")
        }
    }

    private func answer(_ session: [String: String]?, because problem: String? = nil) {
        if let problem, !toldNoManager {
            logger.info("no user manager's environment (\(problem)): alert texts in raind's own languages")
            toldNoManager = true
        } else if session != nil {
            toldNoManager = false
        }
        let languages = Self.languages(session: session, own: ownEnvironment)
        let calls = waiting
        waiting = []
        for call in calls { call(languages) }
    }

    /// The languages of the session's locale variables (nil: none read),
    /// after those of raind's own `LANGUAGE`; raind's own variables alone
    /// when the session names no locale.
    static func languages(session: [String: String]?, own: [String: String]) -> [String] {
        guard let session else { return AlertWatcher.languages(own) }
        var environment = session
        environment["LANGUAGE"] = own["LANGUAGE"]
        return AlertWatcher.languages(environment)
    }
}
