import RainSystem

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
    /// from two moments never interleave.
    public static func standardError(_ text: String) {
        // stderr is gone: there is nowhere to say so.
        try? StandardStream.error.write(text)
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }
}
