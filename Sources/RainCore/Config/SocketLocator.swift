/// Where raind's sockets are, computed from the environment alone so the
/// daemon and the client agree (docs/FILES.md, "Socket").
public enum SocketLocator {
    public static let systemSocket = "/run/raind/raind.sock"

    /// The user instance's socket: `$XDG_RUNTIME_DIR/raind/raind.sock`
    /// (`/run/user/UID` when the variable is unset).
    public static func userSocket(environment: [String: String], uid: UInt32) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(uid)"
        return runtime + "/raind/raind.sock"
    }

    /// The sockets a client tries, in order: `--socket`, `$RAIND_SOCKET`, the
    /// user socket, the system socket. An explicit choice is the only candidate.
    public static func clientCandidates(explicit: String?, environment: [String: String], uid: UInt32) -> [String] {
        if let explicit, !explicit.isEmpty { return [explicit] }
        if let fromEnvironment = environment["RAIND_SOCKET"], !fromEnvironment.isEmpty { return [fromEnvironment] }
        return [userSocket(environment: environment, uid: uid), systemSocket]
    }
}
