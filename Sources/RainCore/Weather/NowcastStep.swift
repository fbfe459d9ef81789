/// One step of short-range precipitation: from `time` for the nowcast's resolution.
public struct NowcastStep: Equatable, Sendable, Codable {
    public var time: Double
    /// mm/h over the step; nil when unknown.
    public var precipIntensity: Double?
    /// 0...1; nil when the provider gives none or it is unknown.
    public var precipProbability: Double?

    public init(time: Double, precipIntensity: Double?, precipProbability: Double? = nil) {
        self.time = time
        self.precipIntensity = precipIntensity
        self.precipProbability = precipProbability
    }

    var isWet: Bool {
        guard let precipIntensity else { return false }
        return precipIntensity >= Nowcast.wetIntensity && (precipProbability ?? 1) >= Nowcast.wetProbability
    }
}
