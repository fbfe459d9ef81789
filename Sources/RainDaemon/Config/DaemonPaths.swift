import RainCore
import RainSystem

/// Where a raind instance keeps its socket, state, cache and configuration
/// (docs/FILES.md). systemd's `$STATE_DIRECTORY` and friends
/// win over the XDG variables, which win over the defaults.
public struct DaemonPaths: Equatable, Sendable {
    public enum Mode: Sendable { case user, system }

    public var mode: Mode
    public var socket: String
    public var stateDirectory: String
    public var cacheDirectory: String
    public var configFile: String
    public var configDropInDirectory: String
    public var credentialsDirectory: String?

    public var stateFile: String { stateDirectory + "/state.json" }

    public init(mode: Mode, environment: [String: String]) {
        self.mode = mode
        let env = { (key: String) -> String? in
            guard let value = environment[key], value.hasPrefix("/") else { return nil }
            // systemd passes colon-separated lists when several directories are set; the first is ours.
            return String(value.split(separator: ":").first ?? Substring(value))
        }
        let home = env("HOME") ?? "/"
        switch mode {
        case .system:
            socket = env("RUNTIME_DIRECTORY").map { $0 + "/raind.sock" } ?? SocketLocator.systemSocket
            stateDirectory = env("STATE_DIRECTORY") ?? "/var/lib/raind"
            cacheDirectory = env("CACHE_DIRECTORY") ?? "/var/cache/raind"
            configFile = (env("CONFIGURATION_DIRECTORY") ?? "/etc/raind") + "/raind.conf"
        case .user:
            socket =
                env("RUNTIME_DIRECTORY").map { $0 + "/raind.sock" }
                ?? SocketLocator.userSocket(environment: environment, uid: ProcessIdentity.userID)
            stateDirectory = env("STATE_DIRECTORY") ?? (env("XDG_STATE_HOME") ?? home + "/.local/state") + "/raind"
            cacheDirectory = env("CACHE_DIRECTORY") ?? (env("XDG_CACHE_HOME") ?? home + "/.cache") + "/raind"
            configFile =
                (env("CONFIGURATION_DIRECTORY") ?? (env("XDG_CONFIG_HOME") ?? home + "/.config") + "/raind")
                + "/raind.conf"
        }
        configDropInDirectory = configFile + ".d"
        credentialsDirectory = env("CREDENTIALS_DIRECTORY")
    }
}
