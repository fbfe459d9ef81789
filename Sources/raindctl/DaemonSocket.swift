import RainCore
import RainSystem

/// A socket raindctl may try, and which raind instance answers there, so that
/// messages can say how to start that instance or who may change it.
struct DaemonSocket: Equatable {
    enum Instance: Equatable {
        /// `systemctl --user start raind`: `$XDG_RUNTIME_DIR/raind/raind.sock`.
        case user
        /// `systemctl start raind`: `/run/raind/raind.sock`.
        case system
        /// Any other path, named with `--socket` or `$RAIND_SOCKET`.
        case named
    }

    let path: String
    let instance: Instance

    /// The sockets to try, in order (SocketLocator.clientCandidates: `--socket`,
    /// `$RAIND_SOCKET`, the user socket, the system socket), each labelled.
    static func candidates(explicit: String?, environment: [String: String], uid: UInt32) -> [DaemonSocket] {
        let userSocket = SocketLocator.userSocket(environment: environment, uid: uid)
        return SocketLocator.clientCandidates(explicit: explicit, environment: environment, uid: uid).map { path in
            let instance: Instance =
                path == SocketLocator.systemSocket ? .system : path == userSocket ? .user : .named
            return DaemonSocket(path: path, instance: instance)
        }
    }

    /// What a person reads when no candidate could be connected to: where
    /// raindctl looked, why each failed, and how to start what it looked for.
    static func unreachableMessage(_ failures: [(socket: DaemonSocket, errno: Errno)]) -> String {
        let reasons = failures.map { failure in
            let path = failure.socket.path
            let error = SystemError("connect", errno: failure.errno).message
            switch failure.socket.instance {
            case .user: return tr("no user instance at {path} ({error})", ["path": path, "error": error])
            case .system: return tr("no system instance at {path} ({error})", ["path": path, "error": error])
            case .named: return tr("nothing at {path} ({error})", ["path": path, "error": error])
            }
        }
        var advice: [String] = []
        for failure in failures {
            switch (failure.socket.instance, failure.errno) {
            case (.system, .permissionDenied):
                advice.append(
                    tr(
                        "the system socket should let everyone connect (SocketMode=0666 in raind.socket); check 'systemctl cat raind.socket' for an override"
                    ))
            case (.user, .permissionDenied), (.named, .permissionDenied):
                advice.append(
                    tr(
                        "{path} is not yours to use; run your own raind with 'systemctl --user start raind'",
                        ["path": failure.socket.path]))
            case (.user, _):
                advice.append(tr("start your own with 'systemctl --user start raind' (or 'raind' in a terminal)"))
            case (.system, _):
                advice.append(tr("start the machine's with 'sudo systemctl start raind'"))
            case (.named, _):
                advice.append(tr("start one there with 'raind --socket {path}'", ["path": failure.socket.path]))
            }
        }
        let alternatives = failures.count > 1 ? tr("; or name a socket with --socket PATH or RAIND_SOCKET.") : "."
        let nextSteps = advice.joined(separator: "; ") + alternatives
        return tr("cannot reach raind: {reasons}.", ["reasons": reasons.joined(separator: ", ")]) + "\n"
            + nextSteps.readerCapitalized  // Turkish: "i" starts "İ" (ReaderCase)
    }
}
