/// Names of the `io.raind.Weather` interface, declared once (the IDL in
/// `protocol/io.raind.Weather.varlink` is the contract; WireSchemaTests keeps
/// every method, type, field and error here equal to it).
public enum WeatherInterface {
    public static let name = "io.raind.Weather"
}

public enum WeatherMethod: String, CaseIterable, Sendable {
    case getStatus = "GetStatus"
    case listLocations = "ListLocations"
    case addLocation = "AddLocation"
    case removeLocation = "RemoveLocation"
    case selectLocation = "SelectLocation"
    case searchPlaces = "SearchPlaces"
    case setSettings = "SetSettings"
    case refresh = "Refresh"
    case getForecast = "GetForecast"
    case getAccuracy = "GetAccuracy"
    case subscribe = "Subscribe"

    public var qualifiedName: String { "\(WeatherInterface.name).\(rawValue)" }
}

/// The errors of `io.raind.Weather`.
public enum WeatherErrorName: String, WireEnum {
    case locationNotFound = "LocationNotFound"
    case placeNotFound = "PlaceNotFound"
    case ambiguousPlace = "AmbiguousPlace"
    case locationIsSelected = "LocationIsSelected"
    case tooManyLocations = "TooManyLocations"
    case offline = "Offline"
    case quotaExhausted = "QuotaExhausted"
    case providerError = "ProviderError"
    case notConfigured = "NotConfigured"
    case permissionDenied = "PermissionDenied"
    case subscriberTooSlow = "SubscriberTooSlow"
    case stateNotSaved = "StateNotSaved"

    public var qualifiedName: String { "\(WeatherInterface.name).\(rawValue)" }
}
