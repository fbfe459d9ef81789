import RainCore

extension AirQuality {
    /// Air quality credited as its service's licence asks
    /// (`Attribution(provider:)`) unless `attribution` says otherwise: how
    /// the parser and the tests make one.
    public init(
        provider: String, attribution: Attribution? = nil, fetchedAt: Double, index: AirQualityIndex,
        time: Double? = nil, aqi: Int? = nil, dominant: Pollutant? = nil, pm25: Double? = nil, pm10: Double? = nil,
        o3: Double? = nil, no2: Double? = nil, uvIndex: Double? = nil, pollen: [Pollen] = [], hourly: [AirHour] = [],
        problem: String? = nil, wording: FailureWording? = nil
    ) {
        self.init(
            provider: provider, attribution: attribution ?? Attribution(provider: provider), fetchedAt: fetchedAt,
            index: index, time: time, aqi: aqi, dominant: dominant, pm25: pm25, pm10: pm10, o3: o3, no2: no2,
            uvIndex: uvIndex, pollen: pollen, hourly: hourly, problem: problem, wording: wording)
    }
}
