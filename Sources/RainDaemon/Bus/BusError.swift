import RainSystem

/// Why a D-Bus operation failed: a local sd-bus call returned `-errno`, the peer
/// answered with a D-Bus error, or a reply did not have the expected shape.
public enum BusError: Error, Equatable, CustomStringConvertible {
    /// A libsystemd call failed; carries the call and errno.
    case system(SystemError)
    /// The peer (or the bus itself) answered with an error reply,
    /// e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    case remote(name: String, message: String)
    /// A reply or signal carried something other than what the protocol promises.
    case unexpectedReply(what: String, expected: String, got: String)

    /// Well-known D-Bus error names, declared once.
    public enum Name {
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        public static let authFailed = "org.freedesktop.DBus.Error.AuthFailed"
        public static let interactiveAuthorizationRequired =
            "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired"
        /// sd-bus synthesizes this when a call's timeout expires or the connection drops.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    }

    /// From a libsystemd return value (`-errno`).
    static func call(_ call: String, _ result: Int32, subject: String = "") -> BusError {
        .system(SystemError(call, negativeErrno: result, subject: subject))
    }

    /// The D-Bus error name, for remote errors.
    public var remoteName: String? {
        if case .remote(let name, _) = self { return name }
        return nil
    }

    /// Nobody owns the destination name and it cannot be activated.
    public var isServiceMissing: Bool {
        remoteName == Name.serviceUnknown || remoteName == Name.nameHasNoOwner
    }

    /// The peer refused the caller.
    public var isAccessDenied: Bool {
        remoteName == Name.accessDenied || remoteName == Name.authFailed
            || remoteName == Name.interactiveAuthorizationRequired
            || (remoteName == nil && systemErrno == .permissionDenied)
    }

    /// No answer in time (sd-bus's own timeout, or the peer's).
    public var isTimeout: Bool {
        remoteName == Name.noReply || remoteName == Name.timeout || systemErrno == .timedOut
    }

    private var systemErrno: Errno? {
        if case .system(let error) = self { return error.errno }
        return nil
    }

    public var description: String {
        switch self {
        case .system(let error): return error.description
        case .remote(let name, let message): return message.isEmpty ? name : "\(name): \(message)"
        case .unexpectedReply(let what, let expected, let got):
            return "\(what): expected '\(expected)', got '\(got)'"
        }
    }
}

/// Checks a libsystemd return value (`-errno` on failure) in the bus wrapper layer.
@discardableResult
func checkBus(_ call: String, subject: String = "", _ result: Int32) throws(BusError) -> Int32 {
    if result < 0 { throw BusError.call(call, result, subject: subject) }
    return result
}
