import RainCore
import RainDaemonCore

/// A place's forecast as kept on disk, with what a conditional request needs.
public struct CachedForecast: Equatable, Codable {
    /// The file's shape version; a file of another version is fetched anew.
    var version = Self.currentVersion
    /// Where the forecast is for; a cache file for a different position is not used.
    public var latitude: Double
    public var longitude: Double
    public var etag: String?
    public var lastModified: String?
    public var forecast: Forecast
    /// What providers' lookups found for the place (the NWS's office and
    /// grid), by provider name, kept across restarts until each expires.
    public var lookups: [String: ProviderLookup]?

    /// 2: hourly rain moved to the hour it falls in, unknown probabilities null, alert
    /// severities the provider's, attribution added; a version 1 file is fetched anew.
    static let currentVersion = 2

    init(forecast: Forecast, latitude: Double, longitude: Double, etag: String?, lastModified: String?) {
        self.forecast = forecast
        self.latitude = latitude
        self.longitude = longitude
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Reads a cache file, from a tape rather than through `Decodable`: the
    /// selected place's is read before READY=1 (docs/PERFORMANCE.md,
    /// "Start-up"). The errors are `ForecastCache.decode`'s.
    init(bytes: [UInt8]) throws(WireDecodingError) {
        self = try ForecastCache.read(CachedForecast.self, from: bytes, version: Self.currentVersion, context: "cache")
    }
}

extension CachedForecast: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        version = try wire.int("version")
        latitude = try wire.double("latitude")
        longitude = try wire.double("longitude")
        etag = try wire.optionalString("etag")
        lastModified = try wire.optionalString("lastModified")
        forecast = try wire.value("forecast")
        lookups = try wire.optionalMap("lookups")
    }
}
