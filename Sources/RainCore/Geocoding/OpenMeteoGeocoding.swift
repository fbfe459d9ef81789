/// Open-Meteo's geocoding API (`/v1/search`), asked for names missing from
/// the embedded place data.
public enum OpenMeteoGeocoding {
    public static let providerName = "open-meteo"
    public static let defaultBaseURL = "https://geocoding-api.open-meteo.com"

    /// Path and query for a name search, appended to the base URL.
    public static func searchPath(name: String, count: Int = 10) -> String {
        "/v1/search?name=\(ProviderQuery.percentEncoded(name))&count=\(count)&language=en&format=json"
    }

    /// The candidates of a search answer, in the provider's order. An answer
    /// without `results` means no match.
    public static func parse(_ body: [UInt8]) throws(WireDecodingError) -> [PlaceCandidate] {
        let value: JSON
        do {
            value = try JSON(parsing: body)
        } catch {
            throw WireDecodingError(field: "geocoding", reason: error.description)
        }
        let reader = try WireReader(value, context: "geocoding")
        if let reason = try reader.optionalString("reason"), try reader.optionalBool("error") == true {
            throw WireDecodingError(field: "geocoding", reason: "the geocoder reported an error: \(reason)")
        }
        var candidates: [PlaceCandidate] = []
        for (index, item) in try reader.array("results").enumerated() {
            let result = try WireReader(item, context: "geocoding.results[\(index)]")
            guard let latitude = try result.optionalDouble("latitude"), let longitude = try result.optionalDouble("longitude"),
                (-90...90).contains(latitude), (-180...180).contains(longitude),
                let name = try result.optionalString("name"), !name.isEmpty
            else { continue }
            let id = try result.optionalInt("id").map(String.init) ?? "\(latitude),\(longitude)"
            candidates.append(PlaceCandidate(
                name: name,
                region: try result.optionalString("admin1") ?? "",
                country: try result.optionalString("country") ?? "",
                countryCode: (try result.optionalString("country_code") ?? "").uppercased(),
                latitude: latitude, longitude: longitude,
                timeZone: try result.optionalString("timezone") ?? "",
                population: try result.optionalInt("population") ?? 0,
                source: .geocoder(provider: providerName, id: id)))
        }
        return candidates
    }
}
