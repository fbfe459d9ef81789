/// The physical quantities raind shows, each stored in one SI base unit in
/// the model (`Forecast`) and converted only when shown.
public enum Quantity: String, CaseIterable, Sendable {
    /// Base unit: °C.
    case temperature
    /// Base unit: m/s.
    case windSpeed
    /// Base unit: mm/h.
    case precipitationIntensity
    /// Base unit: mm.
    case precipitationAccumulation
    /// Base unit: hPa.
    case pressure
    /// Base unit: km.
    case visibility

    /// The unit the model stores this quantity in.
    public var baseUnit: MeasurementUnit {
        switch self {
        case .temperature: return .celsius
        case .windSpeed: return .metresPerSecond
        case .precipitationIntensity: return .millimetresPerHour
        case .precipitationAccumulation: return .millimetres
        case .pressure: return .hectopascals
        case .visibility: return .kilometres
        }
    }
}
