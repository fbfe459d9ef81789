/// A saved place's identifier: short, stable once assigned, and typeable
/// (`paris-fr`). Places are never compared by coordinates.
public struct LocationID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: LocationID, rhs: LocationID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a place came from. Two places with the same source id are the same place.
public enum LocationSource: Equatable, Sendable {
    /// A row of the embedded GeoNames data.
    case geonames(id: Int)
    /// A result of the online geocoder.
    case geocoder(provider: String, id: String)
    /// Coordinates given by a person, named by them or by reverse geocoding.
    case coordinates
    /// The machine's position (GeoClue2), or an estimate from its time zone.
    case current(approximate: Bool)

    /// A key equal for the same upstream place, nil when the source names none.
    public var identity: String? {
        switch self {
        case .geonames(let id): return "geonames:\(id)"
        case .geocoder(let provider, let id): return "\(provider):\(id)"
        case .coordinates, .current: return nil
        }
    }
}

/// A saved place.
public struct Location: Equatable, Sendable, Codable, WireSparse {
    public var id: LocationID
    public var name: String
    /// First-level division (state, province, region); may be empty.
    public var region: String
    public var country: String
    /// ISO 3166-1 alpha-2, upper case; may be empty when unknown.
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    /// IANA time zone name; may be empty until a forecast tells it.
    public var timeZone: String
    public var source: LocationSource
    /// true for the one place whose position raind keeps at the machine's
    /// (`add --current --follow`); nil, and absent on the wire, for the others.
    public var follows: Bool?

    public init(
        id: LocationID, name: String, region: String = "", country: String = "",
        countryCode: String = "", latitude: Double, longitude: Double,
        timeZone: String = "", source: LocationSource, follows: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.source = source
        self.follows = follows
    }

    /// Whether raind keeps this place at the machine's position.
    public var isFollowing: Bool { follows == true }

    /// "Paris, Île-de-France, France": what a person reads in lists.
    public var displayName: String {
        [name, region, country.isEmpty ? countryCode : country]
            .filter { !$0.isEmpty }
            .reduce(into: [String]()) { parts, part in
                if parts.last != part { parts.append(part) }
            }
            .joined(separator: ", ")
    }
}

/// A place not yet saved: what a search, a reverse lookup or a request
/// by coordinates produces. Saving it assigns an id.
public struct PlaceCandidate: Equatable, Sendable, Codable {
    public var name: String
    public var region: String
    public var country: String
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    public var timeZone: String
    public var population: Int
    public var source: LocationSource

    public init(
        name: String, region: String = "", country: String = "", countryCode: String = "",
        latitude: Double, longitude: Double, timeZone: String = "", population: Int = 0,
        source: LocationSource
    ) {
        self.name = name
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.population = population
        self.source = source
    }
}

extension Location {
    /// `displayName` with the country in the reader's language
    /// (`CountryName`): what views and notifications show. `displayName`
    /// stays English, for the daemon's messages and for matching names.
    public var localizedDisplayName: String {
        [name, region, country.isEmpty ? countryCode : CountryName.localized(country, code: countryCode)]
            .filter { !$0.isEmpty }
            .reduce(into: [String]()) { parts, part in
                if parts.last != part { parts.append(part) }
            }
            .joined(separator: ", ")
    }
}
