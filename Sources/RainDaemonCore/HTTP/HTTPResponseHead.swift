import RainCore

/// Collects a response's status line and header fields from the raw lines a
/// client library hands over one at a time (libcurl's CURLOPT_HEADERFUNCTION
/// gives exactly one line per call, CRLF included).
///
/// Every status line starts over, so after redirects, `100 Continue` or a
/// proxy's `CONNECT` reply only the final response's fields remain. Names are
/// lower-cased; repeated fields are joined with ", " (RFC 9110 §5.3); obsolete
/// line folding is unfolded. The total size kept is capped so that a server
/// sending endless headers cannot grow memory.
public struct HTTPResponseHead: Equatable, Sendable {
    /// The status code from the last status line seen, if any.
    public private(set) var status: Int?
    /// The protocol token of that status line (`HTTP/1.1`, `HTTP/2`).
    public private(set) var protocolVersion: String?
    /// Header fields by lower-cased name.
    public private(set) var fields: [String: String] = [:]
    /// Whether the blank line ending the current header block has been seen.
    public private(set) var isComplete = false
    /// Bytes of field names and values kept for the current response.
    public private(set) var keptBytes = 0
    /// The cap on `keptBytes`; fields past it are dropped.
    public let maxBytes: Int
    private var lastName: String?

    public init(maxBytes: Int = 64 * 1024) {
        self.maxBytes = maxBytes
    }

    /// Feeds one raw header line, with or without its line ending.
    public mutating func consume<Bytes: Collection>(line raw: Bytes) where Bytes.Element == UInt8 {
        var bytes = Array(raw)
        while let last = bytes.last, last == 0x0D || last == 0x0A { bytes.removeLast() }
        if bytes.isEmpty {
            isComplete = true
            lastName = nil
            return
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            startResponse(statusLine: line)
            return
        }
        if bytes[0] == 0x20 || bytes[0] == 0x09 {
            // obs-fold: a continuation of the previous field's value.
            guard let lastName, let previous = fields[lastName] else { return }
            keep(name: lastName, value: previous + " " + trim(line), extra: bytes.count)
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }  // not a field; ignore
        let name = String(line[..<colon]).lowercased()
        guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else { return }
        let value = trim(String(line[line.index(after: colon)...]))
        if let existing = fields[name] {
            keep(name: name, value: existing + ", " + value, extra: value.utf8.count + 2)
        } else {
            keep(name: name, value: value, extra: name.utf8.count + value.utf8.count)
        }
    }

    private mutating func startResponse(statusLine: String) {
        fields = [:]
        keptBytes = 0
        isComplete = false
        lastName = nil
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        protocolVersion = parts.first.map(String.init)
        status = nil
        if parts.count >= 2, parts[1].utf8.count == 3, let code = Int(parts[1]) { status = code }
    }

    private mutating func keep(name: String, value: String, extra: Int) {
        guard keptBytes + extra <= maxBytes else { return }
        keptBytes += extra
        fields[name] = value
        lastName = name
    }

    private func trim(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
