import RainCore

/// What Open-Meteo says when it refuses a request: its forecast and
/// geocoding APIs answer 400 and 429 with `{"error": true, "reason": "..."}`
/// and no `Retry-After`. The 429 reasons name the limit that was hit
/// ("Minutely API request limit exceeded. Please try again in one minute.",
/// "Hourly ...", "Daily ..."), which says how long to wait.
public struct OpenMeteoErrorReply: Equatable, Sendable {
    /// The rate limit a 429 reason names.
    public enum Limit: Equatable, Sendable {
        case minutely, hourly, daily
    }

    /// The provider's reason text, as it wrote it.
    public var reason: String

    /// Reads an error body; nil when the body is not Open-Meteo's error object.
    public init?(body: [UInt8]) {
        guard body.count <= 1 << 16, let value = try? JSON(parsing: body), value["error"]?.boolValue == true,
            let reason = value["reason"]?.stringValue, !reason.isEmpty
        else { return nil }
        // The reason is shown to people and logged: one line, bounded.
        let line = reason.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
        self.reason = line.count > 300 ? String(line.prefix(300)) + "…" : line
    }

    public init(reason: String) { self.reason = reason }

    /// The limit the reason names, if any.
    public var limit: Limit? {
        let text = Array(reason.lowercased().utf8)
        if Self.find("minutely", in: text) || Self.find("per minute", in: text) { return .minutely }
        if Self.find("hourly", in: text) || Self.find("per hour", in: text) { return .hourly }
        if Self.find("daily", in: text) || Self.find("per day", in: text) { return .daily }
        return nil
    }

    /// Whether `word` occurs in `text`. (A byte search: String's own
    /// `contains(_:)` would link the regex library into the static raindctl.)
    static func find(_ word: String, in text: [UInt8]) -> Bool {
        let pattern = Array(word.utf8)
        guard !pattern.isEmpty, pattern.count <= text.count else { return pattern.isEmpty }
        for start in 0...(text.count - pattern.count) where text[start..<start + pattern.count].elementsEqual(pattern) {
            return true
        }
        return false
    }

    /// When to ask again after a 429 with this reason: a minute later, an
    /// hour later, or the next 00:00 UTC for the daily limit; nil when the
    /// reason names no limit.
    public func retryAfter(now: Double) -> Double? {
        switch limit {
        case .minutely: return now + 60
        case .hourly: return now + 3600
        case .daily: return BudgetUsage.dayStart(now) + 86_400
        case nil: return nil
        }
    }
}
