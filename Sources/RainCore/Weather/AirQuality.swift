/// The air at one place: an air quality index with its category and the
/// pollutant that sets it, the concentrations people look up, the UV index,
/// pollen by type, and the index and UV for the next hours. A second kind
/// of data beside the forecast, fetched on its own schedule from the
/// provider's air-quality service (`AirQualityService`); a failure keeps the
/// last data and says why in `problem`, and never touches the forecast.
///
/// Values are the provider's: concentrations in µg/m³, pollen in grains/m³,
/// the index in its own points. Unknown values are nil, never a made-up
/// number. `category` and `level` are derived from `aqi` by the index's
/// published bands (`AirQualityIndex.category(of:)`), `uvCategory` from
/// `uvIndex` by the WHO's (`UVCategory`), so every client reads them alike.
public struct AirQuality: Equatable, Sendable, Codable {
    /// The provider that answered (`open-meteo`).
    public var provider: String
    /// The credit its licence asks for next to its data.
    public var attribution: Attribution
    /// When raind received it (Unix seconds).
    public var fetchedAt: Double
    /// Which index `aqi` is on.
    public var index: AirQualityIndex
    /// When the current values hold (Unix seconds); nil with none.
    public var time: Double?
    /// The index now, in its points (European 0–100 and beyond, US 0–500).
    public var aqi: Int?
    /// The index's own category of `aqi`.
    public var category: AirQualityCategory?
    /// `category` on one scale for both indexes, 1 (good) to 6 (extremely
    /// poor): what bar classes and notification thresholds compare.
    public var level: Int?
    /// The pollutant whose sub-index is highest: the one that sets `aqi`.
    public var dominant: Pollutant?
    /// Concentrations now, µg/m³.
    public var pm25: Double?
    public var pm10: Double?
    public var o3: Double?
    public var no2: Double?
    /// The UV index now, and its WHO category.
    public var uvIndex: Double?
    public var uvCategory: UVCategory?
    /// Pollen now, by type, in grains/m³; empty where the provider has none
    /// (outside Europe, out of season).
    public var pollen: [Pollen]
    /// The index and UV for the coming hours.
    public var hourly: [AirHour]
    /// Why the last fetch failed; nil when it answered.
    public var problem: String?
    /// The wording of the failure `problem` says, so raindctl can say it in
    /// the reader's language (`localizedProblem`); nil when it says none.
    public var wording: FailureWording?

    public init(
        provider: String, attribution: Attribution, fetchedAt: Double, index: AirQualityIndex,
        time: Double? = nil, aqi: Int? = nil, dominant: Pollutant? = nil, pm25: Double? = nil, pm10: Double? = nil,
        o3: Double? = nil, no2: Double? = nil, uvIndex: Double? = nil, pollen: [Pollen] = [], hourly: [AirHour] = [],
        problem: String? = nil, wording: FailureWording? = nil
    ) {
        self.provider = provider
        self.attribution = attribution
        self.fetchedAt = fetchedAt
        self.index = index
        self.time = time
        self.aqi = aqi
        self.category = aqi.map(index.category(of:))
        self.level = category.map(\.level)
        self.dominant = dominant
        self.pm25 = pm25
        self.pm10 = pm10
        self.o3 = o3
        self.no2 = no2
        self.uvIndex = uvIndex
        self.uvCategory = uvIndex.map(UVCategory.init(index:))
        self.pollen = pollen
        self.hourly = hourly
        self.problem = problem
        self.wording = wording
    }

    /// The most of a problem raind keeps: a transfer's sentence with the
    /// longest request URL (about 600 characters), with room.
    public static let maximumProblemCharacters = 1000

    /// `problem` in the reader's language where raindctl can say it again.
    public var localizedProblem: String? { problem.map { FailureWording.localized($0, wording: wording) } }

    /// The pollen type with the most grains now, when any has some.
    public var highestPollen: Pollen? {
        pollen.filter { $0.grains > 0 }.max { $0.grains < $1.grains }
    }
}

/// The index and UV of one hour.
public struct AirHour: Equatable, Sendable, Codable {
    public var time: Double
    public var aqi: Int?
    public var uvIndex: Double?

    public init(time: Double, aqi: Int?, uvIndex: Double?) {
        self.time = time
        self.aqi = aqi
        self.uvIndex = uvIndex
    }
}

/// One pollen type's count.
public struct Pollen: Equatable, Sendable, Codable {
    public var kind: PollenKind
    /// Grains per cubic metre.
    public var grains: Double

    public init(kind: PollenKind, grains: Double) {
        self.kind = kind
        self.grains = grains
    }
}

/// The pollen types Open-Meteo's European model gives (CAMS).
public enum PollenKind: String, WireEnum, CaseIterable {
    case alder, birch, grass, mugwort, olive, ragweed
}

/// The pollutants an index is made of.
public enum Pollutant: String, WireEnum, CaseIterable {
    case pm25, pm10, o3, no2, so2
}

