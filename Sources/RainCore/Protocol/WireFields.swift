/// A wire type that reads itself field by field from its object in a
/// `JSONTape`, beside its `Decodable` conformance and with the same rules:
/// null is absent, a missing required field is an error naming it, unknown
/// fields are ignored. `Decodable` goes through containers generic over each
/// type's coding keys, which the Swift runtime builds the first time each is
/// used, over a tree of the whole reply built and freed: in `raindctl
/// status`, a new process on each run, that was nearly half its instructions.
/// raindctl reads its status this way; `WireReadingTests` holds each reader
/// to what `Decodable` reads.
public protocol WireReadable {
    init(wire: WireFields) throws(WireDecodingError)
}

/// Typed, checked access to the fields of an object in a `JSONTape`, with
/// `WireReader`'s rules and error messages.
public struct WireFields {
    let tape: JSONTape
    let object: Int
    /// The path of `base`, the value the reading started at (`reply`): the
    /// path of a field below it is made from the tape, only for an error.
    let context: String
    let base: Int

    /// The fields of the tape's `value`; an error when it is not an object.
    public init(_ tape: JSONTape, value: Int = JSONTape.root, context: String) throws(WireDecodingError) {
        try self.init(tape, value: value, context: context, base: value)
    }

    private init(_ tape: JSONTape, value: Int, context: String, base: Int) throws(WireDecodingError) {
        guard tape.kind(value) == .object else {
            throw WireDecodingError(
                field: tape.path(of: value, below: base, context: context),
                reason: "expected an object, got \(tape.kindName(value))")
        }
        self.tape = tape
        self.object = value
        self.context = context
        self.base = base
    }

    /// The fields of `value`, an object inside this one.
    private func nested(_ value: Int) throws(WireDecodingError) -> WireFields {
        try WireFields(tape, value: value, context: context, base: base)
    }

    func path(_ key: String) -> String {
        let path = tape.path(of: object, below: base, context: context)
        return path.isEmpty ? key : "\(path).\(key)"
    }

    /// Whether the object has the field, null or not.
    public func has(_ key: String) -> Bool { tape.member(key, of: object) != nil }

    /// The field's value, or nil when absent or null.
    public func optional(_ key: String) -> Int? {
        guard let value = tape.member(key, of: object), tape.kind(value) != .null else { return nil }
        return value
    }

    /// The field's value; an error naming it when absent or null.
    public func required(_ key: String) throws(WireDecodingError) -> Int {
        try present(optional(key), key)
    }

    public func optionalString(_ key: String) throws(WireDecodingError) -> String? {
        try typed(key, "a string", tape.string)
    }

    public func string(_ key: String) throws(WireDecodingError) -> String { try present(optionalString(key), key) }

    public func optionalDouble(_ key: String) throws(WireDecodingError) -> Double? {
        try typed(key, "a number", tape.number)
    }

    public func double(_ key: String) throws(WireDecodingError) -> Double { try present(optionalDouble(key), key) }

    /// A whole number, as `JSON.intValue` takes one.
    public func optionalInt(_ key: String) throws(WireDecodingError) -> Int? {
        try typed(key, "a whole number") { tape.number($0).flatMap { JSON.number($0).intValue } }
    }

    public func int(_ key: String) throws(WireDecodingError) -> Int { try present(optionalInt(key), key) }

    public func optionalBool(_ key: String) throws(WireDecodingError) -> Bool? {
        try typed(key, "true or false", tape.bool)
    }

    public func bool(_ key: String) throws(WireDecodingError) -> Bool { try present(optionalBool(key), key) }

    /// The field as `read` takes it (`tape.string`), nil when absent or
    /// null; an error saying `expected` when `read` finds another kind.
    private func typed<T>(
        _ key: String, _ expected: String, _ read: (Int) -> T?
    ) throws(WireDecodingError) -> T? {
        guard let value = optional(key) else { return nil }
        guard let typed = read(value) else {
            throw WireDecodingError(field: path(key), reason: "expected \(expected), got \(tape.kindName(value))")
        }
        return typed
    }

    /// A required field's `value`; an error naming `key` when there is none.
    private func present<T>(_ value: T?, _ key: String) throws(WireDecodingError) -> T {
        guard let value else { throw WireDecodingError(field: path(key), reason: "missing") }
        return value
    }

    public func value<T: WireReadable>(_ key: String) throws(WireDecodingError) -> T {
        try T(wire: nested(required(key)))
    }

    public func optionalValue<T: WireReadable>(_ key: String) throws(WireDecodingError) -> T? {
        guard let value = optional(key) else { return nil }
        return try T(wire: nested(value))
    }

    public func values<T: WireReadable>(_ key: String) throws(WireDecodingError) -> [T] {
        try elements(of: required(key)) { value throws(WireDecodingError) in try T(wire: nested(value)) }
    }

    public func optionalValues<T: WireReadable>(_ key: String) throws(WireDecodingError) -> [T]? {
        guard let value = optional(key) else { return nil }
        return try elements(of: value) { value throws(WireDecodingError) in try T(wire: nested(value)) }
    }

    public func strings(_ key: String) throws(WireDecodingError) -> [String] {
        try strings(in: required(key))
    }

    public func optionalStrings(_ key: String) throws(WireDecodingError) -> [String]? {
        guard let value = optional(key) else { return nil }
        return try strings(in: value)
    }

    /// The array `value`'s elements, each a string.
    private func strings(in value: Int) throws(WireDecodingError) -> [String] {
        try elements(of: value) { value throws(WireDecodingError) in
            guard let string = tape.string(value) else {
                throw WireDecodingError(
                    field: path(of: value), reason: "expected a string, got \(tape.kindName(value))")
            }
            return string
        }
    }

    public func ids(_ key: String) throws(WireDecodingError) -> [LocationID] {
        try strings(key).map(LocationID.init)
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
        try present(optionalWireEnum(key), key)
    }

    /// An object whose every member is a string.
    public func stringMap(_ key: String) throws(WireDecodingError) -> [String: String] {
        let fields = try nested(required(key))
        var map: [String: String] = [:]
        for (member, _) in tape.members(of: fields.object) { map[member] = try fields.string(member) }
        return map
    }

    /// An object whose every member is a `T`, nil when absent or null.
    public func optionalMap<T: WireReadable>(_ key: String) throws(WireDecodingError) -> [String: T]? {
        guard let value = optional(key) else { return nil }
        let fields = try nested(value)
        var map: [String: T] = [:]
        for (member, _) in tape.members(of: fields.object) { map[member] = try fields.value(member) }
        return map
    }

    /// The path of `value`, inside this object, for an error.
    private func path(of value: Int) -> String { tape.path(of: value, below: base, context: context) }

    /// The array's elements, each read by `read`; a null element is an
    /// error, as a missing field is.
    private func elements<T>(
        of value: Int, _ read: (Int) throws(WireDecodingError) -> T
    ) throws(WireDecodingError) -> [T] {
        guard tape.kind(value) == .array else {
            throw WireDecodingError(field: path(of: value), reason: "expected an array, got \(tape.kindName(value))")
        }
        let items = tape.elements(of: value)
        var elements: [T] = []
        elements.reserveCapacity(items.count)
        for item in items {
            if tape.kind(item) == .null { throw WireDecodingError(field: path(of: item), reason: "missing (null)") }
            elements.append(try read(item))
        }
        return elements
    }
}
