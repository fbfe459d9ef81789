/// What raind took from history for a new place's first scores
/// (docs/ACCURACY.md, "Backfill"): a provider's archive of past runs paired
/// with the verifying station's recent observations. Done once per place;
/// kept with the place's accuracy record so a restart does not ask again.
public struct AccuracyBackfill: Codable, Sendable, Equatable {
    /// When it was done, Unix seconds.
    public var at: Double
    /// The provider whose past runs were taken (`open-meteo`).
    public var provider: String
    /// The samples taken from its past runs (+24 h and +48 h).
    public var samples: Int
    /// The station's hours read from its recent observations.
    public var observedHours: Int
    /// Why nothing was taken (an answer raind could not read); nil when it was.
    public var problem: String?

    public init(at: Double, provider: String, samples: Int = 0, observedHours: Int = 0, problem: String? = nil) {
        self.at = at
        self.provider = provider
        self.samples = samples
        self.observedHours = observedHours
        self.problem = problem
    }
}
