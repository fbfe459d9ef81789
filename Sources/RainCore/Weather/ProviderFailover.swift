/// Why a place's forecast comes from another provider than its first
/// choice: that provider, and what it last failed with, briefly ("HTTP
/// 503", "timed out"). Bars show it in the tooltip: "from metno (open-meteo:
/// HTTP 503)".
public struct ProviderFailover: Equatable, Sendable, Codable {
    /// The place's first choice, which did not answer.
    public var provider: String
    /// Its last failure in a few words (`brief`), in English as the daemon
    /// writes it; `not asked` when it has not been asked since raind started.
    public var reason: String
    /// The wording of the failure `reason` shortens, so raindctl can shorten
    /// it in the reader's language (`localizedReason`); nil when there is
    /// none, or more of it than raind keeps in its cache.
    public var wording: FailureWording?

    public init(provider: String, reason: String, wording: FailureWording? = nil) {
        self.provider = provider
        self.reason = reason
        self.wording = wording
    }

    /// What raind says of the first choice `provider`, whose last failure is
    /// `failure` (nil: not asked since raind started), in English.
    public init(provider: String, lastFailure failure: RefreshFailure?) {
        self.init(
            provider: provider, reason: failure.map(Self.brief) ?? Localization.english { Self.notAsked },
            wording: failure?.wording?.cacheable)
    }

    /// A failure in a few words: its HTTP status, else the first clause of
    /// its message, at most 60 characters.
    public static func brief(_ failure: RefreshFailure) -> String { brief(failure, saying: failure.message) }

    /// `brief` in the reader's language, where raindctl can word the failure
    /// again (`RefreshFailure.localizedMessage`).
    public static func localizedBrief(_ failure: RefreshFailure) -> String {
        brief(failure, saying: failure.localizedMessage)
    }

    /// `failure`'s HTTP status, else the first clause of `message` (its message in some language).
    private static func brief(_ failure: RefreshFailure, saying message: String) -> String {
        if let status = failure.httpStatus, status != 200 { return "HTTP \(status)" }
        return brief(message, else: failure.error.rawValue)
    }

    /// The first clause of `message`, at most 60 characters; `fallback`
    /// when it has none.
    static func brief(_ message: String, else fallback: String) -> String {
        let clause = message.prefix { $0 != ";" && $0 != "(" && !$0.isNewline }
        let trimmed = String(clause).trimmingSpaces()
        if trimmed.isEmpty { return fallback }
        return trimmed.count > 60 ? String(trimmed.prefix(59)) + "…" : trimmed
    }

    /// The reason of a first choice raind has not asked yet.
    static var notAsked: String { tr("not asked") }

    /// `reason` in the reader's language when it is the English of what
    /// raind writes from `wording` (or `not asked`), else as sent.
    public var localizedReason: String {
        PlaceWording.matching(
            reason, [{ Self.notAsked }, { wording?.text.map { Self.brief($0, else: "") } ?? "" }]) ?? reason
    }
}

/// `ProviderChanged`: another provider serves a place now, and why.
public struct ProviderChange: Equatable, Sendable, Codable {
    /// The provider that serves the place now.
    public var provider: String
    /// The one that served it before; nil when none had.
    public var previous: String?
    /// Why: the failure that moved it ("open-meteo: HTTP 503"), or the
    /// first choice answering again, in English as the daemon writes it.
    public var reason: String
    /// The wording of the failure `reason` names, so raindctl can word it in
    /// the reader's language (`localizedReason`); nil when it names none.
    public var wording: FailureWording?
    /// When the scores moved the place to `provider` (docs/ACCURACY.md), why;
    /// `reason` then says it in English.
    public var choice: ProviderChoice?

    public init(
        provider: String, previous: String?, reason: String, wording: FailureWording? = nil,
        choice: ProviderChoice? = nil
    ) {
        self.provider = provider
        self.previous = previous
        self.reason = reason
        self.wording = wording
        self.choice = choice
    }

    /// The scores moved the place from `previous` to `choice.provider`: the reason in English.
    public init(previous: String?, choice: ProviderChoice) {
        let reason = Localization.english { choice.text(units: .si) }
        self.init(provider: choice.provider, previous: previous, reason: reason, choice: choice)
    }

    /// `provider` serves the place now, and `previous` did: because `failed`
    /// (a provider before it in the place's list) failed with `failure` (nil:
    /// it is not available, not asked or refusing), or, when `failed` is nil,
    /// because `provider` is the place's first choice and answers again. In
    /// English.
    public init(provider: String, previous: String?, failed: String?, failure: RefreshFailure?) {
        let reason = Localization.english {
            guard let failed else { return Self.answersAgain(provider) }
            return Self.reason(failed, failure.map(ProviderFailover.brief) ?? Self.notAvailable)
        }
        self.init(provider: provider, previous: previous, reason: reason, wording: failure?.wording)
    }

    static func reason(_ failed: String, _ brief: String) -> String {
        tr("{name}: {text}", ["name": failed, "text": brief])
    }

    static var notAvailable: String { tr("not available") }

    static func answersAgain(_ provider: String) -> String {
        tr("{provider} is this place's first choice and answers again", ["provider": provider])
    }

    /// `reason` in the reader's language when it is the English of what
    /// raind writes (the provider that failed and its failure's `wording`,
    /// or the first choice answering again), else as sent.
    public var localizedReason: String {
        if let choice, Localization.english({ choice.text(units: .si) }) == reason { return choice.text(units: .si) }
        var renderings: [() -> String] = [{ Self.answersAgain(provider) }]
        // A provider's name holds no colon: what comes before the first is the one that failed.
        if let colon = reason.firstIndex(of: ":") {
            let failed = String(reason[..<colon])
            renderings.append { Self.reason(failed, Self.notAvailable) }
            if let wording {
                renderings.append {
                    Self.reason(failed, wording.text.map { ProviderFailover.brief($0, else: "") } ?? "")
                }
            }
        }
        return PlaceWording.matching(reason, renderings) ?? reason
    }
}
