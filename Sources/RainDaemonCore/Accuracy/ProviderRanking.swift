import RainCore

/// Which provider leads a place's list under `Name=auto`, by its scores
/// (docs/ACCURACY.md, "The best provider serves"): once a day, a provider
/// whose 24 h temperature error is lower than the leader's by the margin,
/// over at least `minimumPairs` pairs for both, gains a day; after
/// `decisionsToMove` such days in a row it leads. Moving back takes the
/// same: the regional first must beat it by the margin as many days, so
/// two providers within the margin of each other never swap. Pure: the
/// time is a parameter.
public struct ProviderRanking: Codable, Sendable, Equatable {
    /// The provider the scores put first; nil: the regional order's first.
    public var leader: String?
    /// The provider beating the leader at the last decisions, and on how many days in a row.
    public var challenger: String?
    public var streak = 0
    /// When the last decision was made.
    public var decidedAt: Double?

    /// The lead time judged: a day ahead, what a person reads most.
    public static let leadHours = 24
    /// The fewest 24 h temperature pairs each of the two needs: three days of hours.
    public static let minimumPairs = 72
    /// The margin: lower by at least this, °C, and by at least `marginShare` of the leader's error.
    public static let marginDegrees = 0.3
    public static let marginShare = 0.15
    /// Decisions in a row the margin must hold before the order changes.
    public static let decisionsToMove = 3
    /// One decision a day.
    public static let decisionSpacing: Double = 86_400

    public init(leader: String? = nil) { self.leader = leader }

    /// Why a provider serves a place by its scores: its 24 h temperature
    /// error against the provider it was compared with, over how many pairs.
    public struct Verdict: Equatable, Sendable {
        public var provider: String
        public var error: Double
        public var other: String
        public var otherError: Double
        public var pairs: Int
    }

    /// `regional` with the leader moved first (when it is in the list).
    public func order(_ regional: [ProviderName]) -> [ProviderName] {
        guard let leader, let first = regional.firstIndex(where: { $0.rawValue == leader }) else { return regional }
        var order = regional
        order.insert(order.remove(at: first), at: 0)
        return order
    }

    /// The 24 h score of `provider` among `scores`, when it has enough pairs.
    static func judged(_ provider: String, in scores: [AccuracyScore]) -> (error: Double, pairs: Int)? {
        guard
            let score = scores.first(where: { $0.provider == provider && $0.leadHours == leadHours }),
            let error = score.temperatureError, score.temperaturePairs >= minimumPairs
        else { return nil }
        return (error, score.temperaturePairs)
    }

    /// Whether an error of `better` beats `worse` by the margin.
    static func beats(_ better: Double, _ worse: Double) -> Bool {
        worse - better >= marginDegrees && worse - better >= marginShare * worse
    }

    /// Whether a decision is due at `now`: none yet, a day since the last, or the clock went back.
    public func due(now: Double) -> Bool {
        guard let decidedAt else { return true }
        return now < decidedAt || now - decidedAt >= Self.decisionSpacing
    }

    /// One decision for a place whose regional order is `regional`, from
    /// its `scores` at `now`; nothing when the last was less than a day
    /// ago. Returns whether the leader changed.
    @discardableResult
    public mutating func decide(regional: [ProviderName], scores: [AccuracyScore], now: Double) -> Bool {
        guard due(now: now) else { return false }
        decidedAt = now
        let names = regional.map(\.rawValue)
        if let leader, !names.contains(leader) { self.leader = nil }
        guard let current = leader ?? names.first, let held = Self.judged(current, in: scores) else {
            challenger = nil
            streak = 0
            return false
        }
        let best = names.filter { $0 != current }
            .compactMap { name in Self.judged(name, in: scores).map { (name, $0.error) } }
            .filter { Self.beats($0.1, held.error) }
            .min { $0.1 < $1.1 }
        guard let best else {
            challenger = nil
            streak = 0
            return false
        }
        streak = challenger == best.0 ? streak + 1 : 1
        challenger = best.0
        guard streak >= Self.decisionsToMove else { return false }
        leader = best.0 == names.first ? nil : best.0
        challenger = nil
        streak = 0
        return true
    }

    /// Why `serving` serves: its 24 h error against the best-scored other
    /// provider of `regional`, both with enough pairs; nil when the scores
    /// do not say yet.
    public static func verdict(
        serving: String, regional: [ProviderName], scores: [AccuracyScore]
    ) -> Verdict? {
        guard let own = judged(serving, in: scores) else { return nil }
        let other = regional.map(\.rawValue).filter { $0 != serving }
            .compactMap { name in judged(name, in: scores).map { (name, $0) } }
            .min { $0.1.error < $1.1.error }
        guard let other else { return nil }
        return Verdict(
            provider: serving, error: own.error, other: other.0, otherError: other.1.error,
            pairs: min(own.pairs, other.1.pairs))
    }
}
