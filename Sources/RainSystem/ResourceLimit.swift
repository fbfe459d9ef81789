import Glibc

/// A resource limit of the process (`getrlimit(2)`, `setrlimit(2)`): the soft
/// limit in force, which the process may raise up to the hard one.
/// `UInt64.max` is RLIM_INFINITY.
public struct ResourceLimit: Equatable, Sendable {
    public var soft: UInt64
    public var hard: UInt64

    public init(soft: UInt64, hard: UInt64) {
        self.soft = soft
        self.hard = hard
    }

    /// The resources raind limits.
    public enum Resource: Sendable {
        /// RLIMIT_NOFILE: one more than the highest descriptor number it may open.
        case openFiles

        var raw: Int32 {
            switch self {
            case .openFiles: return Int32(RLIMIT_NOFILE.rawValue)
            }
        }

        var name: String {
            switch self {
            case .openFiles: return "RLIMIT_NOFILE"
            }
        }
    }

    /// The limit in force (`getrlimit(2)`).
    public static func current(_ resource: Resource) throws(SystemError) -> ResourceLimit {
        var limit = rlimit()
        try nothingOrError("getrlimit", subject: resource.name) { SystemCall.getrlimit(resource.raw, &limit) }
        return ResourceLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Sets the limit (`setrlimit(2)`): a soft limit above the hard one is
    /// EINVAL, a hard one raised without privilege EPERM.
    public static func set(_ resource: Resource, to limit: ResourceLimit) throws(SystemError) {
        var raw = rlimit(rlim_cur: rlim_t(limit.soft), rlim_max: rlim_t(limit.hard))
        try nothingOrError("setrlimit", subject: resource.name) { SystemCall.setrlimit(resource.raw, &raw) }
    }
}
