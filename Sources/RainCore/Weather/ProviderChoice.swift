/// Why the scores put a provider first for a place under `Name=auto`
/// (docs/ACCURACY.md, "The best provider serves"): its 24 h temperature
/// error against the best other provider's, over how many hours, judged
/// at which station.
public struct ProviderChoice: Equatable, Sendable, Codable {
    /// The place (its id).
    public var place: String
    /// The provider the scores put first, and its mean absolute 24 h temperature error, °C.
    public var provider: String
    public var error: Double
    /// The best-scored other provider of the place's list, and its error, °C.
    public var other: String
    public var otherError: Double
    /// The hours compared: the fewer of the two providers' pairs.
    public var hours: Int
    /// The verifying station's name.
    public var station: String

    public init(
        place: String, provider: String, error: Double, other: String, otherError: Double, hours: Int,
        station: String
    ) {
        self.place = place
        self.provider = provider
        self.error = error
        self.other = other
        self.otherError = otherError
        self.hours = hours
        self.station = station
    }

    /// "metno: 24 h temperature error 1.1 °C against open-meteo's 1.9 °C over
    /// 212 h at Oslo-Blindern", in the reader's language and `units`.
    public func text(units: UnitSystem) -> String {
        tr(
            "{provider}: 24 h temperature error {error} against {other}'s {otherError} over {hours} h at {station}",
            [
                "provider": provider, "error": Self.difference(error, units), "other": other,
                "otherError": Self.difference(otherError, units),
                "hours": LocaleConventions.current.integer(hours), "station": station,
            ])
    }

    /// A temperature difference, °C, in `units` with one decimal: "1.1 °C", "2.0 °F".
    static func difference(_ celsius: Double, _ units: UnitSystem) -> String {
        let formatter = UnitFormatter(system: units)
        let value = formatter.convert(celsius, .temperature) - formatter.convert(0, .temperature)
        let text = LocaleConventions.current.decimal(
            DecimalText.format(abs(value), fractionDigits: 1, trimmingZeros: false) ?? UnitFormatter.missing)
        return text + " " + formatter.label(for: .temperature)
    }
}
