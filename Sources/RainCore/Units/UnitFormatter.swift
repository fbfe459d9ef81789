/// Converts the model's SI values into one unit system and writes them the
/// way the app did: whole degrees with a bare degree sign (`72°`), whole wind
/// speeds with the unit attached (`5mph`, `3m/s`, `11km/h`), whole percent
/// (`30%`, or as the reader's language writes it: `30 %`, `%30`).
///
/// Rounding is half away from zero, and a value that rounds to zero is never
/// negative (`-0.4` °C is `0°`, not `-0°`). Precision per quantity:
/// temperature, wind, pressure: whole numbers; visibility: whole above 10,
/// one decimal below; precipitation: two decimals in inches, one in
/// millimetres. Trailing zeros are dropped (`0mm/h`, `0.4mm/h`, `0.02in/h`).
/// A missing value is written as `missing` (`–`, an en dash), never as a number.
public struct UnitFormatter: Sendable {
    public var system: UnitSystem

    /// What a missing value (nil, NaN, infinite) is shown as.
    public static let missing = "–"

    public init(system: UnitSystem) {
        self.system = system
    }

    /// The unit this formatter shows `quantity` in.
    public func unit(for quantity: Quantity) -> MeasurementUnit {
        system.unit(for: quantity)
    }

    /// The label for `quantity` in this system (`°F`, `mph`, `hPa`) as the
    /// reader's language writes it (`MeasurementUnit.shownSymbol`: Russian
    /// `гПа`), for text people read; JSON output takes `UnitSystem.unitLabels`.
    /// Temperature labels carry the letter even though `temperature(_:)`
    /// writes only the degree sign.
    public func label(for quantity: Quantity) -> String {
        unit(for: quantity).shownSymbol
    }

    /// `value` (in the model's base unit for `quantity`) in this system's unit, unrounded.
    public func convert(_ value: Double, _ quantity: Quantity) -> Double {
        unit(for: quantity).fromBase(value)
    }

    /// `value` (in the model's base unit for `quantity`) converted, rounded and labelled.
    public func format(_ value: Double?, _ quantity: Quantity) -> String {
        guard let value, value.isFinite else { return Self.missing }
        let unit = unit(for: quantity)
        let converted = unit.fromBase(value)
        let digits = Self.fractionDigits(for: unit, value: converted)
        guard let plain = DecimalText.format(converted, fractionDigits: digits) else { return Self.missing }
        // The reader's decimal separator (`0,1`); the C locale's is `.`.
        let number = LocaleConventions.current.decimal(plain)
        return quantity == .temperature ? number + "°" : number + unit.shownSymbol
    }

    /// The number alone, converted and rounded as `format` does (`7`, `0.4`).
    public func number(_ value: Double?, _ quantity: Quantity) -> String {
        guard let value, value.isFinite else { return Self.missing }
        let unit = unit(for: quantity)
        let converted = unit.fromBase(value)
        return DecimalText.format(converted, fractionDigits: Self.fractionDigits(for: unit, value: converted))
            .map { LocaleConventions.current.decimal($0) } ?? Self.missing
    }

    /// The number and its unit's symbol, spaced as SI writes them (`7 °C`, `5 m/s`).
    public func spaced(_ value: Double?, _ quantity: Quantity) -> String {
        let text = number(value, quantity)
        return text == Self.missing ? text : text + " " + label(for: quantity)
    }

    /// `72°` from °C.
    public func temperature(_ celsius: Double?) -> String { format(celsius, .temperature) }

    /// `5mph`, `3m/s`, `11km/h` from m/s.
    public func windSpeed(_ metresPerSecond: Double?) -> String { format(metresPerSecond, .windSpeed) }

    /// `0.02in/h`, `0.4mm/h` from mm/h.
    public func precipitationIntensity(_ millimetresPerHour: Double?) -> String {
        format(millimetresPerHour, .precipitationIntensity)
    }

    /// `0.1in`, `2.5mm` from mm.
    public func precipitationAccumulation(_ millimetres: Double?) -> String {
        format(millimetres, .precipitationAccumulation)
    }

    /// `1013hPa`, `1013mb` from hPa.
    public func pressure(_ hectopascals: Double?) -> String { format(hectopascals, .pressure) }

    /// `16km`, `6.2mi` from km.
    public func visibility(_ kilometres: Double?) -> String { format(kilometres, .visibility) }

    /// `30%` from a fraction in 0...1 (clamped to it), the same in every
    /// system; the sign placed and spaced as the reader's language writes it
    /// (the catalogue's `{number}%`: Czech `30 %`, Turkish `%30`).
    public static func percent(_ fraction: Double?) -> String {
        guard let number = percentNumber(fraction) else { return missing }
        // Translators: a percentage, "30%": where the sign goes and whether a (no-break) space comes between.
        return tr("{number}%", ["number": number])
    }

    /// `30`, the whole percent alone (a template's bare value); nil when missing.
    public static func percentNumber(_ fraction: Double?) -> String? {
        guard let fraction, fraction.isFinite else { return nil }
        return DecimalText.format(min(max(fraction, 0), 1) * 100, fractionDigits: 0)
    }

    /// `30%`, for symmetry with the other instance methods.
    public func percent(_ fraction: Double?) -> String { Self.percent(fraction) }

    private static func fractionDigits(for unit: MeasurementUnit, value: Double) -> Int {
        switch unit {
        case .inchesPerHour, .inches: return 2
        case .millimetresPerHour, .millimetres, .centimetres: return 1
        case .kilometres, .miles: return abs(value) < 10 ? 1 : 0
        default: return 0
        }
    }
}
