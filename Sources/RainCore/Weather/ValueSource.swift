/// IDL `ValueSource`: a station some of the current conditions' values come
/// from when it is not the place's own (`CurrentConditions.sources`): which
/// values, the station's name, how far it is from the place, and how much
/// higher (positive) or lower (negative) it stands than the place's own
/// station. A provider that fills a missing value from a neighbouring
/// station (Bright Sky's `fallback_source_ids`) says so here, and raind
/// shows it beside the values.
public struct ValueSource: Codable, Sendable, Equatable {
    /// The values, by the names of `Value` (`temperature`, `humidity`, …);
    /// empty for the station all the others come from, when it is itself far.
    public var values: [String]
    /// The station's name, as the provider gives it.
    public var station: String
    /// Metres from the place; nil when the provider does not say.
    public var distanceMetres: Double?
    /// The station's height minus the place's own station's, in metres; nil when unknown.
    public var heightDifferenceMetres: Double?

    /// The values raind names.
    public enum Value: String, CaseIterable, Sendable {
        case temperature, humidity, pressure, wind, gusts, visibility, cloudCover, precipitation, condition
    }

    public init(values: [String], station: String, distanceMetres: Double?, heightDifferenceMetres: Double?) {
        self.values = values
        self.station = station
        self.distanceMetres = distanceMetres
        self.heightDifferenceMetres = heightDifferenceMetres
    }

    /// The most sources a forecast's current conditions carry, and the
    /// longest station name and value name, as raind writes them; a cache
    /// file or an answer beyond them is refused.
    public static let maximumCount = 8
    public static let maximumStationBytes = 256
    public static let maximumValues = ValueSource.Value.allCases.count
}
