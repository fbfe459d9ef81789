/// A forecast for one place, normalized from any provider. Values are SI
/// (°C, m/s, mm/h, hPa, km) and converted only at the edge (`UnitFormatter`).
/// Times are Unix seconds (UTC). A missing value is nil, never a made-up number
/// (a provider's own "missing" marker, such as Pirate Weather's -999, reads as
/// nil too). A chance of rain a provider does not give is unknown (nil); only a
/// provider documented to leave it out when it is 0 (the Forecast API, spoken by
/// Pirate Weather) has its parser write 0 for it. Icons are words of raind's
/// vocabulary (`WeatherIcon`); an unknown condition is `unknown` or empty.
///
/// What the views take from it is decided by shared rules, the same for every
/// provider: the conditions now (`conditions(at:)`), whether it is outdated
/// (`outdated(now:)`) and which day is today (`today(at:zone:)`).
public struct Forecast: Equatable, Sendable, Codable {
    /// Provider name as configured (`open-meteo`, `pirateweather`).
    public var provider: String
    /// The credit the provider's licence asks for next to its data.
    public var attribution: Attribution
    /// When raind received it.
    public var fetchedAt: Double
    /// When the provider says it goes stale (`Cache-Control: max-age`, `Expires`), if it said.
    public var expiresAt: Double?
    /// IANA name of the place's time zone, as the provider reported it; may be
    /// empty. Local times are shown in this zone (its rules from the system's
    /// tz database, daylight-saving changes included).
    public var timeZone: String
    /// The place's offset from UTC at fetch time; local times use it only when
    /// the zone is unknown to the system.
    public var utcOffsetSeconds: Int
    public var current: CurrentConditions?
    public var hourly: [HourlyForecast]
    public var daily: [DailyForecast]
    public var alerts: [WeatherAlert]
    /// Rain in the next hour or two, from the provider's short-range data;
    /// nil when the provider sent none.
    public var nowcast: Nowcast?
    /// Set when another provider than the place's first choice answered:
    /// that one, and why it did not (`ProviderFailover`).
    public var failover: ProviderFailover?
    /// The official alert service for the place and how its last poll
    /// went; nil until raind has looked (`alerts` then holds only the
    /// provider's own). Set by the daemon when it sends the forecast.
    public var alertService: AlertService?
    /// The place's air quality, UV and pollen (`AirQuality`), fetched on
    /// its own schedule; nil when it is off or not fetched yet. Set by the
    /// daemon when it sends the forecast.
    public var air: AirQuality?
    /// Why the scores put this provider first for the place under
    /// `Name=auto` (docs/ACCURACY.md); nil when the region's order or the
    /// user's chose it. Set by the daemon when it sends the forecast.
    public var choice: ProviderChoice?
    /// Set when raind corrected the temperatures by the provider's measured
    /// bias at the place (`[Accuracy] CorrectTemperature=yes`): which, and
    /// the provider's own values. Set by the daemon when it sends the forecast.
    public var correction: TemperatureCorrection?

    /// Times raind accepts, in Unix seconds: 1970 to the year 3000. The
    /// daemon's checks (`validationProblem`) and the nowcast's both hold to it.
    public static let plausibleTimes: ClosedRange<Double> = 0...32_503_680_000

    /// A forecast with the credit given. The daemon's core credits a
    /// provider from its table when none is given (`Forecast+Credit.swift`, in RainDaemonCore).
    public init(
        provider: String, attribution: Attribution, fetchedAt: Double, expiresAt: Double? = nil,
        timeZone: String = "",
        utcOffsetSeconds: Int = 0, current: CurrentConditions? = nil,
        hourly: [HourlyForecast] = [], daily: [DailyForecast] = [], alerts: [WeatherAlert] = [],
        nowcast: Nowcast? = nil, failover: ProviderFailover? = nil
    ) {
        self.failover = failover
        self.provider = provider
        self.attribution = attribution
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
        self.timeZone = timeZone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.current = current
        self.hourly = hourly
        self.daily = daily
        self.alerts = alerts
        self.nowcast = nowcast
    }
}

