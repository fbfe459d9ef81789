/// Why a JSON value does not have the shape a wire type needs. Names the
/// field, so an `InvalidParameter` error can say which parameter was wrong.
public struct WireDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Dotted path of the offending field (`parameters.latitude`).
    public var field: String
    public var reason: String
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
    public var description: String { "\(field): \(reason)" }
}

/// Typed, checked access to a JSON object's fields.
public struct WireReader {
    public let object: JSONObject
    public let context: String

    public init(_ value: JSON, context: String) throws(WireDecodingError) {
        guard case .object(let object) = value else {
            throw WireDecodingError(field: context, reason: "expected an object, got \(value.kindName)")
        }
        self.object = object
        self.context = context
    }

    public init(object: JSONObject, context: String) {
        self.object = object
        self.context = context
    }

    func path(_ key: String) -> String { context.isEmpty ? key : "\(context).\(key)" }

    func mismatch(_ key: String, expected: String, got value: JSON) -> WireDecodingError {
        WireDecodingError(field: path(key), reason: "expected \(expected), got \(value.kindName)")
    }

    /// The field, or nil when absent or null.
    public func optional(_ key: String) -> JSON? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    public func optionalString(_ key: String) throws(WireDecodingError) -> String? {
        guard let value = optional(key) else { return nil }
        guard let string = value.stringValue else { throw mismatch(key, expected: "a string", got: value) }
        return string
    }

    public func string(_ key: String) throws(WireDecodingError) -> String {
        guard let value = try optionalString(key) else {
            throw WireDecodingError(field: path(key), reason: "missing")
        }
        return value
    }

    public func optionalDouble(_ key: String) throws(WireDecodingError) -> Double? {
        guard let value = optional(key) else { return nil }
        guard let number = value.doubleValue else { throw mismatch(key, expected: "a number", got: value) }
        return number
    }

    public func double(_ key: String) throws(WireDecodingError) -> Double {
        guard let value = try optionalDouble(key) else {
            throw WireDecodingError(field: path(key), reason: "missing")
        }
        return value
    }

    public func optionalInt(_ key: String) throws(WireDecodingError) -> Int? {
        guard let value = optional(key) else { return nil }
        guard let number = value.intValue else { throw mismatch(key, expected: "a whole number", got: value) }
        return number
    }

    public func optionalBool(_ key: String) throws(WireDecodingError) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard let bool = value.boolValue else { throw mismatch(key, expected: "true or false", got: value) }
        return bool
    }

    /// The array, or empty when absent or null.
    public func array(_ key: String) throws(WireDecodingError) -> [JSON] {
        guard let value = optional(key) else { return [] }
        guard let array = value.arrayValue else { throw mismatch(key, expected: "an array", got: value) }
        return array
    }
}

/// A wire type that reads itself from its JSON object field by field,
/// through a `WireReader`, beside its `Decodable` conformance and with the
/// same rules (null is absent, a missing required field is an error naming
/// it, unknown fields are ignored). `Decodable` goes through containers
/// generic over each type's coding keys, which the Swift runtime builds the
/// first time each is used: in `raindctl status`, a new process on each run,
/// that was a quarter of its instructions. raindctl reads its status this
/// way; `WireReadingTests` holds each reader to every field the type encodes.
public protocol WireReadable {
    init(wire: WireReader) throws(WireDecodingError)
}

extension WireReader {
    /// The field; an error naming it when absent or null.
    public func required(_ key: String) throws(WireDecodingError) -> JSON {
        guard let value = optional(key) else { throw WireDecodingError(field: path(key), reason: "missing") }
        return value
    }

    public func int(_ key: String) throws(WireDecodingError) -> Int {
        guard let value = try optionalInt(key) else { throw WireDecodingError(field: path(key), reason: "missing") }
        return value
    }

    public func bool(_ key: String) throws(WireDecodingError) -> Bool {
        guard let value = try optionalBool(key) else { throw WireDecodingError(field: path(key), reason: "missing") }
        return value
    }

    public func value<T: WireReadable>(_ key: String) throws(WireDecodingError) -> T {
        try T(wire: WireReader(required(key), context: path(key)))
    }

    public func optionalValue<T: WireReadable>(_ key: String) throws(WireDecodingError) -> T? {
        guard let value = optional(key) else { return nil }
        return try T(wire: WireReader(value, context: path(key)))
    }

    public func values<T: WireReadable>(_ key: String) throws(WireDecodingError) -> [T] {
        try elements(of: required(key), at: path(key)) { value, path throws(WireDecodingError) in
            try T(wire: WireReader(value, context: path))
        }
    }

    public func optionalValues<T: WireReadable>(_ key: String) throws(WireDecodingError) -> [T]? {
        guard let value = optional(key) else { return nil }
        return try elements(of: value, at: path(key)) { value, path throws(WireDecodingError) in
            try T(wire: WireReader(value, context: path))
        }
    }

    public func strings(_ key: String) throws(WireDecodingError) -> [String] {
        try elements(of: required(key), at: path(key)) { value, path throws(WireDecodingError) in
            guard let string = value.stringValue else {
                throw WireDecodingError(field: path, reason: "expected a string, got \(value.kindName)")
            }
            return string
        }
    }

    public func ids(_ key: String) throws(WireDecodingError) -> [LocationID] {
        try strings(key).map(LocationID.init)
    }

    public func optionalID(_ key: String) throws(WireDecodingError) -> LocationID? {
        try optionalString(key).map(LocationID.init)
    }

    public func id(_ key: String) throws(WireDecodingError) -> LocationID { LocationID(try string(key)) }

    /// A wire enum's value; an unknown spelling is an error naming the accepted ones.
    public func optionalWireEnum<E: WireEnum>(_ key: String) throws(WireDecodingError) -> E? {
        guard let spelling = try optionalString(key) else { return nil }
        guard let value = E(rawValue: spelling) else {
            throw WireDecodingError(
                field: path(key),
                reason: "unknown value '\(spelling)' (expected \(E.spellings.joined(separator: ", ")))")
        }
        return value
    }

    public func wireEnum<E: WireEnum>(_ key: String) throws(WireDecodingError) -> E {
        guard let value: E = try optionalWireEnum(key) else {
            throw WireDecodingError(field: path(key), reason: "missing")
        }
        return value
    }

    /// An object whose every member is a string.
    public func stringMap(_ key: String) throws(WireDecodingError) -> [String: String] {
        let object = try WireReader(required(key), context: path(key))
        var map: [String: String] = [:]
        for (member, _) in object.object { map[member] = try object.string(member) }
        return map
    }

    /// The array's elements, each read by `read` with its path (`places[2]`);
    /// a null element is an error, as a missing field is.
    private func elements<T>(
        of value: JSON, at path: String, _ read: (JSON, String) throws(WireDecodingError) -> T
    ) throws(WireDecodingError) -> [T] {
        guard let items = value.arrayValue else {
            throw WireDecodingError(field: path, reason: "expected an array, got \(value.kindName)")
        }
        var elements: [T] = []
        elements.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if item == .null { throw WireDecodingError(field: "\(path)[\(index)]", reason: "missing (null)") }
            elements.append(try read(item, "\(path)[\(index)]"))
        }
        return elements
    }
}
