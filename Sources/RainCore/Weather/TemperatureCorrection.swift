/// How raind corrected a forecast's temperatures by its provider's
/// measured bias at the place (`[Accuracy] CorrectTemperature=yes`,
/// docs/ACCURACY.md, "Correcting the temperature"): the verifying station
/// the bias was measured at, and every value corrected, with the
/// provider's own. A value not listed is the provider's own.
public struct TemperatureCorrection: Equatable, Sendable, Codable {
    /// The verifying station's name.
    public var station: String
    /// Every value corrected, in the forecast's order: the current
    /// temperature, the hours, the days' lows and highs.
    public var values: [CorrectedTemperature]

    public init(station: String, values: [CorrectedTemperature] = []) {
        self.station = station
        self.values = values
    }

    /// The correction of the `kind` value at `time`, if it was corrected.
    public func value(_ kind: CorrectedTemperature.Kind, at time: Double) -> CorrectedTemperature? {
        values.first { $0.value == kind && $0.time == time }
    }
}

/// One corrected temperature: which (`value` at `time`: the current
/// conditions', an hour's, a day's low or high), the provider's own
/// (`provider`, °C), and the bias taken off it (`bias`, °C: the value
/// shown is `provider − bias`), measured over `pairs` pairs.
public struct CorrectedTemperature: Equatable, Sendable, Codable {
    public enum Kind: String, Equatable, WireEnum {
        case current, hour, low, high
    }

    public var value: Kind
    /// The current conditions' time, the hour's start, or the day's local midnight.
    public var time: Double
    public var provider: Double
    public var bias: Double
    public var pairs: Int

    public init(value: Kind, time: Double, provider: Double, bias: Double, pairs: Int) {
        self.value = value
        self.time = time
        self.provider = provider
        self.bias = bias
        self.pairs = pairs
    }
}
