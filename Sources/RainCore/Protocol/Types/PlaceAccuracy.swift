/// How one provider's forecasts at one lead time compared with the
/// verifying station's observations over the scoring window
/// (docs/ACCURACY.md). Each measure comes with the pairs behind it and is
/// nil below `PlaceAccuracy.minimumPairs` of them: no verdict from too few.
public struct AccuracyScore: Codable, Sendable, Equatable {
    public var provider: String
    /// Hours between the forecast's issue and the hour judged.
    public var leadHours: Int
    /// Hours with a forecast and an observation to compare.
    public var pairs: Int
    /// Of `pairs`, those from the provider's archive of past runs (backfilled).
    public var backfilledPairs: Int
    public var temperaturePairs: Int
    /// Mean absolute error, °C.
    public var temperatureError: Double?
    /// Mean of forecast minus observed, °C (positive: too warm).
    public var temperatureBias: Double?
    /// Share of hours within 2 °C, 0…1.
    public var withinTwoDegrees: Double?
    public var rainPairs: Int
    /// Hours rain was forecast and observed; forecast and not observed; observed and not forecast.
    public var rainHits: Int
    public var rainFalseAlarms: Int
    public var rainMisses: Int
    /// Of the hours it rained, the share forecast (hits / (hits + misses)).
    public var rainHitRate: Double?
    /// Of the hours it did not rain, the share forecast wet (false alarms / (false alarms + dry hours forecast dry)).
    public var rainFalseAlarmRate: Double?
    public var brierPairs: Int
    /// Mean squared error of the chance of rain (0 perfect, 1 worst).
    public var brierScore: Double?
    public var windPairs: Int
    /// Mean absolute error of the wind speed, m/s.
    public var windError: Double?

    public init(provider: String, leadHours: Int) {
        self.provider = provider
        self.leadHours = leadHours
        pairs = 0
        backfilledPairs = 0
        temperaturePairs = 0
        rainPairs = 0
        rainHits = 0
        rainFalseAlarms = 0
        rainMisses = 0
        brierPairs = 0
        windPairs = 0
    }
}

/// A place's scores (`GetAccuracy`): each provider at each lead time over
/// the window, the station they are judged against or why there is none,
/// and which provider serves the place and since when.
public struct PlaceAccuracy: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// The window scored, Unix seconds.
    public var from: Double
    public var until: Double
    /// The fewest pairs a measure needs to be given.
    public var minimumPairs: Int
    public var source: String?
    public var station: ObservationStation?
    public var distanceMetres: Double?
    public var heightDifferenceMetres: Double?
    /// Why the place has no verifying station (nil while it is looked for, or when it has one).
    public var problem: String?
    /// Why the place's kept pairs were refused and started anew (a damaged file), until it is written again.
    public var fileProblem: String?
    /// The provider serving the place now, and since when (nil: since before raind started).
    public var serving: String?
    public var servingSince: Double?
    /// What was taken from history for the place's first scores, once; nil while it was not done.
    public var backfill: AccuracyBackfill?
    /// By provider, then lead time.
    public var scores: [AccuracyScore]
    /// Each provider's +24 h temperature error day by day over the window, by provider then day.
    public var days: [AccuracyDay] = []

    public init(id: String, name: String, from: Double, until: Double, minimumPairs: Int, scores: [AccuracyScore]) {
        self.id = id
        self.name = name
        self.from = from
        self.until = until
        self.minimumPairs = minimumPairs
        self.scores = scores
    }
}
