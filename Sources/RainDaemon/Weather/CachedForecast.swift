import RainCore

/// A place's forecast as kept on disk, with what a conditional request needs.
public struct CachedForecast: Equatable {
    public var forecast: Forecast
    /// Where the forecast is for; a cache file for a different position is not used.
    public var latitude: Double
    public var longitude: Double
    public var etag: String?
    public var lastModified: String?

    static let version = 1

    var json: JSON {
        var object = JSONObject()
        object["version"] = .int(Self.version)
        object["latitude"] = .number(latitude)
        object["longitude"] = .number(longitude)
        object["etag"] = etag.map(JSON.string) ?? .null
        object["lastModified"] = lastModified.map(JSON.string) ?? .null
        object["forecast"] = forecast.json
        return .object(object)
    }

    init(forecast: Forecast, latitude: Double, longitude: Double, etag: String?, lastModified: String?) {
        self.forecast = forecast
        self.latitude = latitude
        self.longitude = longitude
        self.etag = etag
        self.lastModified = lastModified
    }

    init(bytes: [UInt8]) throws(WireDecodingError) {
        let value: JSON
        do {
            value = try JSON(parsing: bytes)
        } catch {
            throw WireDecodingError(field: "cache", reason: error.description)
        }
        let reader = try WireReader(value, context: "cache")
        guard try reader.optionalInt("version") == Self.version else {
            throw WireDecodingError(field: "cache.version", reason: "not version \(Self.version)")
        }
        guard let forecast = reader.optional("forecast") else {
            throw WireDecodingError(field: "cache.forecast", reason: "missing")
        }
        self.init(
            forecast: try Forecast(json: forecast),
            latitude: try reader.double("latitude"), longitude: try reader.double("longitude"),
            etag: try reader.optionalString("etag"), lastModified: try reader.optionalString("lastModified"))
    }
}
