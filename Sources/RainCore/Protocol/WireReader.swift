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
