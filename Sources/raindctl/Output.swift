import Glibc
import RainCore

/// Writes for the client: results to stdout, diagnostics to stderr.
///
/// Everything printed passes through here, and most of it came from the
/// daemon (names, messages, provider texts): control characters other than
/// line breaks and tabs are dropped, so no text can drive the terminal (an
/// ESC sequence, a BEL, a CR overwriting the line).
enum Output {
    static func line(_ text: String) {
        print(text.strippingControlCharacters(keepingLineBreaks: true))
    }

    static func error(_ text: String) {
        fputs("raindctl: \(text.strippingControlCharacters(keepingLineBreaks: true))\n", stderr)
    }

    /// Flushes stdout now: a subscriber's reader must see each line at once.
    static func flush() { fflush(stdout) }

    /// "4 min ago"-style ages for the client's own lines.
    static func localClock(_ unixSeconds: Double) -> String {
        // The value came from the daemon: NaN or a huge number must not trap the conversion.
        var time = time_t(unixSeconds.isFinite ? min(max(unixSeconds, -1e15), 1e15) : 0)
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Pads columns to their widest cell (by character count).
    static func table(_ rows: [[String]], separator: String = "  ") -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: separator)
        }
    }

    /// A daemon error as a person reads it: its message, or its name and parameters.
    static func describe(errorName: String, parameters: JSON) -> String {
        let shortName = errorName.split(separator: ".").last.map(String.init) ?? errorName
        if let message = parameters["message"]?.stringValue { return message }
        if shortName == "InvalidParameter" {
            let parameter = parameters["parameter"]?.stringValue ?? "?"
            let reason = parameters["reason"]?.stringValue.map { ": \($0)" } ?? ""
            return "invalid parameter '\(parameter)'\(reason)"
        }
        if let reason = parameters["reason"]?.stringValue { return "\(shortName): \(reason)" }
        return "\(shortName) \(parameters.serialized())"
    }
}
