import Glibc

/// Log lines to stderr with `<N>` priority prefixes, which journald reads as
/// levels. Each line carries a subsystem tag. Never pass a secret here.
public struct Logger: Sendable {
    public enum Level: Int32, Comparable, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public let subsystem: String
    public let threshold: Level

    public init(subsystem: String, threshold: Level = .info) {
        self.subsystem = subsystem
        self.threshold = threshold
    }

    public func scoped(_ subsystem: String) -> Logger { Logger(subsystem: subsystem, threshold: threshold) }

    public func log(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        Self.standardError("<\(level.rawValue)>\(subsystem): \(message)\n")
    }

    /// Writes `text` to stderr with write(2): one call per line, so lines
    /// from two moments never interleave (C's `stderr` FILE is a global that
    /// Swift 6 cannot prove safe).
    public static func standardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // stderr is gone: there is nowhere to say so
            }
            bytes = bytes.dropFirst(written)
        }
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }
}
