import RainCore

/// Open-Meteo's geocoding API (`/v1/search`), asked for names missing from
/// the embedded place data.
public enum OpenMeteoGeocoding {
    public static let providerName = "open-meteo"
    public static let defaultBaseURL = "https://geocoding-api.open-meteo.com"

    /// Path and query for a name search, appended to the base URL.
    public static func searchPath(name: String, count: Int = 10) -> String {
        "/v1/search?name=\(ProviderQuery.percentEncoded(name))&count=\(count)&language=en&format=json"
    }
}
