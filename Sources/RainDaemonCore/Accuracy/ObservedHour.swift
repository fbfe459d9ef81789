import RainCore

/// What the verifying station observed in one hour: the observation
/// nearest the hour's start (within half an hour), in SI units.
public struct ObservedHour: Codable, Sendable, Equatable {
    /// The hour's start, Unix seconds (a whole hour).
    public var hour: Double
    /// Air temperature, °C.
    public var temperature: Double?
    /// Whether it rained: ≥ 0.1 mm in the hour, or precipitation reported at the station.
    public var rain: Bool?
    /// Mean wind speed, m/s.
    public var windSpeed: Double?
    /// When the observation was made, Unix seconds (the one nearest the hour wins).
    public var observedAt: Double

    public init(
        hour: Double, observedAt: Double, temperature: Double? = nil, rain: Bool? = nil, windSpeed: Double? = nil
    ) {
        self.hour = hour
        self.observedAt = observedAt
        self.temperature = temperature
        self.rain = rain
        self.windSpeed = windSpeed
    }
}
