import RainCore

/// The NWS zones a place lies in, from its `/points` answer (the lookup raind
/// keeps for the NWS forecast and the NWS observations): its public forecast
/// zone (`ORZ006`), its county (`ORC057`) and its fire weather zone
/// (`ORZ606`), as UGC codes. The NWS issues each warning for the zones or
/// the counties its product names, not both, and the API answers a zone's
/// question with what was issued for that zone only (weather-gov/api#3): a
/// tornado or severe thunderstorm warning is issued by county, a winter
/// storm warning by forecast zone, a red flag warning by fire zone. So the
/// alerts of a place are asked with all three in one request,
/// `/alerts/active?zone=ORC057,ORZ006,ORZ606`, the same question for every
/// place with the same three (most places of a zone), which a site proxy
/// can answer for every machine asking it.
public enum NWSAlertZones {
    /// The `/points` properties that name the zones, and the lookup values they are kept as.
    public static let keys = ["forecastZone", "county", "fireWeatherZone"]

    /// `ORZ006` from `https://api.weather.gov/zones/forecast/ORZ006` (or the
    /// code alone): two letters, `Z` or `C`, three digits; nil for anything else,
    /// since it goes into a request.
    public static func code(_ text: String) -> String? {
        let last = text.split(separator: "/").last.map(String.init) ?? ""
        let bytes = Array(last.utf8)
        guard bytes.count == 6 else { return nil }
        let letters = bytes[0...1].allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        let kind = bytes[2] == UInt8(ascii: "Z") || bytes[2] == UInt8(ascii: "C")
        let digits = bytes[3...5].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return letters && kind && digits ? last : nil
    }

    /// The zones the first of `lookups` with a forecast zone names, sorted
    /// (so that places naming the same ask the same question); nil when
    /// none names one: the place keeps the point query.
    public static func zones(in lookups: [ProviderLookup]) -> [String]? {
        for lookup in lookups {
            guard let forecast = lookup.values["forecastZone"].flatMap(code) else { continue }
            let others = keys.dropFirst().compactMap { lookup.values[$0].flatMap(code) }
            return Array(Set([forecast] + others)).sorted()
        }
        return nil
    }

    /// `/alerts/active?zone=ORC057,ORZ006,ORZ606`.
    static func path(_ zones: [String]) -> String {
        "/alerts/active?zone=" + zones.joined(separator: ",")
    }
}
