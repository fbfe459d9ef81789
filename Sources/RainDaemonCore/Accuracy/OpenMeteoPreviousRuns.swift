import RainCore

/// Open-Meteo's Previous Runs API (https://open-meteo.com/en/docs/previous-runs-api):
/// for each past hour, what its models said one, two… seven days before
/// (`temperature_2m_previous_day1` is the forecast made 24 hours earlier,
/// `_previous_day2` 48 hours earlier). raind reads it once for a new place
/// with a verifying station, so that the place has a first score within
/// minutes instead of days (docs/ACCURACY.md, "Backfill"). The answer is
/// kept as Open-Meteo's samples at +24 h (day 1) and +48 h (day 2), marked
/// as backfilled; days 3 to 7 are leads raind does not judge, and +6 h has
/// no day of its own (day 0 is the latest run, a few hours ahead at most).
///
/// Like a poller, this is its plan (this file: the request, the span, the
/// base URL) and its parser (`OpenMeteoPreviousRuns+Parsing.swift`); the
/// request goes through the upstream client and is spent beside the
/// forecasts in Open-Meteo's own book of the ledger.
public struct OpenMeteoPreviousRuns: Sendable {
    public init() {}

    /// Whose forecasts the archive holds: the samples are this provider's.
    public var provider: ProviderName { .openMeteo }
    public static let defaultBaseURL = "https://previous-runs-api.open-meteo.com"

    /// Days of past hours asked for: the most the NWS keeps of a station's
    /// observations (METAR keeps about 15, Bright Sky more), and seven days
    /// of hours (168) are over twice the pairs `ProviderRanking` needs.
    public static let pastDays = 7
    /// The runs read, by how many days before the hour they were made, and
    /// the lead time each is kept at.
    public static let leads: [(day: Int, leadHours: Int)] = [(1, 24), (2, 48)]
    /// The hourly variables asked for, per run: temperature, the hour's
    /// precipitation and the wind speed (Open-Meteo keeps no chance of rain
    /// of past runs).
    static let variables = ["temperature_2m", "precipitation", "wind_speed_10m"]

    /// The calls Open-Meteo counts for the request, by its pricing rule
    /// (`OpenMeteo.countedCalls`): six variables over eight days are one.
    public static var callsPerRequest: Double {
        OpenMeteo.countedCalls(variables: variables.count * leads.count, days: Double(pastDays + 1))
    }

    /// `/v1/forecast?latitude=…&longitude=…&hourly=temperature_2m_previous_day1,…&past_days=7&forecast_days=1`,
    /// in m/s and Unix seconds like the forecast (`OpenMeteo.forecastPath`),
    /// at the forecast's grid coordinates so both answer for the same point.
    public func request(for place: Location) -> ProviderRequest {
        let hourly = Self.variables.flatMap { variable in
            Self.leads.map { "\(variable)_previous_day\($0.day)" }
        }
        let query: [(String, String)] = [
            ("latitude", ProviderQuery.coordinate(place.latitude)),
            ("longitude", ProviderQuery.coordinate(place.longitude)),
            ("hourly", hourly.joined(separator: ",")),
            ("past_days", String(Self.pastDays)),
            ("forecast_days", "1"),
            ("timezone", "GMT"),
            ("wind_speed_unit", "ms"),
            ("timeformat", "unixtime"),
        ]
        return ProviderRequest(path: "/v1/forecast?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
    }
}
