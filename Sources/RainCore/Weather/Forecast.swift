/// A forecast for one place, normalized from any provider. Values are SI
/// (°C, m/s, mm/h, hPa, km) and converted only at the edge (`UnitFormatter`).
/// Times are Unix seconds (UTC). A missing value is nil, never a made-up number,
/// except a missing precipitation probability, which means 0 (the Forecast API
/// omits it when it is 0).
public struct Forecast: Equatable, Sendable, Codable {
    /// Provider name as configured (`open-meteo`, `pirateweather`).
    public var provider: String
    /// When raind received it.
    public var fetchedAt: Double
    /// When the provider says it goes stale (`Cache-Control: max-age`, `Expires`), if it said.
    public var expiresAt: Double?
    /// IANA name of the place's time zone, as the provider reported it; may be empty.
    public var timeZone: String
    /// The place's offset from UTC at fetch time, used to show local times.
    public var utcOffsetSeconds: Int
    public var current: CurrentConditions?
    public var hourly: [HourlyForecast]
    public var daily: [DailyForecast]
    public var alerts: [WeatherAlert]

    public init(
        provider: String, fetchedAt: Double, expiresAt: Double? = nil, timeZone: String = "",
        utcOffsetSeconds: Int = 0, current: CurrentConditions? = nil,
        hourly: [HourlyForecast] = [], daily: [DailyForecast] = [], alerts: [WeatherAlert] = []
    ) {
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
        self.timeZone = timeZone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.current = current
        self.hourly = hourly
        self.daily = daily
        self.alerts = alerts
    }
}

/// Conditions now (the app's main view).
public struct CurrentConditions: Equatable, Sendable, Codable {
    public var time: Double
    public var summary: String
    /// Icon name in the Forecast API's vocabulary (`clear-day`, `rain`, `partly-cloudy-night`, ...).
    public var icon: String
    public var temperature: Double?
    public var apparentTemperature: Double?
    /// 0...1
    public var humidity: Double?
    public var windSpeed: Double?
    public var windGust: Double?
    /// Degrees, where the wind comes from.
    public var windBearing: Double?
    public var precipIntensity: Double?
    /// 0...1
    public var precipProbability: Double
    public var pressure: Double?
    public var visibility: Double?
    public var uvIndex: Double?
    /// 0...1
    public var cloudCover: Double?

    public init(
        time: Double, summary: String = "", icon: String = "", temperature: Double? = nil,
        apparentTemperature: Double? = nil, humidity: Double? = nil, windSpeed: Double? = nil,
        windGust: Double? = nil, windBearing: Double? = nil, precipIntensity: Double? = nil,
        precipProbability: Double = 0, pressure: Double? = nil, visibility: Double? = nil,
        uvIndex: Double? = nil, cloudCover: Double? = nil
    ) {
        self.time = time
        self.summary = summary
        self.icon = icon
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.humidity = humidity
        self.windSpeed = windSpeed
        self.windGust = windGust
        self.windBearing = windBearing
        self.precipIntensity = precipIntensity
        self.precipProbability = precipProbability
        self.pressure = pressure
        self.visibility = visibility
        self.uvIndex = uvIndex
        self.cloudCover = cloudCover
    }
}

/// One hour (the app's hourly strip).
public struct HourlyForecast: Equatable, Sendable, Codable {
    public var time: Double
    public var summary: String
    public var icon: String
    public var temperature: Double?
    public var apparentTemperature: Double?
    public var windSpeed: Double?
    public var windBearing: Double?
    public var precipIntensity: Double?
    public var precipProbability: Double

    public init(
        time: Double, summary: String = "", icon: String = "", temperature: Double? = nil,
        apparentTemperature: Double? = nil, windSpeed: Double? = nil, windBearing: Double? = nil,
        precipIntensity: Double? = nil, precipProbability: Double = 0
    ) {
        self.time = time
        self.summary = summary
        self.icon = icon
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.windSpeed = windSpeed
        self.windBearing = windBearing
        self.precipIntensity = precipIntensity
        self.precipProbability = precipProbability
    }
}

/// One day (the app's daily list). `time` is local midnight of that day.
public struct DailyForecast: Equatable, Sendable, Codable {
    public var time: Double
    public var summary: String
    public var icon: String
    public var temperatureMin: Double?
    public var temperatureMax: Double?
    public var windSpeed: Double?
    public var precipProbability: Double
    /// Total for the day in millimetres, when known.
    public var precipAccumulation: Double?
    public var sunrise: Double?
    public var sunset: Double?

    public init(
        time: Double, summary: String = "", icon: String = "", temperatureMin: Double? = nil,
        temperatureMax: Double? = nil, windSpeed: Double? = nil, precipProbability: Double = 0,
        precipAccumulation: Double? = nil, sunrise: Double? = nil, sunset: Double? = nil
    ) {
        self.time = time
        self.summary = summary
        self.icon = icon
        self.temperatureMin = temperatureMin
        self.temperatureMax = temperatureMax
        self.windSpeed = windSpeed
        self.precipProbability = precipProbability
        self.precipAccumulation = precipAccumulation
        self.sunrise = sunrise
        self.sunset = sunset
    }
}

/// A weather warning issued for the place.
public struct WeatherAlert: Equatable, Sendable, Codable {
    public var title: String
    /// `advisory`, `watch` or `warning` where the provider says.
    public var severity: String
    public var regions: [String]
    public var start: Double?
    public var end: Double?
    public var description: String
    public var uri: String

    public init(
        title: String, severity: String = "", regions: [String] = [], start: Double? = nil,
        end: Double? = nil, description: String = "", uri: String = ""
    ) {
        self.title = title
        self.severity = severity
        self.regions = regions
        self.start = start
        self.end = end
        self.description = description
        self.uri = uri
    }
}
