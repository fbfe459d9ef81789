/// Why a place's forecast comes from another provider than its first
/// choice: that provider, and what it last failed with, briefly ("HTTP
/// 503", "timed out"). Bars show it in the tooltip: "from metno (open-meteo:
/// HTTP 503)".
public struct ProviderFailover: Equatable, Sendable, Codable {
    /// The place's first choice, which did not answer.
    public var provider: String
    public var reason: String

    public init(provider: String, reason: String) {
        self.provider = provider
        self.reason = reason
    }

    /// A failure in a few words: its HTTP status, else the first clause of
    /// its message, at most 60 characters.
    public static func brief(_ failure: RefreshFailure) -> String {
        if let status = failure.httpStatus, status != 200 { return "HTTP \(status)" }
        let clause = failure.message.prefix { $0 != ";" && $0 != "(" && !$0.isNewline }
        let trimmed = String(clause).trimmingSpaces()
        if trimmed.isEmpty { return failure.error.rawValue }
        return trimmed.count > 60 ? String(trimmed.prefix(59)) + "…" : trimmed
    }
}

/// `ProviderChanged`: another provider serves a place now, and why.
public struct ProviderChange: Equatable, Sendable, Codable {
    /// The provider that serves the place now.
    public var provider: String
    /// The one that served it before; nil when none had.
    public var previous: String?
    /// Why: the failure that moved it ("open-meteo: HTTP 503"), or the
    /// first choice answering again.
    public var reason: String

    public init(provider: String, previous: String?, reason: String) {
        self.provider = provider
        self.previous = previous
        self.reason = reason
    }
}
