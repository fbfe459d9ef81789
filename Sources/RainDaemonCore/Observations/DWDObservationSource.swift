import RainCore

/// The Deutscher Wetterdienst's station observations for Germany, through
/// Bright Sky (https://brightsky.dev/docs/): free, no key, the DWD's open
/// data. `/current_weather` answers the latest report of the station
/// nearest a point (its `sources`: each station's DWD id, position,
/// height, distance and `observation_type`: `synop` for the half-hourly
/// SYNOP reports, `current` for the hourly ones, `historical` for the
/// checked archive, `forecast` for a MOSMIX point, never a station). The
/// place's station is found once from the answer for its point, then
/// asked for by id, `/current_weather?dwd_station_id=00433`, hourly and
/// shared by every place it verifies.
///
/// Bright Sky fills a value its station lacks from another station
/// (`fallback_source_ids`); such values are not the verifying station's
/// and are left out.
public struct DWDObservationSource: ObservationSource {
    public init() {}

    public var name: String { "dwd" }
    public var defaultBaseURL: String { BrightSky.defaultBaseURL }

    /// The DWD's terms (GeoNutzV) ask for the source to be named.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Observations: Deutscher Wetterdienst, via Bright Sky"),
            url: "https://www.dwd.de/")
    }

    /// SYNOP stations report every half hour and Bright Sky reads them
    /// within minutes; hourly is the bound raind keeps (docs/OBSERVATIONS.md).
    /// Bright Sky sets no request limit.
    public var terms: ObservationSourceTerms {
        ObservationSourceTerms(
            countries: ["DE"], pollingInterval: 3600, conditionalRequests: true,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 1))
    }

    /// `/current_weather?lat=52.52&lon=13.41&max_dist=25000&units=dwd`:
    /// stations farther than `VerifyingStation.maximumDistanceMetres` are
    /// not asked for.
    public func stationPlan(for place: Location, lookup: ProviderLookup?) -> ObservationStationPlan {
        if !terms.covers(countryCode: place.countryCode) {
            return .notCovered(Localization.marked("the DWD reports stations in Germany only"))
        }
        let query: [(String, String)] = [
            ("lat", ProviderQuery.coordinate(place.latitude)),
            ("lon", ProviderQuery.coordinate(place.longitude)),
            ("max_dist", String(Int(VerifyingStation.maximumDistanceMetres))),
            ("units", "dwd"),
        ]
        return .stations(
            ProviderRequest(path: "/current_weather?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")))
    }

    public func request(for station: ObservationStation) -> ProviderRequest {
        ProviderRequest(path: "/current_weather?dwd_station_id=\(station.id)&units=dwd")
    }

    /// `/weather?dwd_station_id=00433&date=…&last_date=…&units=dwd`: the
    /// station's hourly records from `since` to now (`historical`, `synop`
    /// and `current` observations; Bright Sky keeps the DWD's archive).
    public func historyRequest(for station: ObservationStation, since: Double, now: Double) -> ProviderRequest {
        let query: [(String, String)] = [
            ("dwd_station_id", station.id),
            ("date", ObservationSources.instant(since)),
            ("last_date", ObservationSources.instant(now)),
            ("units", "dwd"),
        ]
        return ProviderRequest(path: "/weather?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
    }
}
