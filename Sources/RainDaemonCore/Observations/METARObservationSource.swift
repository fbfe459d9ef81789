import Glibc
import RainCore

/// Airports' weather reports (METAR) worldwide, from the Aviation Weather
/// Center's Data API (https://aviationweather.gov/data/api/): free, no
/// key, US Government work in the public domain. Some 9,000 airports
/// report every hour (most at :50 to :56 past), and more often when the
/// weather changes (SPECI).
///
/// raind embeds no list of airports: the stations near a place are the
/// ones reporting now inside a box around it, asked once a week
/// (`/api/data/metar?bbox=…`: every report in the box, each with its
/// station's position, height and name), and the place's station is the
/// nearest within `VerifyingStation`'s limits. So an airport that closed
/// or stopped reporting is never chosen, and the list needs no update; the
/// cost is one larger request a week per place (docs/OBSERVATIONS.md).
/// Then one request an hour per station, `/api/data/metar?ids=KDCA`,
/// shared by every place it verifies.
public struct METARObservationSource: ObservationSource {
    public init() {}

    public var name: String { "metar" }
    public var defaultBaseURL: String { "https://aviationweather.gov" }

    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Observations: METAR from the NOAA Aviation Weather Center (public domain)"),
            url: "https://aviationweather.gov/")
    }

    /// The API allows 100 requests a minute and asks for a descriptive
    /// `User-Agent`; raind asks once an hour per station. Reports are
    /// renewed hourly, so every hour fetches each new one once.
    public var terms: ObservationSourceTerms {
        ObservationSourceTerms(
            countries: nil, pollingInterval: 3600, conditionalRequests: true,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 1,
                callsPerMinute: 100))
    }

    /// The box around `place` that holds every point within
    /// `VerifyingStation.maximumDistanceMetres`, as `minLat,minLon,maxLat,maxLon`
    /// with two decimals (rounded outwards). Near a pole or the 180th
    /// meridian it is cut at the edge: stations beyond it are not seen.
    static func box(latitude: Double, longitude: Double) -> String {
        let reach = VerifyingStation.maximumDistanceMetres / 1000
        let latitudeSpan = reach / 111.0
        let cosine = max(0.01, cos(min(89.9, abs(latitude) + latitudeSpan) * .pi / 180))
        let longitudeSpan = min(180, reach / (111.0 * cosine))
        func down(_ value: Double) -> Double { (value * 100).rounded(.down) / 100 }
        func up(_ value: Double) -> Double { (value * 100).rounded(.up) / 100 }
        let edges = [
            down(max(-90, latitude - latitudeSpan)), down(max(-180, longitude - longitudeSpan)),
            up(min(90, latitude + latitudeSpan)), up(min(180, longitude + longitudeSpan)),
        ]
        return edges.map { ProviderQuery.coordinate($0) }.joined(separator: ",")
    }

    public func stationPlan(for place: Location, lookup: ProviderLookup?) -> ObservationStationPlan {
        .stations(
            ProviderRequest(
                path:
                    "/api/data/metar?bbox=\(Self.box(latitude: place.latitude, longitude: place.longitude))&format=json"
            ))
    }

    public func request(for station: ObservationStation) -> ProviderRequest {
        ProviderRequest(path: "/api/data/metar?ids=\(station.id)&format=json")
    }

    /// `/api/data/metar?ids=KDCA&format=json&hours=168`: every report of
    /// the last `hours` (the Data API keeps about 15 days), newest first.
    public func historyRequest(for station: ObservationStation, since: Double, now: Double) -> ProviderRequest {
        let hours = min(Self.historyHours, max(1, Int(((now - since) / 3600).rounded(.up))))
        return ProviderRequest(path: "/api/data/metar?ids=\(station.id)&format=json&hours=\(hours)")
    }

    /// The most hours of reports the Data API keeps.
    static let historyHours = 15 * 24
}
