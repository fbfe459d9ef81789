extension Forecast {
    /// The forecast as its provider sent it: each temperature raind
    /// corrected (`correction`) given back the provider's own value.
    public var uncorrected: Forecast {
        guard let correction else { return self }
        var result = self
        result.correction = nil
        for value in correction.values {
            switch value.value {
            case .current:
                if result.current?.time == value.time { result.current?.temperature = value.provider }
            case .hour:
                if let index = result.hourly.firstIndex(where: { $0.time == value.time }) {
                    result.hourly[index].temperature = value.provider
                }
            case .low:
                if let index = result.daily.firstIndex(where: { $0.time == value.time }) {
                    result.daily[index].temperatureMin = value.provider
                }
            case .high:
                if let index = result.daily.firstIndex(where: { $0.time == value.time }) {
                    result.daily[index].temperatureMax = value.provider
                }
            }
        }
        return result
    }

    /// Whether the `kind` temperature at `time` is raind's correction, not the provider's own.
    public func isCorrected(_ kind: CorrectedTemperature.Kind, at time: Double) -> Bool {
        correction?.value(kind, at: time) != nil
    }
}

extension Forecast {
    /// Whether the temperature of the conditions at `now` (`conditions(at:)`:
    /// the current block, or the hour in progress) is raind's correction.
    public func isCorrected(conditionsAt now: Double) -> Bool {
        guard case let (conditions, observed)? = conditions(at: now) else { return false }
        return isCorrected(observed ? .current : .hour, at: conditions.time)
    }
}
