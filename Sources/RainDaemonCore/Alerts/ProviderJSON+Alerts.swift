import RainCore

/// The values of an alert service's JSON, read the same way by every JSON
/// source: times are ISO 8601 instants with an offset, texts are bounded
/// (`AlertLimits`), identifiers are what a reference can name. A value of
/// the wrong kind, or a time that is not one, is an error naming the field.
extension ProviderJSON {
    /// The member `key` as an instant (Unix seconds): `2019-12-20T13:34:00-08:00`,
    /// `2026-03-05T21:26:06.795Z`; nil when absent or null.
    func instant(_ key: String) throws(ProviderParseError) -> Double? {
        guard let text = try string(key) else { return nil }
        guard let instant = ISO8601Instant.parse(text, allowing: [.fractions, .colonlessOffsets]),
            Forecast.plausibleTimes.contains(instant.unixSeconds)
        else {
            throw error(
                .invalidValue("\"\(Self.excerpt(text))\" is not a time with its UTC offset"), at: childPath(key))
        }
        return instant.unixSeconds
    }

    /// The member `key` as text of at most `bytes` UTF-8 bytes (cut there);
    /// nil when absent, null or empty.
    func text(_ key: String, bytes: Int) throws(ProviderParseError) -> String? {
        guard let text = try string(key), !text.isEmpty else { return nil }
        return AlertLimits.truncated(text, toBytes: bytes)
    }

    /// The member `key` as an identifier: text of 1 to
    /// `AlertLimits.identifierBytes` bytes; nil when absent or null.
    func identifier(_ key: String) throws(ProviderParseError) -> String? {
        guard let member = self[key] else { return nil }
        return try member.asIdentifier()
    }

    /// This value as an identifier (a string, or a whole number a service
    /// numbers its alerts with).
    func asIdentifier() throws(ProviderParseError) -> String {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number) where number == number.rounded() && abs(number) < 1e15:
            text = String(Int64(number))
        default: throw error(.wrongType(expected: "an identifier (a string)", got: value.kindName))
        }
        guard !text.isEmpty, text.utf8.count <= AlertLimits.identifierBytes else {
            throw error(.invalidValue("an identifier has 1 to \(AlertLimits.identifierBytes) bytes"))
        }
        return text
    }

    /// The member `key` as an instant, else the member `other` (CAP's
    /// `effective`, else `sent`).
    func instant(_ key: String, else other: String) throws(ProviderParseError) -> Double? {
        if let instant = try instant(key) { return instant }
        return try instant(other)
    }

    /// The member `key` as text, else the member `other` (the same text in
    /// the service's other language).
    func text(_ key: String, else other: String, bytes: Int) throws(ProviderParseError) -> String? {
        if let text = try text(key, bytes: bytes) { return text }
        return try text(other, bytes: bytes)
    }

    /// The member `key` as an identifier, else the member `other`.
    func identifier(_ key: String, else other: String) throws(ProviderParseError) -> String? {
        if let identifier = try identifier(key) { return identifier }
        return try identifier(other)
    }

    /// The first 60 characters of `text` on one line, for an error message.
    static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").strippingControlCharacters()
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }
}
