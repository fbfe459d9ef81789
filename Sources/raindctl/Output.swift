import RainCore
import RainSystem

/// Writes for the client: results to stdout, diagnostics to stderr.
///
/// Everything printed passes through here, and most of it came from the
/// daemon (names, messages, provider texts): control characters other than
/// line breaks and tabs are dropped, so no text can drive the terminal (an
/// ESC sequence, a BEL, a CR overwriting the line).
enum Output {
    static func line(_ text: String) {
        print(forTerminal(text.strippingControlCharacters(keepingLineBreaks: true)))
    }

    /// Whether the locale's character set is UTF-8; when it is not (`LANG=C`,
    /// Latin-1), everything printed for people is plain ASCII (`AsciiText`).
    nonisolated(unsafe) static var utf8 = true

    /// `text` as this terminal can show it.
    static func forTerminal(_ text: String) -> String { utf8 ? text : AsciiText.degrade(text) }

    /// A reply as one line of JSON (`--json`), straight from its encoding.
    static func json(_ value: some Encodable) {
        line(String(decoding: value.jsonBytes, as: UTF8.self))
    }

    /// A forecast view made from text already made plain (`Forecast.withPlainText`),
    /// printed as it is so raindctl's own colour codes reach the terminal.
    static func viewLine(_ text: String) {
        print(forTerminal(text))
    }

    static func error(_ text: String) {
        standardError("raindctl: \(text.strippingControlCharacters(keepingLineBreaks: true))\n")
    }

    /// Writes straight to file descriptor 2 (stderr is unbuffered anyway, and
    /// C's `stderr` is a global Swift 6 cannot prove safe).
    static func standardError(_ text: String) {
        flush()
        // Nowhere left to report a failure to report.
        try? StandardStream.error.write(forTerminal(text))
    }

    /// Block graphics when stdout is a terminal; colour too, unless `NO_COLOR`
    /// is set (no-color.org) or the terminal is `dumb`.
    static var graphics: TerminalGraphics {
        guard StandardStream.output.isTerminal, utf8 else { return .none }
        let color =
            (ProcessEnvironment.value(of: "NO_COLOR") ?? "").isEmpty && ProcessEnvironment.value(of: "TERM") != "dumb"
        return .blocks(color: color)
    }

    /// The terminal's width in columns when stdout is one (`TIOCGWINSZ`), or
    /// `COLUMNS`; nil for a pipe or a file, which take whole lines.
    static var columns: Int? {
        if StandardStream.output.isTerminal, let columns = StandardStream.output.terminalColumns { return columns }
        guard let given = ProcessEnvironment.value(of: "COLUMNS").flatMap({ Int($0) }), given > 0 else { return nil }
        return given
    }

    /// Flushes stdout now: a subscriber's reader must see each line at once.
    static func flush() { StandardStream.flushBufferedOutput() }

    /// The local wall-clock time as HH:MM:SS, stamped on each line `subscribe` prints.
    static func localClock(_ unixSeconds: Double) -> String {
        // The value came from the daemon: NaN or a huge number must not trap the conversion.
        let time = unixSeconds.isFinite ? min(max(unixSeconds, -1e13), 1e13).rounded(.down) : 0
        let local = CivilDateTime(unixSeconds: time, utcOffsetSeconds: SystemClock.localUTCOffset(at: Int(time)))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(local.hour)):\(two(local.minute)):\(two(local.second))"
    }

    static func now() -> Double {
        SystemClock.realtime.now()
    }

    /// Pads columns to their widest cell, in terminal columns (`DisplayWidth`:
    /// a Japanese or Chinese label takes two a character).
    static func table(_ rows: [[String]], separator: String = "  ") -> [String] {
        // A closure, not `\.count`: a key path is built at run time, the first one in a process at 50,000 instructions.
        guard let columns = rows.map({ $0.count }).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.columns(cell)) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1
                    ? cell : cell + String.spaces(widths[index] - DisplayWidth.columns(cell))
            }.joined(separator: separator)
        }
    }

    /// A daemon error as a person reads it: its message, and what to type
    /// next where raindctl has a command for it (the daemon names no flags).
    static func describe(errorName: String, parameters: JSON, instance: DaemonSocket.Instance) -> String {
        let shortName = errorName.split(separator: ".").last.map(String.init) ?? errorName
        if errorName.hasPrefix(WeatherInterface.name + "."), let name = WeatherErrorName(rawValue: shortName) {
            guard let decoded = try? WireDecoder.decode(name.parametersType, from: parameters, context: "error") else {
                return "\(shortName) \(parameters.serialized())"
            }
            return decoded.localizedMessage + (hint(for: name, instance: instance).map { " (\($0))" } ?? "")
        }
        if errorName == VarlinkServiceError.invalidParameter.qualifiedName,
            let invalid = try? WireDecoder.decode(VarlinkServiceError.InvalidParameter.self, from: parameters)
        {
            return tr("invalid parameter '{parameter}'", ["parameter": invalid.parameter])
                + (invalid.reason.map { ": \($0)" } ?? "")
        }
        return "\(shortName) \(parameters.serialized())"
    }

    static func hint(for error: WeatherErrorName, instance: DaemonSocket.Instance) -> String? {
        switch error {
        case .locationNotFound: return tr("'raindctl list' shows the saved places and their ids")
        case .locationIsSelected: return tr("'raindctl set-location PLACE' selects another")
        case .tooManyLocations: return tr("'raindctl list' shows the saved places")
        case .placeNotFound: return tr("a place missing from the data can be added with --coords LAT,LON --name NAME")
        case .ambiguousPlace: return tr("'raindctl search QUERY' lists candidates with their GeoNames ids")
        case .permissionDenied:
            // A user instance's refusal already says to use one's own instance.
            guard instance == .system else { return nil }
            return tr("to join group raind: 'sudo usermod -aG raind $USER', then log in again")
        default: return nil
        }
    }
}
