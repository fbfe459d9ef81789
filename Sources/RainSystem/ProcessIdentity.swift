import Glibc

/// Who the running process is. These calls cannot fail.
public enum ProcessIdentity {
    /// The real user id (`getuid(2)`).
    public static var userID: uid_t { SystemCall.getuid() }

    /// The effective user id (`geteuid(2)`): whom files are checked against.
    public static var effectiveUserID: uid_t { SystemCall.geteuid() }

    /// The process id (`getpid(2)`).
    public static var processID: pid_t { SystemCall.getpid() }
}
