import RainCore

/// A weather symbol of MET Norway's Locationforecast 2.0 (`summary.symbol_code`
/// of a period, such as `lightrainshowers_day`), with the English summary and
/// the Forecast API icon raind shows for it.
///
/// The codes are those of met.no's weather icon legend
/// (https://github.com/metno/weathericons, `weather/legend.csv` and
/// `weather/README.md`): 41 symbols, 21 of them in three variants, `_day`,
/// `_night` and `_polartwilight` (the sun below the horizon all day, with
/// twilight around noon), 83 codes in all. Exactly these are known; any
/// other text, a variant on a symbol that has none, or a symbol that has
/// variants without one, is not a symbol (nil), and raind shows it as
/// unknown. Two codes carry a typing error met.no keeps for compatibility
/// (`lightssleetshowersandthunder`, `lightssnowshowersandthunder`, "postponed
/// to the next version"); their corrected spellings are read as the same
/// symbols so a fixed server still works.
public struct MetNorwaySymbol: Equatable, Hashable, Sendable {
    /// When in the day the symbol is drawn for.
    public enum Variant: String, Sendable, CaseIterable {
        case day
        case night
        /// The sun stays below the horizon (polar night): drawn without a sun.
        case polarTwilight = "polartwilight"
    }

    /// The code without its variant (`lightrainshowers`), as met.no spells it.
    public let base: String
    /// nil for a symbol drawn the same all day (`cloudy`, `rain`).
    public let variant: Variant?

    private let entry: Entry

    /// The symbol a `symbol_code` names; nil when met.no documents no such code.
    public init?(code: String) {
        var base = Substring(code)
        var variant: Variant?
        if let underscore = code.firstIndex(of: "_") {
            guard let named = Variant(rawValue: String(code[code.index(after: underscore)...])) else { return nil }
            base = code[..<underscore]
            variant = named
        }
        let spelling = Self.corrections[String(base)] ?? String(base)
        guard let entry = Self.entries[spelling], entry.hasVariants == (variant != nil) else { return nil }
        self.base = spelling
        self.variant = variant
        self.entry = entry
    }

    /// The code as met.no writes it (`lightrainshowers_day`).
    public var code: String { variant.map { "\(base)_\($0.rawValue)" } ?? base }

    /// The legend's English text (`Light rain showers`).
    public var summary: String { entry.summary }

    /// The icon in the Forecast API's vocabulary for this symbol's own variant.
    public var icon: String { icon(as: variant) }

    /// The icon as drawn for `variant`: day without one (a daily icon, as the
    /// other providers draw theirs), night for night and polar twilight.
    func icon(as variant: Variant?) -> String {
        let day = variant == nil || variant == .day
        return entry.kind.condition.icon(isDay: day)
    }

    /// Orders symbols from fair to foul, to break ties when a day's symbol is
    /// chosen: the kind of weather first, then light, plain or heavy.
    var severity: Int {
        let strength = base.hasPrefix("light") ? 0 : base.hasPrefix("heavy") ? 2 : 1
        return entry.kind.rawValue * 3 + strength
    }

    enum Kind: Int {
        case clear, fair, partlyCloudy, cloudy, fog, rain, sleet, snow, thunderstorm

        /// What its icon shows: fair weather is drawn partly cloudy.
        var condition: WeatherCondition {
            switch self {
            case .clear: return .clear
            case .fair, .partlyCloudy: return .partlyCloudy
            case .cloudy: return .cloudy
            case .fog: return .fog
            case .rain: return .rain
            case .sleet: return .sleet
            case .snow: return .snow
            case .thunderstorm: return .thunderstorm
            }
        }
    }

    struct Entry: Equatable, Hashable, Sendable {
        var base: String
        var summary: String
        var kind: Kind
        var hasVariants: Bool
    }

    private static let corrections = [
        "lightsleetshowersandthunder": "lightssleetshowersandthunder",
        "lightsnowshowersandthunder": "lightssnowshowersandthunder",
    ]

    private static let entries: [String: Entry] = Dictionary(uniqueKeysWithValues: table.map { ($0.base, $0) })

