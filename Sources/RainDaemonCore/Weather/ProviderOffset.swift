import RainCore

/// Reads a provider's UTC offset (Open-Meteo: seconds; Pirate Weather:
/// hours) into whole seconds, refusing values no place has.
enum ProviderOffset {
    /// UTC-12 to UTC+14 are the offsets in use; allow a margin to ±18 h as ISO 8601 does.
    static let maximumSeconds = 18 * 3600

    /// `field` times `scale` in seconds, nil when absent or null.
    static func seconds(_ field: ProviderJSON?, scale: Double) throws(ProviderParseError) -> Int? {
        guard let field, let value = try field.asNumber() else { return nil }
        let seconds = (value * scale).rounded()
        guard seconds.isFinite, abs(seconds) <= Double(maximumSeconds) else {
            throw field.error(.invalidValue("UTC offset \(value) is outside ±18 hours"))
        }
        return Int(seconds)
    }
}