extension Forecast {
    /// Puts each day's `time` on its local midnight in `zone`. Providers
    /// resolve the zone to the offset valid when asked and keep it for the
    /// whole series (open-meteo/open-meteo#488 and #1545, Pirate Weather
    /// issue #114), so after a daylight-saving change their "midnights" fall
    /// at 23:00 or 01:00 local; each is moved to the nearest local midnight.
    public mutating func alignDays(to zone: TimeZoneRules) {
        for index in daily.indices {
            let date = zone.local(daily[index].time + 43_200).daysSinceEpoch
            daily[index].time = zone.startOfDay(date)
        }
    }
}

/// Conditions now (the app's main view).
public struct CurrentConditions: Equatable, Sendable, Codable {
    public var time: Double
    public var summary: String
    /// Icon name in the Forecast API's vocabulary (`clear-day`, `rain`, `partly-cloudy-night`, ...),
    /// `unknown` or empty when the condition is not known (`WeatherIcon`).
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
    /// 0...1; nil when unknown.
    public var precipProbability: Double?
    public var pressure: Double?
    public var visibility: Double?
    public var uvIndex: Double?
    /// 0...1
    public var cloudCover: Double?
    /// The stations some values come from when they are not the place's own
    /// (`ValueSource`); nil when every value is from the place's own station,
    /// or the provider does not say.
    public var sources: [ValueSource]?

