/// Names of the `io.raind.Weather` interface, declared once (the IDL in
/// `protocol/io.raind.Weather.varlink` is the contract; a test keeps them equal).
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
    case subscribe = "Subscribe"

    public var qualifiedName: String { "\(WeatherInterface.name).\(rawValue)" }
}

/// The errors of `io.raind.Weather`.
public enum WeatherErrorName: String, CaseIterable, Sendable {
    case locationNotFound = "LocationNotFound"
    case placeNotFound = "PlaceNotFound"
    case ambiguousPlace = "AmbiguousPlace"
    case locationIsSelected = "LocationIsSelected"
    case offline = "Offline"
    case quotaExhausted = "QuotaExhausted"
    case providerError = "ProviderError"
    case notConfigured = "NotConfigured"
    case permissionDenied = "PermissionDenied"
    case subscriberTooSlow = "SubscriberTooSlow"
    case stateNotSaved = "StateNotSaved"

    public var qualifiedName: String { "\(WeatherInterface.name).\(rawValue)" }
}

/// The errors of `org.varlink.service` that raind sends.
public enum VarlinkServiceError: String, Sendable {
    case interfaceNotFound = "InterfaceNotFound"
    case methodNotFound = "MethodNotFound"
    case methodNotImplemented = "MethodNotImplemented"
    case invalidParameter = "InvalidParameter"
    case expectedMore = "ExpectedMore"
    case permissionDenied = "PermissionDenied"

    public var qualifiedName: String { "org.varlink.service.\(rawValue)" }
}

// MARK: - Wire forms of the model

extension Location {
    public var json: JSON {
        var object = JSONObject()
        object["id"] = .string(id.rawValue)
        object["name"] = .string(name)
        object["region"] = .string(region)
        object["country"] = .string(country)
        object["countryCode"] = .string(countryCode)
        object["latitude"] = .number(latitude)
        object["longitude"] = .number(longitude)
        object["timeZone"] = .string(timeZone)
        object["source"] = source.json
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "location")
        let sourceJSON = reader.optional("source") ?? .object(["kind": .string("coordinates")])
        self.init(
            id: LocationID(try reader.string("id")),
            name: try reader.string("name"),
            region: try reader.optionalString("region") ?? "",
            country: try reader.optionalString("country") ?? "",
            countryCode: try reader.optionalString("countryCode") ?? "",
            latitude: try reader.double("latitude"),
            longitude: try reader.double("longitude"),
            timeZone: try reader.optionalString("timeZone") ?? "",
            source: try LocationSource(json: sourceJSON))
    }
}

extension LocationSource {
    public var json: JSON {
        switch self {
        case .geonames(let id): return .object(["kind": .string("geonames"), "id": .string(String(id))])
        case .geocoder(let provider, let id):
            return .object(["kind": .string("geocoder"), "provider": .string(provider), "id": .string(id)])
        case .coordinates: return .object(["kind": .string("coordinates")])
        case .current(let approximate):
            return .object(["kind": .string("current"), "approximate": .bool(approximate)])
        }
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "source")
        switch try reader.string("kind") {
        case "geonames":
            // Written as a string; whole numbers are accepted too.
            guard let id = reader.optional("id").flatMap({ $0.intValue ?? $0.stringValue.flatMap { Int($0) } }) else {
                throw WireDecodingError(field: "source.id", reason: "expected a GeoNames id")
            }
            self = .geonames(id: id)
        case "geocoder":
            self = .geocoder(provider: try reader.string("provider"), id: try reader.string("id"))
        case "coordinates": self = .coordinates
        case "current": self = .current(approximate: try reader.optionalBool("approximate") ?? false)
        case let other:
            throw WireDecodingError(
                field: "source.kind",
                reason: "unknown kind '\(other)' (expected geonames, geocoder, coordinates or current)")
        }
    }
}

extension PlaceCandidate {
    public var json: JSON {
        var object = JSONObject()
        object["name"] = .string(name)
        object["region"] = .string(region)
        object["country"] = .string(country)
        object["countryCode"] = .string(countryCode)
        object["latitude"] = .number(latitude)
        object["longitude"] = .number(longitude)
        object["timeZone"] = .string(timeZone)
        object["population"] = .int(population)
        object["source"] = source.json
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "candidate")
        self.init(
            name: try reader.string("name"),
            region: try reader.optionalString("region") ?? "",
            country: try reader.optionalString("country") ?? "",
            countryCode: try reader.optionalString("countryCode") ?? "",
            latitude: try reader.double("latitude"),
            longitude: try reader.double("longitude"),
            timeZone: try reader.optionalString("timeZone") ?? "",
            population: try reader.optionalInt("population") ?? 0,
            source: try LocationSource(json: reader.optional("source") ?? .object(["kind": .string("coordinates")])))
    }
}

