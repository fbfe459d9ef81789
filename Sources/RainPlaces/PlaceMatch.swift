import RainCore

/// One search result: a place and how well it answers the query.
public struct PlaceMatch: Equatable, Sendable {
    /// How the query met the place, strongest first. The kind decides the
    /// score's band; population orders places within a band.
    public enum Kind: Int, Equatable, Sendable {
        /// The query was the place's GeoNames id (`2988507`, `geonames:2988507`).
        case identifier = 4
        /// The query was the place's name.
        case name = 3
        /// The query was one of the place's other names ("Munich", "Cologne").
        case alternateName = 2
        /// The query began a name of the place ("san fran").
        case prefix = 1
        /// The query was a near spelling of a name ("Zurihc").
        case nearSpelling = 0

        /// Band of the score: names and other names compete as equals.
        var band: Int {
            switch self {
            case .identifier: return 4
            case .name, .alternateName: return 3
            case .prefix: return 2
            case .nearSpelling: return 1
            }
        }
    }

    /// The place found.
    public var candidate: PlaceCandidate
    /// Higher is better: `10 × band + log10(population)`, less penalties
    /// (an other name 0.3, an other name begun 1.0, a qualifier matched by its beginning 0.2, each edit
    /// of a near spelling 2.5). Scores of two places differ by `log10` of how
    /// many times more populous one is, other things equal.
    public var score: Double
    /// How the query met the place.
    public var kind: Kind

    public init(candidate: PlaceCandidate, score: Double, kind: Kind) {
        self.candidate = candidate
        self.score = score
        self.kind = kind
    }
}

/// What a query names: one place, several comparable ones, or none.
public enum PlaceResolution: Equatable, Sendable {
    /// The place clearly meant.
    case unique(PlaceCandidate)
    /// Comparable places, best first; the person should say which.
    case ambiguous([PlaceMatch])
    /// Nothing matches; near spellings that do, best first (possibly none).
    case notFound(suggestions: [PlaceMatch])
}
