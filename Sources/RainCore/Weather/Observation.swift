/// What a weather station measured at one moment, in the SI units a
/// forecast holds (°C, m/s, km, mm), from an observation source
/// (`metar`, `nws`, `dwd`). It is what forecasts are judged against
/// (docs/OBSERVATIONS.md) and what `now` shows beside the forecast. A
/// value the station did not report, or reported as bad, is nil.
public struct Observation: Codable, Sendable, Equatable {
    /// The source's name (`ObservationSource.name` in the daemon).
    public var source: String
    /// Where it was measured.
    public var station: ObservationStation
    /// When it was measured, in Unix seconds.
    public var time: Double
    /// Air temperature, °C.
    public var temperature: Double?
    /// Dew point, °C.
    public var dewPoint: Double?
    /// Mean wind speed, m/s.
    public var windSpeed: Double?
    /// Where the wind comes from, degrees clockwise from north; nil when
    /// calm, variable or not reported.
    public var windBearing: Double?
    /// Gust speed, m/s; nil when no gust was reported.
    public var windGust: Double?
    /// Horizontal visibility, km (a METAR's "10+" statute miles reads as its bound, 16.09 km).
    public var visibility: Double?
    /// The weather at the station (rain, snow, fog…), most significant
    /// first; empty when none was reported.
    public var weather: [ObservedWeather]
    /// Precipitation over the `precipitationHours` before `time`, mm.
    public var precipitation: Double?
    /// The period `precipitation` covers, hours (1, 3, 6); nil with it.
    public var precipitationHours: Double?

    public init(
        source: String, station: ObservationStation, time: Double, temperature: Double? = nil,
        dewPoint: Double? = nil, windSpeed: Double? = nil, windBearing: Double? = nil, windGust: Double? = nil,
        visibility: Double? = nil, weather: [ObservedWeather] = [], precipitation: Double? = nil,
        precipitationHours: Double? = nil
    ) {
        self.source = source
        self.station = station
        self.time = time
        self.temperature = temperature
        self.dewPoint = dewPoint
        self.windSpeed = windSpeed
        self.windBearing = windBearing
        self.windGust = windGust
        self.visibility = visibility
        self.weather = weather
        self.precipitation = precipitation
        self.precipitationHours = precipitationHours
    }

    /// The most kinds of weather an observation keeps (a METAR names at most three groups).
    public static let maximumWeather = 4
}
