/// How heavy rain is, by its rate (the American Meteorological Society's
/// classes): light under 2.5 mm/h, moderate from 2.5 to 7.6 mm/h, heavy above.
public enum RainIntensity: String, WireEnum, Comparable {
    case light, moderate, heavy

    public static let moderateFrom = 2.5
    public static let heavyAbove = 7.6

    public init(millimetresPerHour rate: Double) {
        if rate > Self.heavyAbove {
            self = .heavy
        } else if rate >= Self.moderateFrom {
            self = .moderate
        } else {
            self = .light
        }
    }

    /// "Light rain", "Moderate rain", "Heavy rain".
    public var phrase: String {
        switch self {
        case .light: return tr("Light rain")
        case .moderate: return tr("Moderate rain")
        case .heavy: return tr("Heavy rain")
        }
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: RainIntensity, rhs: RainIntensity) -> Bool { lhs.rank < rhs.rank }
}
