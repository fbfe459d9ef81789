import RainCore

/// The US National Weather Service's station observations
/// (https://www.weather.gov/documentation/services-web-api): free, no key,
/// public domain, for the United States and its territories. The stations
/// of a place are those of its forecast grid cell,
/// `/gridpoints/{office}/{x},{y}/stations` (nearest first; the cell from
/// `/points`, looked up once and kept a week as the NWS forecast keeps it;
/// the older `/points/…/stations` is deprecated). A station's latest
/// observation is `/stations/{id}/observations/latest`, asked hourly and
/// shared by every place it verifies.
///
/// The API asks for a `User-Agent` naming the application and a way to
/// reach its maintainers, answers GeoJSON to `Accept: application/geo+json`,
/// and sends `Last-Modified`, which raind sends back.
public struct NWSObservationSource: ObservationSource {
    public init() {}

    public var name: String { "nws" }
    public var defaultBaseURL: String { NWS.defaultBaseURL }

    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Observations from the U.S. National Weather Service (public domain)"),
            url: "https://www.weather.gov/")
    }

    /// Most stations report hourly (ASOS at :51 to :56 past); the API
    /// publishes no request limit ("reasonable rate limits").
    public var terms: ObservationSourceTerms {
        ObservationSourceTerms(
            countries: NWS.countries, pollingInterval: 3600, conditionalRequests: true,
            stationLifetime: NWS.lookupLifetime,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 1))
    }

    /// The grid cell first (`/points`), unless kept; a place known to lie
    /// outside the NWS's area is not covered.
    public func stationPlan(for place: Location, lookup: ProviderLookup?) -> ObservationStationPlan {
        if !terms.covers(countryCode: place.countryCode) { return .notCovered(NWS.notCovered) }
        guard let cell = lookup.flatMap(NWSGridCell.init(lookup:)) else {
            return .lookup(
                ProviderRequest(
                    path: NWS.pointsPath(latitude: place.latitude, longitude: place.longitude), headers: NWS.headers))
        }
        return .stations(ProviderRequest(path: cell.path + "/stations", headers: NWS.headers))
    }

    public func parseLookup(_ body: [UInt8], now: Double) throws(ProviderParseError) -> ProviderLookup {
        try NWS.parseLookup(body, now: now)
    }

    public func request(for station: ObservationStation) -> ProviderRequest {
        ProviderRequest(path: "/stations/\(station.id)/observations/latest", headers: NWS.headers)
    }

    /// `/stations/KDCA/observations?start=2026-07-22T14:00:00Z`: the
    /// station's observations since then, newest first (the API keeps
    /// about seven days).
    public func historyRequest(for station: ObservationStation, since: Double, now: Double) -> ProviderRequest {
        ProviderRequest(
            path: "/stations/\(station.id)/observations?start=\(ObservationSources.instant(since))",
            headers: NWS.headers)
    }
}
