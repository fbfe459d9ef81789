import Glibc

/// A failed system call: which call, on what, and errno. Raised by the wrapper
/// layer only; no bare status code escapes it.
public struct SystemError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var errno: Int32
    /// What the call was acting on (a path, a socket), when that helps the reader.
    public var subject: String

    public init(_ call: String, errno: Int32 = Glibc.errno, subject: String = "") {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// From a libsystemd return value, which is `-errno` on failure.
    public init(_ call: String, negativeErrno: Int32, subject: String = "") {
        self.init(call, errno: -negativeErrno, subject: subject)
    }

    public var message: String { String(cString: strerror(errno)) }

    public var description: String {
        subject.isEmpty ? "\(call): \(message)" : "\(call) \(subject): \(message)"
    }
}

/// Calls a libc function returning -1 on error, retrying on EINTR.
@discardableResult
public func retryingOnInterrupt<T: BinaryInteger>(
    _ call: String, subject: String = "", _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        if errno == EINTR { continue }
        throw SystemError(call, subject: subject)
    }
}

/// Checks a libsystemd return value (`-errno` on failure).
@discardableResult
public func checkSystemd(_ call: String, subject: String = "", _ result: Int32) throws(SystemError) -> Int32 {
    if result < 0 { throw SystemError(call, negativeErrno: result, subject: subject) }
    return result
}