/// Which air quality index is shown (`[Air] Index=`).
public enum AirQualityIndex: String, WireEnum, CaseIterable {
    /// The European Environment Agency's European Air Quality Index.
    case european
    /// The U.S. EPA's Air Quality Index.
    case us

    /// The index's category of `aqi`, by its published bands: European 0–20
    /// good, 20–40 fair, 40–60 moderate, 60–80 poor, 80–100 very poor, above
    /// 100 extremely poor; US 0–50 good, 51–100 moderate, 101–150 unhealthy
    /// for sensitive groups, 151–200 unhealthy, 201–300 very unhealthy, above
    /// 300 hazardous. A value on a boundary belongs to the band below, as
    /// the US table writes its bands (0–50, 51–100).
    public func category(of aqi: Int) -> AirQualityCategory {
        switch self {
        case .european:
            switch aqi {
            case ...20: return .good
            case ...40: return .fair
            case ...60: return .moderate
            case ...80: return .poor
            case ...100: return .veryPoor
            default: return .extremelyPoor
            }
        case .us:
            switch aqi {
            case ...50: return .good
            case ...100: return .moderate
            case ...150: return .unhealthyForSensitiveGroups
            case ...200: return .unhealthy
            case ...300: return .veryUnhealthy
            default: return .hazardous
            }
        }
    }

    /// The least points of `level` (1–6) on this index: where a rise into
    /// it begins. Level 1 begins at 0.
    public func lowerBound(ofLevel level: Int) -> Int {
        let bounds: [Int] =
            switch self {
            case .european: [0, 21, 41, 61, 81, 101]
            // The US index has no level 2: its moderate (51) is level 3.
            case .us: [0, 51, 51, 101, 151, 201]
            }
        return bounds[min(max(level, 1), 6) - 1]
    }

    /// How far below a level's lower bound the index must fall before an
    /// episode at that level ends: a value hovering at a threshold does not
    /// start and end episodes (`AirNotices`).
    public var hysteresis: Int {
        switch self {
        case .european: return 5
        case .us: return 10
        }
    }

    /// The index used where `[Air] Index=` does not say: the US index in the
    /// United States and its territories, the European index elsewhere (it is
    /// the one Open-Meteo's model is made for in Europe, and raind's
    /// default everywhere the US one is not customary).
    public static func defaultIndex(forCountry code: String) -> AirQualityIndex {
        ["US", "PR", "GU", "VI", "AS", "MP", "UM"].contains(code.uppercased()) ? .us : .european
    }
}

/// An index's category. The European index's words and the US index's
/// differ; `level` puts both on one scale of six.
public enum AirQualityCategory: String, WireEnum, CaseIterable {
    case good, fair, moderate, poor, veryPoor, extremelyPoor
    case unhealthyForSensitiveGroups, unhealthy, veryUnhealthy, hazardous

    /// 1 (good) to 6 (extremely poor). US categories map by their health
    /// meaning: moderate 3, unhealthy for sensitive groups 4 (poor),
    /// unhealthy 5 (very poor), very unhealthy and hazardous 6.
    public var level: Int {
        switch self {
        case .good: return 1
        case .fair: return 2
        case .moderate: return 3
        case .poor, .unhealthyForSensitiveGroups: return 4
        case .veryPoor, .unhealthy: return 5
        case .extremelyPoor, .veryUnhealthy, .hazardous: return 6
        }
    }
}

/// The level names of the shared scale, as configuration and bar classes
/// write them (`[Notifications] AirQuality=poor`, `aqi-very-poor`).
public enum AirQualityLevel {
    public static let names = ["good", "fair", "moderate", "poor", "very-poor", "extremely-poor"]

    /// `very-poor` for 5; nil outside 1–6.
    public static func name(_ level: Int) -> String? {
        (1...6).contains(level) ? names[level - 1] : nil
    }

    /// 5 for `very-poor`; nil for any other text.
    public static func level(named name: String) -> Int? {
        names.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }
}

/// The WHO's UV index categories (Global Solar UV Index, 2002): 0–2 low,
/// 3–5 moderate, 6–7 high, 8–10 very high, 11 and more extreme, on the index
/// rounded to a whole number as the WHO reports it.
public enum UVCategory: String, WireEnum, CaseIterable {
    case low, moderate, high, veryHigh, extreme

    public init(index: Double) {
        switch index.rounded() {
        case ..<3: self = .low
        case ..<6: self = .moderate
        case ..<8: self = .high
        case ..<11: self = .veryHigh
        default: self = .extreme
        }
    }

    /// The least UV index (before rounding) in this category.
    public var lowerBound: Double {
        switch self {
        case .low: return 0
        case .moderate: return 2.5
        case .high: return 5.5
        case .veryHigh: return 7.5
        case .extreme: return 10.5
        }
    }

    /// Configuration's spelling (`very-high`).
    public var configName: String {
        switch self {
        case .veryHigh: return "very-high"
        default: return rawValue
        }
    }
}
