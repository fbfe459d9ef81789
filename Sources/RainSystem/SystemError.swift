import Glibc

/// A failed system call: which call, on what, and errno. Raised by the wrapper
/// layer only; no bare status code escapes it. `call` names the C call (`open`,
/// `poll`), so a message says which one failed.
public struct SystemError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var errno: Errno
    /// What the call was acting on (a path, a socket), when that helps the reader.
    public var subject: String

    public init(_ call: String, errno: Errno, subject: String = "") {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// From a libsystemd return value, which is `-errno` on failure.
    public init(_ call: String, negativeErrno: Int32, subject: String = "") {
        self.init(call, errno: Errno(rawValue: -negativeErrno), subject: subject)
    }

    /// What errno means, in the C library's words (`strerror(3)`).
    public var message: String { errno.description }

    public var description: String {
        subject.isEmpty ? "\(call): \(message)" : "\(call) \(subject): \(message)"
    }
}

/// The one path of every wrapper's raw call: runs `body`, a C call that returns
/// -1 and sets errno on failure, and returns its value, or throws the error
/// named after `call`. A call interrupted by a signal (EINTR) is made again,
/// unless `retryOnInterrupt` is false: `close` (the descriptor is gone either
/// way) and `connect` (the connection goes on after the signal) are not.
///
/// `body` is called afresh each time, so a call whose argument depends on
/// time (`poll`'s timeout, `nanosleep`'s request) computes what remains.
/// `subject` is only built when the call fails. Package-wide, for the
/// wrappers that must stay out of raindctl (RainNameService).
@inline(__always)
package func valueOrError<Result: SignedInteger & FixedWidthInteger>(
    _ call: String, subject: @autoclosure () -> String = "", retryOnInterrupt: Bool = true, _ body: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Errno.current
        if retryOnInterrupt && code == .interrupted { continue }
        throw SystemError(call, errno: code, subject: subject())
    }
}

/// `valueOrError` for a call whose value is only success.
@inline(__always)
package func nothingOrError<Result: SignedInteger & FixedWidthInteger>(
    _ call: String, subject: @autoclosure () -> String = "", retryOnInterrupt: Bool = true, _ body: () -> Result
) throws(SystemError) {
    _ = try valueOrError(call, subject: subject(), retryOnInterrupt: retryOnInterrupt, body)
}

/// Checks a libsystemd return value (`-errno` on failure).
@discardableResult
public func checkSystemd(_ call: String, subject: String = "", _ result: Int32) throws(SystemError) -> Int32 {
    if result < 0 { throw SystemError(call, negativeErrno: result, subject: subject) }
    return result
}
