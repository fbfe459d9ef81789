/// One method of `io.raind.Weather`: its parameters and its reply as types.
/// raind decodes `Parameters` and encodes `Reply`; raindctl does the reverse,
/// so both read the same declarations.
public protocol WeatherCall {
    associatedtype Parameters: Codable & Sendable
    associatedtype Reply: Codable & Sendable
    static var method: WeatherMethod { get }
    /// The parameters of a method that takes none, which both ends use
    /// without running the encoder or the decoder; nil for every other method.
    static var noParameters: Parameters? { get }
}

extension WeatherCall {
    public static var noParameters: Parameters? { nil }
}

extension WeatherCall where Parameters == NoParameters {
    public static var noParameters: Parameters? { NoParameters() }
}

/// Parameters of a method that takes none.
public struct NoParameters: Codable, Sendable, Equatable {
    public init() {}
}

public enum GetStatusCall: WeatherCall {
    public static let method = WeatherMethod.getStatus
    public typealias Parameters = NoParameters
    public struct Reply: Codable, Sendable, Equatable {
        public var status: WeatherStatus
        public init(status: WeatherStatus) { self.status = status }
    }
}

public enum ListLocationsCall: WeatherCall {
    public static let method = WeatherMethod.listLocations
    public typealias Parameters = NoParameters
    public struct Reply: Codable, Sendable, Equatable {
        public var locations: [Location]
        public var selected: LocationID?
        public init(locations: [Location], selected: LocationID?) {
            self.locations = locations
            self.selected = selected
        }
    }
}

public enum AddLocationCall: WeatherCall {
    public static let method = WeatherMethod.addLocation
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        public var query: String?
        public var latitude: Double?
        public var longitude: Double?
        public var name: String?
        public var current: Bool?
        /// With `current`: raind keeps the place at the machine's position.
        public var follow: Bool?
        public init(
            query: String? = nil, latitude: Double? = nil, longitude: Double? = nil, name: String? = nil,
            current: Bool? = nil, follow: Bool? = nil
        ) {
            self.query = query
            self.latitude = latitude
            self.longitude = longitude
            self.name = name
            self.current = current
            self.follow = follow
        }
    }
    public struct Reply: Codable, Sendable, Equatable {
        public var location: Location
        public var added: Bool
        public var approximate: Bool
        /// What a person should know about how the place was found.
        public var note: String?
        public init(location: Location, added: Bool, approximate: Bool, note: String? = nil) {
            self.location = location
            self.added = added
            self.approximate = approximate
            self.note = note
        }
    }
}

/// Parameters naming one saved place by id or name.
public struct PlaceReference: Codable, Sendable, Equatable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// A reply carrying the place a call acted on.
public struct LocationReply: Codable, Sendable, Equatable {
    public var location: Location
    public init(location: Location) { self.location = location }
}

public enum RemoveLocationCall: WeatherCall {
    public static let method = WeatherMethod.removeLocation
    public typealias Parameters = PlaceReference
    public typealias Reply = LocationReply
}

public enum SelectLocationCall: WeatherCall {
    public static let method = WeatherMethod.selectLocation
    public typealias Parameters = PlaceReference
    public typealias Reply = LocationReply
}

public enum SearchPlacesCall: WeatherCall {
    public static let method = WeatherMethod.searchPlaces
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        public var query: String
        public var limit: Int?
        public init(query: String, limit: Int? = nil) {
            self.query = query
            self.limit = limit
        }
    }
    public struct Reply: Codable, Sendable, Equatable {
        public var candidates: [PlaceCandidate]
        public init(candidates: [PlaceCandidate]) { self.candidates = candidates }
    }
}

public enum SetSettingsCall: WeatherCall {
    public static let method = WeatherMethod.setSettings
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        /// A unit system as a person types it (`us`, `celsius`, `metric`, ...).
        public var units: String?
        public var refreshMinutes: Int?
        public init(units: String? = nil, refreshMinutes: Int? = nil) {
            self.units = units
            self.refreshMinutes = refreshMinutes
        }
    }
    public struct Reply: Codable, Sendable, Equatable {
        public var settings: Settings
        public init(settings: Settings) { self.settings = settings }
    }
}

public enum RefreshCall: WeatherCall {
    public static let method = WeatherMethod.refresh
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        public var id: String?
        public var all: Bool?
        public init(id: String? = nil, all: Bool? = nil) {
            self.id = id
            self.all = all
        }
    }
    public struct Reply: Codable, Sendable, Equatable {
        public var updated: [LocationID]
        public var failed: [LocationID]
        public init(updated: [LocationID], failed: [LocationID]) {
            self.updated = updated
            self.failed = failed
        }
    }
}

public enum GetAccuracyCall: WeatherCall {
    public static let method = WeatherMethod.getAccuracy
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        public var id: String?
        public init(id: String? = nil) { self.id = id }
    }
    public struct Reply: Codable, Sendable, Equatable {
        public var places: [PlaceAccuracy]
        public init(places: [PlaceAccuracy]) { self.places = places }
    }
}

public enum GetForecastCall: WeatherCall {
    public static let method = WeatherMethod.getForecast
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        public var id: String?
        public init(id: String? = nil) { self.id = id }
    }
    public struct Reply: Codable, Sendable, Equatable {
        public var location: Location
        public var forecast: Forecast?
        public var ageSeconds: Double?
        public var stale: Bool
        /// The place's verifying station and its latest observation; nil while looked for.
        public var observed: PlaceObservation?
        public init(
            location: Location, forecast: Forecast?, ageSeconds: Double?, stale: Bool,
            observed: PlaceObservation? = nil
        ) {
            self.location = location
            self.forecast = forecast
            self.ageSeconds = ageSeconds
            self.stale = stale
            self.observed = observed
        }
    }
}

public enum SubscribeCall: WeatherCall {
    public static let method = WeatherMethod.subscribe
    public struct Parameters: Codable, Sendable, Equatable, WireSparse {
        public var events: [EventName]?
        public init(events: [EventName]? = nil) { self.events = events }
    }
    public typealias Reply = SubscribeReply
}

extension WeatherMethod {
    /// The declaration of each method's parameters and reply.
    public var call: any WeatherCall.Type {
        switch self {
        case .getStatus: return GetStatusCall.self
        case .listLocations: return ListLocationsCall.self
        case .addLocation: return AddLocationCall.self
        case .removeLocation: return RemoveLocationCall.self
        case .selectLocation: return SelectLocationCall.self
        case .searchPlaces: return SearchPlacesCall.self
        case .setSettings: return SetSettingsCall.self
        case .refresh: return RefreshCall.self
        case .getForecast: return GetForecastCall.self
        case .getAccuracy: return GetAccuracyCall.self
        case .subscribe: return SubscribeCall.self
        }
    }
}
