import Glibc

/// An error number (errno(3)) as a typed value with named cases, so code
/// outside this module compares `error.errno == .noSuchFileOrDirectory`
/// without importing the C library. Only the numbers raind acts on are
/// named; any other is still carried, and `description` says what it
/// means in the C library's words (`strerror(3)`).
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// ENOENT: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// ENOTDIR: a part of the path is no directory.
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    /// EINTR: interrupted by a signal before it could finish.
    public static let interrupted = Errno(rawValue: EINTR)
    /// EAGAIN (EWOULDBLOCK): a non-blocking call would have had to wait.
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    /// EINVAL: an argument is invalid.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// EACCES: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// EPERM: the operation is not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// EEXIST: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// EFBIG: the file is too large.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// ELOOP: too many levels of symbolic links (or one met with O_NOFOLLOW).
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    /// ENAMETOOLONG: a file name is too long.
    public static let fileNameTooLong = Errno(rawValue: ENAMETOOLONG)
    /// EMSGSIZE: the message is too long.
    public static let messageTooLong = Errno(rawValue: EMSGSIZE)
    /// ENOBUFS: no buffer space available.
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    /// ENOMEM: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// EMFILE: the process has too many open files.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// ENFILE: the system has too many open files.
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    /// ENOTSOCK: the descriptor is not a socket.
    public static let notSocket = Errno(rawValue: ENOTSOCK)
    /// ECONNABORTED: the connection was aborted before it was accepted.
    public static let connectionAbort = Errno(rawValue: ECONNABORTED)
    /// ETIMEDOUT: the operation timed out.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// ERANGE: a result or buffer is out of range.
    public static let outOfRange = Errno(rawValue: ERANGE)
    /// EPIPE: the other end is closed.
    public static let brokenPipe = Errno(rawValue: EPIPE)

    /// What the number means, in the C library's words (`strerror(3)`).
    public var description: String { SystemCall.strerror(rawValue) }

    /// The calling thread's errno now. For the wrappers, which read it
    /// right after the call that set it.
    package static var current: Errno {
        get { Errno(rawValue: SystemCall.errno) }
        set { SystemCall.setErrno(newValue.rawValue) }
    }
}
