import RainCore

extension Forecast {
    /// A forecast credited as its provider's licence asks
    /// (`Attribution(provider:)`) unless `attribution` says otherwise: how
    /// the parsers and the tests make one.
    public init(
        provider: String, attribution: Attribution? = nil, fetchedAt: Double, expiresAt: Double? = nil,
        timeZone: String = "",
        utcOffsetSeconds: Int = 0, current: CurrentConditions? = nil,
        hourly: [HourlyForecast] = [], daily: [DailyForecast] = [], alerts: [WeatherAlert] = [],
        nowcast: Nowcast? = nil, failover: ProviderFailover? = nil
    ) {
        self.init(
            provider: provider, attribution: attribution ?? Attribution(provider: provider), fetchedAt: fetchedAt,
            expiresAt: expiresAt, timeZone: timeZone, utcOffsetSeconds: utcOffsetSeconds, current: current,
            hourly: hourly, daily: daily, alerts: alerts, nowcast: nowcast, failover: failover)
    }
}
