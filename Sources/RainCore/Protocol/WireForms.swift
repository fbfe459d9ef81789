/// The wire forms of the model types that are not plain structs: a field's
/// name is its Swift property name, so each is written once (IDL types
/// `Source`, `Location`, `Candidate`, `Settings`, `Failure`, `Current`,
/// `Hour`, `Day`, `Alert` and `Forecast` are the model structs themselves).

extension UnitSystem: WireEnum {}

extension LocationID: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// IDL `Source`: where a saved place came from, flattened for the wire.
public struct SourceWire: Codable, Sendable, Equatable, WireSparse {
    public enum Kind: String, WireEnum {
        case geonames, geocoder, coordinates, current
    }
    public var kind: Kind
    public var id: String?
    public var provider: String?
    public var approximate: Bool?
}

extension LocationSource: Codable, WireSparse {
    public init(from decoder: any Decoder) throws {
        try self.init(SourceWire(from: decoder))
    }

    /// The place's source its wire form names; an error when the form is incomplete.
    public init(_ wire: SourceWire) throws(WireDecodingError) {
        switch wire.kind {
        case .geonames:
            guard let id = wire.id.flatMap({ Int($0) }) else {
                throw WireDecodingError(field: "source.id", reason: "expected a GeoNames id (digits)")
            }
            self = .geonames(id: id)
        case .geocoder:
            guard let provider = wire.provider, let id = wire.id else {
                throw WireDecodingError(field: "source", reason: "a geocoder source needs provider and id")
            }
            self = .geocoder(provider: provider, id: id)
        case .coordinates: self = .coordinates
        case .current: self = .current(approximate: wire.approximate ?? false)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try wire.encode(to: encoder)
    }

    public var wire: SourceWire {
        switch self {
        case .geonames(let id): return SourceWire(kind: .geonames, id: String(id))
        case .geocoder(let provider, let id): return SourceWire(kind: .geocoder, id: id, provider: provider)
        case .coordinates: return SourceWire(kind: .coordinates)
        case .current(let approximate): return SourceWire(kind: .current, approximate: approximate)
        }
    }
}
