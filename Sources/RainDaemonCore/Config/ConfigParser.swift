import RainCore

/// One finding about a configuration file, located by file and line.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: Sendable { case warning, error }
    public var severity: Severity
    public var file: String
    public var line: Int
    public var message: String

    public init(severity: Severity, file: String, line: Int, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(file):\(line): \(severity == .error ? "error" : "warning"): \(message)"
    }
}

/// Applies configuration files in order (main file, then drop-ins in lexical
/// order); later assignments win. An empty value resets a key to its default.
public struct ConfigParser {
    public private(set) var configuration = Configuration()
    public private(set) var diagnostics: [ConfigDiagnostic] = []
    /// Findings listed one by one per file; the rest are counted in one
    /// line, so a file of 100,000 unknown keys logs a dozen lines at every
    /// reload, not 100,000.
    public static let listedPerFile = 10
    /// Findings of the file being applied: listed, and counted beyond the list.
    private var listed = 0
    private var unlisted: [ConfigDiagnostic.Severity: (count: Int, firstLine: Int)] = [:]

    public init() {}

    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Lines end in LF or CRLF, and a leading UTF-8 byte-order mark is
    /// skipped, as systemd's own parser does.
    public mutating func apply(text: String, file: String) {
        listed = 0
        unlisted = [:]
        defer { summarizeUnlisted(file) }
        var section: String?
        var lineNumber = 0
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        // Split by scalar, not by Character: "\r\n" is one Character and would never equal "\n".
        for rawLine in scalars.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = String(Substring(rawLine)).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    diagnose(.error, file, lineNumber, "malformed section header '\(line)' (expected [Section])")
                    continue
                }
                let name = String(line.dropFirst().dropLast())
                section = name
                if !Configuration.keys.contains(where: { $0.section == name }) {
                    diagnose(.warning, file, lineNumber, "unknown section [\(name)], its keys are ignored")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                diagnose(.error, file, lineNumber, "'\(line)' is not an assignment (expected Key=value)")
                continue
            }
            let key = String(line[..<equals]).trimmingSpaces()
            let value = String(line[line.index(after: equals)...]).trimmingSpaces()
            guard let section else {
                diagnose(
                    .error, file, lineNumber,
                    "\(key)= is outside any section (\(Configuration.sectionAdvice(for: key)))")
                continue
            }
            let known = Configuration.keys.contains { $0.section == section }
            guard let spec = Configuration.keys.first(where: { $0.section == section && $0.name == key }) else {
                if known {
                    diagnose(.warning, file, lineNumber, "unknown key \(key)= in [\(section)], ignored")
                }
                continue
            }
            if value.isEmpty {
                spec.reset(&configuration)
                continue
            }
            var updated = configuration
            if spec.apply(&updated, value) {
                configuration = updated
            } else {
                diagnose(
                    .error, file, lineNumber, "[\(section)] \(key)=\(value) is not valid: expected \(spec.expected)")
            }
        }
    }

    private mutating func diagnose(
        _ severity: ConfigDiagnostic.Severity, _ file: String, _ line: Int, _ message: String
    ) {
        guard listed < Self.listedPerFile else {
            let seen = unlisted[severity]
            unlisted[severity] = ((seen?.count ?? 0) + 1, seen?.firstLine ?? line)
            return
        }
        listed += 1
        diagnostics.append(ConfigDiagnostic(severity: severity, file: file, line: line, message: message))
    }

    /// One line for each severity's findings past the list.
    private mutating func summarizeUnlisted(_ file: String) {
        for severity in [ConfigDiagnostic.Severity.error, .warning] {
            guard let (count, firstLine) = unlisted[severity] else { continue }
            let kind = severity == .error ? "error" : "warning"
            diagnostics.append(
                ConfigDiagnostic(
                    severity: severity, file: file, line: firstLine,
                    message:
                        "\(count) more \(kind)\(count == 1 ? "" : "s") in this file, from this line on, not listed one by one (only a file's first \(Self.listedPerFile) findings are)"
                ))
        }
        unlisted = [:]
    }
}
