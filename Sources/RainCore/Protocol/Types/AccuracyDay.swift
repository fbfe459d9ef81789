/// One provider's mean absolute temperature error at +24 h over one day
/// of the scoring window (`PlaceAccuracy.days`, drawn by `raindctl
/// accuracy --chart`): the day is the 24 hours from `from`, counted back
/// from the window's end, and the error is nil below
/// `AccuracyDay.minimumPairs` pairs.
public struct AccuracyDay: Codable, Sendable, Equatable {
    public var provider: String
    /// The day's start, Unix seconds: the window's end less a whole number of days.
    public var from: Double
    /// Mean absolute error, °C.
    public var temperatureError: Double?
    public var pairs: Int

    /// The fewest pairs a day's error needs: a quarter of its hours (a
    /// provider compared four times a day has twelve).
    public static let minimumPairs = 6

    public init(provider: String, from: Double, temperatureError: Double?, pairs: Int) {
        self.provider = provider
        self.from = from
        self.temperatureError = temperatureError
        self.pairs = pairs
    }
}
