/// A unit raind reads from providers or shows to people, with its exact
/// conversion to and from the model's base unit for its `Quantity`.
///
/// One table serves both directions: providers convert what they receive
/// (`toBase`), presentation converts what it shows (`fromBase`).
public enum MeasurementUnit: String, CaseIterable, Sendable {
    case celsius, fahrenheit
    case metresPerSecond, kilometresPerHour, milesPerHour, knots
    case millimetresPerHour, inchesPerHour
    case millimetres, centimetres, inches
    case hectopascals, millibars
    case kilometres, metres, miles, feet

    /// What the unit measures.
    public var quantity: Quantity {
        switch self {
        case .celsius, .fahrenheit: return .temperature
        case .metresPerSecond, .kilometresPerHour, .milesPerHour, .knots: return .windSpeed
        case .millimetresPerHour, .inchesPerHour: return .precipitationIntensity
        case .millimetres, .centimetres, .inches: return .precipitationAccumulation
        case .hectopascals, .millibars: return .pressure
        case .kilometres, .metres, .miles, .feet: return .visibility
        }
    }

    /// The short label after a number (`mph`, `km/h`, `°F`), the same in
    /// every language: the unit names in raind's JSON output. Text for
    /// people takes `shownSymbol`.
    public var symbol: String {
        switch self {
        case .celsius: return "°C"
        case .fahrenheit: return "°F"
        case .metresPerSecond: return "m/s"
        case .kilometresPerHour: return "km/h"
        case .milesPerHour: return "mph"
        case .knots: return "kn"
        case .millimetresPerHour: return "mm/h"
        case .inchesPerHour: return "in/h"
        case .millimetres: return "mm"
        case .centimetres: return "cm"
        case .inches: return "in"
        case .hectopascals: return "hPa"
        case .millibars: return "mb"
        case .kilometres: return "km"
        case .metres: return "m"
        case .miles: return "mi"
        case .feet: return "ft"
        }
    }

    /// `symbol` as the reader's language writes it after a number (Russian
    /// `5 м/с`, `1013 гПа`, `5 миль/ч`), for text people read: every unit a
    /// system shows is in the catalogue (`trc("unit", ...)`), the imperial
    /// ones and the degrees too. JSON, Varlink and templates' field names
    /// keep `symbol`.
    public var shownSymbol: String {
        switch self {
        // Translators: a unit symbol after a number ("7 °C"), as your national weather service writes it.
        case .celsius: return trc("unit", "°C")
        // Translators: a unit symbol after a number ("45 °F", degrees Fahrenheit), as your readers write it.
        case .fahrenheit: return trc("unit", "°F")
        // Translators: a unit symbol after a number ("5 m/s"), as your national weather service writes it.
        case .metresPerSecond: return trc("unit", "m/s")
        // Translators: a unit symbol after a number ("11 km/h"), as your national weather service writes it.
        case .kilometresPerHour: return trc("unit", "km/h")
        // Translators: a unit symbol after a number ("7 mph", miles per hour), as your readers write it.
        case .milesPerHour: return trc("unit", "mph")
        // Translators: a unit symbol after a number ("0.4 mm/h", rain per hour), as your national weather service writes it.
        case .millimetresPerHour: return trc("unit", "mm/h")
        // Translators: a unit symbol after a number ("0.02 in/h", inches of rain per hour), as your readers write it.
        case .inchesPerHour: return trc("unit", "in/h")
        // Translators: a unit symbol after a number ("2.5 mm" of rain), as your national weather service writes it.
        case .millimetres: return trc("unit", "mm")
        // Translators: a unit symbol after a number ("0.1 in" of rain, inches), as your readers write it.
        case .inches: return trc("unit", "in")
        // Translators: a unit symbol after a number ("1013 hPa"), as your national weather service writes it.
        case .hectopascals: return trc("unit", "hPa")
        // Translators: a unit symbol after a number ("1013 mb", millibars), as your readers write it.
        case .millibars: return trc("unit", "mb")
        // Translators: a unit symbol after a number ("16 km" of visibility), as your national weather service writes it.
        case .kilometres: return trc("unit", "km")
        // Translators: a unit symbol after a number ("6.2 mi" of visibility, miles), as your readers write it.
        case .miles: return trc("unit", "mi")
        // No unit system shows these (providers' answers only).
        case .knots, .centimetres, .metres, .feet: return symbol
        }
    }

    /// Converts a value in this unit to the base unit of its quantity.
    public func toBase(_ value: Double) -> Double {
        switch self {
        case .fahrenheit: return (value - 32) * 5 / 9
        default: return value * factor
        }
    }

    /// Converts a value in the base unit of this unit's quantity to this unit.
    public func fromBase(_ value: Double) -> Double {
        switch self {
        case .fahrenheit: return value * 9 / 5 + 32
        default: return value / factor
        }
    }

    /// How many base units one of this unit is (linear units only).
    private var factor: Double {
        switch self {
        case .celsius, .fahrenheit: return 1
        case .metresPerSecond: return 1
        case .kilometresPerHour: return 1 / 3.6
        case .milesPerHour: return 0.44704  // exact: 1609.344 m / 3600 s
        case .knots: return 1852.0 / 3600.0
        case .millimetresPerHour: return 1
        case .inchesPerHour: return 25.4
        case .millimetres: return 1
        case .centimetres: return 10
        case .inches: return 25.4
        case .hectopascals, .millibars: return 1  // 1 mb is 1 hPa
        case .kilometres: return 1
        case .metres: return 0.001
        case .miles: return 1.609344
        case .feet: return 0.0003048
        }
    }
}
