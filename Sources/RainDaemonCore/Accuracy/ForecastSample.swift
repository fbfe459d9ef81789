import RainCore

/// What one provider's forecast said for one verifying hour at one lead
/// time (docs/ACCURACY.md): the values judged against the station's
/// observation of that hour, in SI units. A value the forecast did not
/// give is nil.
public struct ForecastSample: Codable, Sendable, Equatable {
    /// The provider's name (`ProviderName`).
    public var provider: String
    /// Hours between the forecast's issue and the hour (one of `AccuracyRecord.leadHours`).
    public var lead: Int
    /// The verifying hour's start, Unix seconds (a whole hour).
    public var hour: Double
    /// When the forecast was fetched, Unix seconds.
    public var issuedAt: Double
    /// Air temperature, °C.
    public var temperature: Double?
    /// Whether it rains in the hour: ≥ 0.1 mm, or a rain code (`AccuracyRecord.wet`).
    public var rain: Bool?
    /// The chance of rain in the hour, 0…1, where the provider gives one.
    public var rainProbability: Double?
    /// Mean wind speed, m/s.
    public var windSpeed: Double?
    /// True when taken from the provider's archive of past runs, not kept as it came.
    public var backfilled: Bool?

    public init(
        provider: String, lead: Int, hour: Double, issuedAt: Double, temperature: Double? = nil, rain: Bool? = nil,
        rainProbability: Double? = nil, windSpeed: Double? = nil, backfilled: Bool? = nil
    ) {
        self.provider = provider
        self.lead = lead
        self.hour = hour
        self.issuedAt = issuedAt
        self.temperature = temperature
        self.rain = rain
        self.rainProbability = rainProbability
        self.windSpeed = windSpeed
        self.backfilled = backfilled
    }
}
