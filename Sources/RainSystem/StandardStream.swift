import Glibc

/// The process's standard streams (descriptors 0, 1 and 2), which it borrows
/// and never closes.
public enum StandardStream: Int32, Sendable {
    case input = 0
    case output = 1
    case error = 2

    /// Writes all of `text` with `write(2)`, each call taking what the stream
    /// takes, so a line written in one piece is never interleaved with another
    /// writer's (C's `stderr` FILE is a global Swift 6 cannot prove safe).
    public func write(_ text: String) throws(SystemError) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) -> Int in
                    try valueOrError("write", subject: name) { SystemCall.write(rawValue, raw.baseAddress, raw.count) }
                }
            }
            bytes = bytes.dropFirst(try written.get())
        }
    }

    /// Whether the stream is a terminal (`isatty(3)`); false too when it is closed.
    public var isTerminal: Bool { SystemCall.isatty(rawValue) == 1 }

    /// The terminal's width in columns (`TIOCGWINSZ`); nil when the stream
    /// is no terminal or the terminal does not say.
    public var terminalColumns: Int? { SystemCall.terminalColumns(rawValue) }

    /// Writes out what the C library holds in its stdio buffers (`fflush(NULL)`):
    /// Swift's `print` writes to stdout through them.
    public static func flushBufferedOutput() { SystemCall.fflushAll() }

    var name: String {
        switch self {
        case .input: return "stdin"
        case .output: return "stdout"
        case .error: return "stderr"
        }
    }
}