    /// The legend, in its order.
    static let table: [Entry] = [
        Entry(base: "clearsky", summary: Localization.marked("Clear sky"), kind: .clear, hasVariants: true),
        Entry(base: "fair", summary: Localization.marked("Fair"), kind: .fair, hasVariants: true),
        Entry(
            base: "partlycloudy", summary: Localization.marked("Partly cloudy"), kind: .partlyCloudy, hasVariants: true),
        Entry(base: "cloudy", summary: Localization.marked("Cloudy"), kind: .cloudy, hasVariants: false),
        Entry(
            base: "lightrainshowers", summary: Localization.marked("Light rain showers"), kind: .rain, hasVariants: true
        ),
        Entry(base: "rainshowers", summary: Localization.marked("Rain showers"), kind: .rain, hasVariants: true),
        Entry(
            base: "heavyrainshowers", summary: Localization.marked("Heavy rain showers"), kind: .rain, hasVariants: true
        ),
        Entry(
            base: "lightrainshowersandthunder", summary: Localization.marked("Light rain showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "rainshowersandthunder", summary: Localization.marked("Rain showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "heavyrainshowersandthunder", summary: Localization.marked("Heavy rain showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "lightsleetshowers", summary: Localization.marked("Light sleet showers"), kind: .sleet,
            hasVariants: true),
        Entry(base: "sleetshowers", summary: Localization.marked("Sleet showers"), kind: .sleet, hasVariants: true),
        Entry(
            base: "heavysleetshowers", summary: Localization.marked("Heavy sleet showers"), kind: .sleet,
            hasVariants: true),
        Entry(
            base: "lightssleetshowersandthunder", summary: Localization.marked("Light sleet showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "sleetshowersandthunder", summary: Localization.marked("Sleet showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "heavysleetshowersandthunder", summary: Localization.marked("Heavy sleet showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "lightsnowshowers", summary: Localization.marked("Light snow showers"), kind: .snow, hasVariants: true
        ),
        Entry(base: "snowshowers", summary: Localization.marked("Snow showers"), kind: .snow, hasVariants: true),
        Entry(
            base: "heavysnowshowers", summary: Localization.marked("Heavy snow showers"), kind: .snow, hasVariants: true
        ),
        Entry(
            base: "lightssnowshowersandthunder", summary: Localization.marked("Light snow showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "snowshowersandthunder", summary: Localization.marked("Snow showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(
            base: "heavysnowshowersandthunder", summary: Localization.marked("Heavy snow showers and thunder"),
            kind: .thunderstorm,
            hasVariants: true),
        Entry(base: "lightrain", summary: Localization.marked("Light rain"), kind: .rain, hasVariants: false),
        Entry(base: "rain", summary: Localization.marked("Rain"), kind: .rain, hasVariants: false),
        Entry(base: "heavyrain", summary: Localization.marked("Heavy rain"), kind: .rain, hasVariants: false),
        Entry(
            base: "lightrainandthunder", summary: Localization.marked("Light rain and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(
            base: "rainandthunder", summary: Localization.marked("Rain and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(
            base: "heavyrainandthunder", summary: Localization.marked("Heavy rain and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(base: "lightsleet", summary: Localization.marked("Light sleet"), kind: .sleet, hasVariants: false),
        Entry(base: "sleet", summary: Localization.marked("Sleet"), kind: .sleet, hasVariants: false),
        Entry(base: "heavysleet", summary: Localization.marked("Heavy sleet"), kind: .sleet, hasVariants: false),
        Entry(
            base: "lightsleetandthunder", summary: Localization.marked("Light sleet and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(
            base: "sleetandthunder", summary: Localization.marked("Sleet and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(
            base: "heavysleetandthunder", summary: Localization.marked("Heavy sleet and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(base: "lightsnow", summary: Localization.marked("Light snow"), kind: .snow, hasVariants: false),
        Entry(base: "snow", summary: Localization.marked("Snow"), kind: .snow, hasVariants: false),
        Entry(base: "heavysnow", summary: Localization.marked("Heavy snow"), kind: .snow, hasVariants: false),
        Entry(
            base: "lightsnowandthunder", summary: Localization.marked("Light snow and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(
            base: "snowandthunder", summary: Localization.marked("Snow and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(
            base: "heavysnowandthunder", summary: Localization.marked("Heavy snow and thunder"), kind: .thunderstorm,
            hasVariants: false),
        Entry(base: "fog", summary: Localization.marked("Fog"), kind: .fog, hasVariants: false),
    ]
}