extension Settings {
    public var json: JSON {
        var object = JSONObject()
        object["units"] = .string(units.rawValue)
        object["refreshMinutes"] = refreshMinutes.map(JSON.int) ?? .null
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "settings")
        let unitsText = try reader.string("units")
        guard let units = UnitSystem(rawValue: unitsText) else {
            throw WireDecodingError(field: "settings.units", reason: "unknown unit system '\(unitsText)' (expected us, si, ca or uk)")
        }
        self.init(units: units, refreshMinutes: try reader.optionalInt("refreshMinutes"))
    }
}

extension RefreshFailure {
    public var json: JSON {
        var object = JSONObject()
        object["error"] = .string(error.rawValue)
        object["message"] = .string(message)
        object["httpStatus"] = httpStatus.map(JSON.int) ?? .null
        object["retryAfter"] = JSON(retryAfter)
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "failure")
        let name = try reader.string("error")
        self.init(
            error: WeatherErrorName(rawValue: name) ?? .providerError,
            message: try reader.optionalString("message") ?? name,
            httpStatus: try reader.optionalInt("httpStatus"),
            retryAfter: try reader.optionalDouble("retryAfter"))
    }
}

extension Event {
    /// The event as one Subscribe reply's parameters: `{"event": "LocationAdded", ...}`.
    public var json: JSON {
        var object = JSONObject()
        object["event"] = .string(name.rawValue)
        switch self {
        case .locationAdded(let location), .locationRemoved(let location), .locationSelected(let location):
            object["location"] = location.json
        case .settingsChanged(let settings):
            object["settings"] = settings.json
        case .weatherUpdated(let id, let forecast):
            object["id"] = .string(id.rawValue)
            object["forecast"] = forecast.json
        case .reachabilityChanged(let online):
            object["online"] = .bool(online)
        case .refreshStarted(let ids):
            object["ids"] = .array(ids.map { .string($0.rawValue) })
        case .refreshFailed(let id, let failure):
            object["id"] = .string(id.rawValue)
            object["failure"] = failure.json
        case .alertsChanged(let id, let alerts):
            object["id"] = .string(id.rawValue)
            object["alerts"] = .array(alerts.map(\.json))
        }
        return .object(object)
    }

    public init(json: JSON) throws(WireDecodingError) {
        let reader = try WireReader(json, context: "event")
        let nameText = try reader.string("event")
        guard let name = EventName(rawValue: nameText) else {
            throw WireDecodingError(field: "event.event", reason: "unknown event '\(nameText)'")
        }
        func location() throws(WireDecodingError) -> Location {
            guard let value = reader.optional("location") else {
                throw WireDecodingError(field: "event.location", reason: "missing")
            }
            return try Location(json: value)
        }
        func required(_ key: String) throws(WireDecodingError) -> JSON {
            guard let value = reader.optional(key) else {
                throw WireDecodingError(field: "event.\(key)", reason: "missing")
            }
            return value
        }
        switch name {
        case .locationAdded: self = .locationAdded(try location())
        case .locationRemoved: self = .locationRemoved(try location())
        case .locationSelected: self = .locationSelected(try location())
        case .settingsChanged: self = .settingsChanged(try Settings(json: try required("settings")))
        case .weatherUpdated:
            self = .weatherUpdated(LocationID(try reader.string("id")), try Forecast(json: try required("forecast")))
        case .reachabilityChanged: self = .reachabilityChanged(online: try reader.optionalBool("online") ?? false)
        case .refreshStarted:
            self = .refreshStarted(try reader.array("ids").compactMap(\.stringValue).map(LocationID.init))
        case .refreshFailed:
            self = .refreshFailed(LocationID(try reader.string("id")), try RefreshFailure(json: try required("failure")))
        case .alertsChanged:
            self = .alertsChanged(
                LocationID(try reader.string("id")),
                try reader.array("alerts").map { value throws(WireDecodingError) in try WeatherAlert(json: value) })
        }
    }
}
