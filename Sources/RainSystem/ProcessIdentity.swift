import Glibc

/// Who the running process is. These calls cannot fail.
public enum ProcessIdentity {
    /// The real user id (`getuid(2)`).
    public static var userID: uid_t { SystemCall.getuid() }

    /// The process id (`getpid(2)`).
    public static var processID: pid_t { SystemCall.getpid() }
}
