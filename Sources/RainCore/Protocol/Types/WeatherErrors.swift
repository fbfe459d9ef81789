/// The parameters of one `io.raind.Weather` error. Every one carries a
/// `message` that says what went wrong and what to do.
public protocol WeatherErrorParameters: Codable, Sendable {
    static var error: WeatherErrorName { get }
    var message: String { get }
    /// `message` as raindctl shows it (`PlaceWording`).
    var localizedMessage: String { get }
}

public struct LocationNotFound: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.locationNotFound
    public var id: String
    public var message: String
    public init(id: String, message: String) {
        self.id = id
        self.message = message
    }
}

public struct PlaceNotFound: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.placeNotFound
    public var query: String
    public var suggestions: [PlaceCandidate]
    public var message: String
    public init(query: String, suggestions: [PlaceCandidate], message: String) {
        self.query = query
        self.suggestions = suggestions
        self.message = message
    }
}

public struct AmbiguousPlace: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.ambiguousPlace
    public var query: String
    public var candidates: [PlaceCandidate]
    public var message: String
    public init(query: String, candidates: [PlaceCandidate], message: String) {
        self.query = query
        self.candidates = candidates
        self.message = message
    }
}

public struct LocationIsSelected: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.locationIsSelected
    public var id: String
    public var message: String
    public init(id: String, message: String) {
        self.id = id
        self.message = message
    }
}

public struct TooManyLocations: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.tooManyLocations
    /// How many places raind keeps (`LocationList.maximumCount`).
    public var limit: Int
    public var message: String
    public init(limit: Int, message: String) {
        self.limit = limit
        self.message = message
    }
}

public struct Offline: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.offline
    public var message: String
    /// The message's kind and parameters, for a reader's language (`FailureWording`).
    public var wording: FailureWording?
    public init(message: String, wording: FailureWording? = nil) {
        self.message = message
        self.wording = wording
    }
}

public struct QuotaExhausted: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.quotaExhausted
    /// Which budget is used up.
    public var period: BudgetPeriod
    /// Calls counted in that period, and its budget, in the provider's calls.
    public var calls: Double
    public var budget: Double
    public var retryAfter: Double
    public var message: String
    /// The message's kind and parameters, for a reader's language (`FailureWording`).
    public var wording: FailureWording?
    public init(
        period: BudgetPeriod, calls: Double, budget: Double, retryAfter: Double, message: String,
        wording: FailureWording? = nil
    ) {
        self.period = period
        self.calls = calls
        self.budget = budget
        self.retryAfter = retryAfter
        self.message = message
        self.wording = wording
    }
}

public struct ProviderError: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.providerError
    public var message: String
    public var httpStatus: Int?
    public var retryAfter: Double?
    /// The message's kind and parameters, for a reader's language (`FailureWording`).
    public var wording: FailureWording?
    public init(message: String, httpStatus: Int?, retryAfter: Double?, wording: FailureWording? = nil) {
        self.message = message
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.wording = wording
    }
}

public struct NotConfigured: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.notConfigured
    public var message: String
    /// The message's kind and parameters, for a reader's language (`FailureWording`).
    public var wording: FailureWording?
    public init(message: String, wording: FailureWording? = nil) {
        self.message = message
        self.wording = wording
    }
}

public struct PermissionDenied: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.permissionDenied
    public var message: String
    public init(message: String) { self.message = message }
}

public struct SubscriberTooSlow: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.subscriberTooSlow
    public var queuedBytes: Int
    public var message: String
    public init(queuedBytes: Int, message: String) {
        self.queuedBytes = queuedBytes
        self.message = message
    }
}

public struct StateNotSaved: WeatherErrorParameters, Equatable {
    public static let error = WeatherErrorName.stateNotSaved
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

extension WeatherErrorName {
    /// The parameters type of each error, for decoding and for checking against the IDL.
    public var parametersType: any WeatherErrorParameters.Type {
        switch self {
        case .locationNotFound: return LocationNotFound.self
        case .placeNotFound: return PlaceNotFound.self
        case .ambiguousPlace: return AmbiguousPlace.self
        case .locationIsSelected: return LocationIsSelected.self
        case .tooManyLocations: return TooManyLocations.self
        case .offline: return Offline.self
        case .quotaExhausted: return QuotaExhausted.self
        case .providerError: return ProviderError.self
        case .notConfigured: return NotConfigured.self
        case .permissionDenied: return PermissionDenied.self
        case .subscriberTooSlow: return SubscriberTooSlow.self
        case .stateNotSaved: return StateNotSaved.self
        }
    }
}
