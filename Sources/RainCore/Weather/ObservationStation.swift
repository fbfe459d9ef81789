/// A station that reports observations: an airport's (`KDCA`), an NWS
/// station's, a DWD station's (`00433`). Its position and height are the
/// source's own; raind measures a place's distance to it
/// (`GeoDistance`) rather than trusting a distance measured from
/// elsewhere.
public struct ObservationStation: Codable, Sendable, Equatable, Hashable {
    /// The source's identifier, which its requests name: an ICAO code, an
    /// NWS station id, a DWD station id.
    public var id: String
    /// Its name, as the source gives it (one line, bounded).
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level; nil when the source does not say.
    public var heightMetres: Double?

    public init(id: String, name: String, latitude: Double, longitude: Double, heightMetres: Double?) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.heightMetres = heightMetres
    }

    /// Longest identifier and name kept, in bytes.
    public static let maximumIDBytes = 32
    public static let maximumNameBytes = 128

    /// Metres from the point given (great circle).
    public func distanceMetres(latitude: Double, longitude: Double) -> Double {
        GeoDistance.kilometres(
            latitude1: self.latitude, longitude1: self.longitude, latitude2: latitude, longitude2: longitude) * 1000
    }
}