    public init(
        time: Double, summary: String = "", icon: String = "", temperature: Double? = nil,
        apparentTemperature: Double? = nil, humidity: Double? = nil, windSpeed: Double? = nil,
        windGust: Double? = nil, windBearing: Double? = nil, precipIntensity: Double? = nil,
        precipProbability: Double? = nil, pressure: Double? = nil, visibility: Double? = nil,
        uvIndex: Double? = nil, cloudCover: Double? = nil, sources: [ValueSource]? = nil
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
        self.sources = sources
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
    /// Rain in the hour that starts at `time`, in mm/h.
    public var precipIntensity: Double?
    /// Chance of rain in the hour that starts at `time`, 0...1; nil when unknown.
    public var precipProbability: Double?

    public init(
        time: Double, summary: String = "", icon: String = "", temperature: Double? = nil,
        apparentTemperature: Double? = nil, windSpeed: Double? = nil, windBearing: Double? = nil,
        precipIntensity: Double? = nil, precipProbability: Double? = nil
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
    /// 0...1; nil when unknown.
    public var precipProbability: Double?
    /// Total for the day in millimetres, when known.
    public var precipAccumulation: Double?
    /// nil when unknown, and on a day the sun does not rise or set (`polar`).
    public var sunrise: Double?
    public var sunset: Double?
    /// Set when the sun stays up (`day`) or down (`night`) all day.
    public var polar: Polar?

    public init(
        time: Double, summary: String = "", icon: String = "", temperatureMin: Double? = nil,
        temperatureMax: Double? = nil, windSpeed: Double? = nil, precipProbability: Double? = nil,
        precipAccumulation: Double? = nil, sunrise: Double? = nil, sunset: Double? = nil, polar: Polar? = nil
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
        self.polar = polar
    }
}

/// A weather warning issued for the place, in the words of the agency that
/// issued it. The fields after `uri` come from official warning services
/// (CAP, docs/ALERTS.md); a forecast provider's alerts may leave them nil.
public struct WeatherAlert: Equatable, Sendable, Codable {
    public var title: String
    public var severity: AlertSeverity
    /// The areas the alert was issued for, by the agency's names.
    public var regions: [String]
    /// When the alert was issued or takes effect (CAP `effective`, else `sent`).
    public var start: Double?
    /// nil when the provider gave no end: the alert holds while the provider sends it.
    public var end: Double?
    public var description: String
    /// A web page about the alert, for people.
    public var uri: String
    /// The agency's identifier of this message (CAP `identifier`): what an
    /// update or a cancellation names in `references`.
    public var id: String?
    /// The kind of event (CAP `event`: "Flood Watch", "frost").
    public var event: String?
    /// When the hazard is expected to begin (CAP `onset`); nil: at `start`.
    /// An alert whose onset lies ahead is upcoming, not in effect.
    public var onset: Double?
    public var urgency: AlertUrgency?
    public var certainty: AlertCertainty?
    /// `alert`, or an `update`/`cancel` of the messages in `references`.
    public var messageType: AlertMessageType?
    /// The identifiers (`id`) of earlier messages this one updates or cancels.
    public var references: [String]?
    /// What to do (CAP `instruction`).
    public var instruction: String?
    /// The alert source that reported it (`AlertSources`), or the forecast
    /// provider's name for a provider's own alerts.
    public var source: String?
    /// True when the alert was matched to the place by its region's code
    /// rather than by the area's outline: it may not reach the place.
    public var approximate: Bool?

    public init(
        title: String, severity: AlertSeverity = .unknown, regions: [String] = [], start: Double? = nil,
        end: Double? = nil, description: String = "", uri: String = "", id: String? = nil, event: String? = nil,
        onset: Double? = nil, urgency: AlertUrgency? = nil, certainty: AlertCertainty? = nil,
        messageType: AlertMessageType? = nil, references: [String]? = nil, instruction: String? = nil,
        source: String? = nil, approximate: Bool? = nil
    ) {
        self.title = title
        self.severity = severity
        self.regions = regions
        self.start = start
        self.end = end
        self.description = description
        self.uri = uri
        self.id = id
        self.event = event
        self.onset = onset
        self.urgency = urgency
        self.certainty = certainty
        self.messageType = messageType
        self.references = references
        self.instruction = instruction
        self.source = source
        self.approximate = approximate
    }
}

extension WireEnum {
    /// The case whose raw value is `text`, read without regard to case (a
    /// provider's "SEVERE" or "severe"); nil for any other text.
    static func reading(_ text: String) -> Self? {
        let lowered = text.lowercased()
        return allCases.first { $0.rawValue.lowercased() == lowered }
    }
}

/// How soon to act on an alert (CAP `urgency`).
public enum AlertUrgency: String, WireEnum {
    case immediate = "Immediate"
    case expected = "Expected"
    case future = "Future"
    case past = "Past"
    case unknown = "Unknown"

    /// The provider's text read without regard to case; anything else is `unknown`.
    public init(providerText: String) {
        self = Self.reading(providerText) ?? .unknown
    }
}

/// How sure the issuer is (CAP `certainty`; CAP 1.0's "Very Likely" reads as likely).
public enum AlertCertainty: String, WireEnum {
    case observed = "Observed"
    case likely = "Likely"
    case possible = "Possible"
    case unlikely = "Unlikely"
    case unknown = "Unknown"

    /// The provider's text read without regard to case; anything else is `unknown`.
    public init(providerText: String) {
        self = providerText.lowercased() == "very likely" ? .likely : Self.reading(providerText) ?? .unknown
    }
}

/// What a message does (CAP `msgType`): a new alert, or an update or a
/// cancellation of the alerts it references.
public enum AlertMessageType: String, WireEnum {
    case alert = "Alert"
    case update = "Update"
    case cancel = "Cancel"

    /// The provider's text read without regard to case; nil for anything
    /// else (CAP's `Ack` and `Error` are not warnings).
    public init?(providerText: String) {
        guard let type = Self.reading(providerText) else { return nil }
        self = type
    }
}

/// A day on which the sun does not cross the horizon.
public enum Polar: String, WireEnum {
    /// The sun stays up all day (midnight sun): no sunset.
    case day
    /// The sun stays down all day: no sunrise.
    case night
}

/// How severe an alert is, in the provider's words (Pirate Weather passes on
/// the CAP severity of the issuing agency). Cases are ordered from most to
/// least severe.
public enum AlertSeverity: String, WireEnum, Comparable {
    case extreme = "Extreme"
    case severe = "Severe"
    case moderate = "Moderate"
    case minor = "Minor"
    case unknown = "Unknown"

    /// The provider's text read without regard to case; anything else is `unknown`.
    public init(providerText: String) {
        self = Self.reading(providerText) ?? .unknown
    }

    /// 0 for the most severe.
    var rank: Int { Self.allCases.firstIndex(of: self) ?? Self.allCases.count }

    /// More severe sorts first.
    public static func < (lhs: AlertSeverity, rhs: AlertSeverity) -> Bool { lhs.rank < rhs.rank }
}

/// The credit a provider's licence asks for, shown next to its data.
public struct Attribution: Equatable, Sendable, Codable {
    public var text: String
    public var url: String

    public init(text: String, url: String) {
        self.text = text
        self.url = url
    }
}
