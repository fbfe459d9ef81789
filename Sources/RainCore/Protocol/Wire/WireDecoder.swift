/// A wire enum: its cases are its wire spellings. Decoding names the
/// accepted values when a value is not one of them.
public protocol WireEnum: RawRepresentable<String>, CaseIterable, Codable, Sendable {}

/// Reads a wire type from a JSON value through `Decodable`, with the
/// protocol's rules: null means absent, a missing required field is an
/// error naming it, and (for a call's parameters) a field the type does not
/// declare is refused rather than ignored.
public enum WireDecoder {
    /// `context`: the path the value sits at, for error messages ("" for a
    /// call's parameters, whose fields are named as they are).
    /// `refusingUnknownFields`: whether a top-level field the type does not read is an error.
    public static func decode<T: Decodable>(
        _ type: T.Type, from value: JSON, context: String = "", refusingUnknownFields: Bool = false
    ) throws(WireDecodingError) -> T {
        let tracker = refusingUnknownFields ? FieldTracker() : nil
        let decoder = TreeDecoder(value: value, path: DecodingPath(root: context), tracker: tracker)
        let decoded: T
        do {
            decoded = try T(from: decoder)
        } catch let error as WireDecodingError {
            throw error
        } catch let DecodingError.dataCorrupted(context) {
            throw WireDecodingError(field: TreeDecoder.join(context.codingPath), reason: context.debugDescription)
        } catch {
            throw WireDecodingError(
                field: context.isEmpty ? VarlinkEnvelopeKey.parameters.rawValue : context, reason: "\(error)")
        }
        if let tracker, case .object(let object) = value,
            let unknown = object.map(\.key).first(where: { !tracker.read.contains($0) })
        {
            let known = tracker.read.sorted()
            throw WireDecodingError(
                field: context.isEmpty ? unknown : "\(context).\(unknown)",
                reason: "unknown field"
                    + (known.isEmpty ? " (none is taken)" : " (known: \(known.joined(separator: ", ")))"))
        }
        return decoded
    }

    /// Whether `type` is read straight from JSON (`primitiveValue`).
    /// Everything else (wire enums too) decodes itself: asking whether a
    /// type conforms to a protocol scans every conformance in the binary
    /// the first time, which raindctl, a new process per command, paid on
    /// every run. Asked of the type alone, so that a structure or an array
    /// is not charged the look-up of an optional of its type.
    static func isPrimitive<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Double.self || T.self == Int.self || T.self == Bool.self
            || T.self == JSON.self
    }

    /// The value of a primitive type (`isPrimitive`) straight from JSON,
    /// without a decoder. `path` is only made into text for an error.
    static func primitiveValue<T>(
        _ type: T.Type, from value: JSON, at path: @autoclosure () -> String
    ) throws(WireDecodingError) -> T {
        func mismatch(_ expected: String) -> WireDecodingError {
            WireDecodingError(field: path(), reason: "expected \(expected), got \(value.kindName)")
        }
        if T.self == String.self {
            guard case .string(let string) = value else { throw mismatch("a string") }
            return string as! T
        }
        if T.self == Double.self {
            guard case .number(let number) = value else { throw mismatch("a number") }
            return number as! T
        }
        if T.self == Int.self {
            guard let number = value.intValue else { throw mismatch("a whole number") }
            return number as! T
        }
        if T.self == Bool.self {
            guard case .bool(let bool) = value else { throw mismatch("true or false") }
            return bool as! T
        }
        if T.self == JSON.self { return value as! T }
        preconditionFailure("\(type) is not a primitive wire type")
    }

    /// `primitiveValue` for a primitive type, nil for any other.
    static func primitive<T>(
        _ type: T.Type, from value: JSON, at path: @autoclosure () -> String
    ) throws(WireDecodingError) -> T? {
        guard isPrimitive(type) else { return nil }
        return try primitiveValue(type, from: value, at: path())
    }
}

extension WireEnum {
    public static var spellings: [String] { allCases.map(\.rawValue) }
}

/// Which top-level fields the decoded type asked for.
private final class FieldTracker {
    var read = Set<String>()
}

/// Where the decoder stands (`hourly[3].temperature`), kept as a stack of
/// parts and made into text only for an error: a forecast has thousands of
/// fields, and building each one's path as a string cost more than reading it.
private final class DecodingPath {
    enum Part {
        case key(String)
        case index(Int)
    }

    private var parts: [Part] = []

    init(root: String) {
        if !root.isEmpty { parts.append(.key(root)) }
    }

    private init(parts: [Part]) { self.parts = parts }

    func push(_ part: Part) { parts.append(part) }

    func pop() { parts.removeLast() }

    /// A path of its own for a container that outlives the call that made it.
    func branch(_ part: Part) -> DecodingPath { DecodingPath(parts: parts + [part]) }

    var isEmpty: Bool { parts.isEmpty }

    func text(appending part: Part? = nil) -> String {
        var text = ""
        for part in parts + (part.map { [$0] } ?? []) {
            switch part {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

private struct TreeDecoder: Decoder {
    let value: JSON
    let path: DecodingPath
    let tracker: FieldTracker?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func join(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Decodes the value at `part` under `path`, the part pushed for the time it takes.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: JSON, at part: DecodingPath.Part, under path: DecodingPath
    ) throws -> T {
        if WireDecoder.isPrimitive(type) {
            return try WireDecoder.primitiveValue(type, from: value, at: path.text(appending: part))
        }
        path.push(part)
        defer { path.pop() }
        do {
            return try T(from: TreeDecoder(value: value, path: path, tracker: nil))
        } catch DecodingError.dataCorrupted(let context) {
            // A wire enum's unknown spelling (RawRepresentable's own decoding
            // refused it): say which are accepted. Asked only here, on the error.
            if let wireEnum = T.self as? any WireEnum.Type, case .string(let string) = value {
                throw WireDecodingError(
                    field: path.text(),
                    reason: "unknown value '\(string)' (expected \(wireEnum.spellings.joined(separator: ", ")))")
            }
            throw WireDecodingError(field: path.text(), reason: context.debugDescription)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw WireDecodingError(
                field: path.isEmpty ? VarlinkEnvelopeKey.parameters.rawValue : path.text(),
                reason: "expected an object, got \(value.kindName)")
        }
        return KeyedDecodingContainer(ObjectReader<Key>(object: object, path: path, tracker: tracker))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw WireDecodingError(field: path.text(), reason: "expected an array, got \(value.kindName)")
        }
        return ArrayReader(items: items, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleReader(value: value, path: path) }
}

private struct ObjectReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let path: DecodingPath
    let tracker: FieldTracker?

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    /// The field's value; nil when absent or null.
    func present(_ key: Key) -> JSON? {
        tracker?.read.insert(key.stringValue)
        guard let value = object[key.stringValue], value != .null else { return nil }
        return value
    }

    func contains(_ key: Key) -> Bool { present(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { present(key) == nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = present(key) else {
            throw WireDecodingError(field: path.text(appending: .key(key.stringValue)), reason: "missing")
        }
        return try TreeDecoder.decode(type, from: value, at: .key(key.stringValue), under: path)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = present(key) else { return nil }
        return try TreeDecoder.decode(type, from: value, at: .key(key.stringValue), under: path)
    }

    // The primitive types, each its own requirement of the protocol: called
    // directly, without the generic path's type tests and casts. A forecast
    // is thousands of numbers.

    /// The primitive field at `key`: nil when absent or null, an error when of another type.
    private func primitive<T>(_ type: T.Type, _ key: Key) throws(WireDecodingError) -> T? {
        guard let value = present(key) else { return nil }
        return try WireDecoder.primitiveValue(type, from: value, at: path.text(appending: .key(key.stringValue)))
    }

    /// The primitive field at `key`, an error when absent or null. Inlined
    /// into each `decode` below, where its type is known: called generically,
    /// its optional's type was looked up on every call.
    @inline(__always)
    private func required<T>(_ type: T.Type, _ key: Key) throws(WireDecodingError) -> T {
        guard let value = try primitive(type, key) else {
            throw WireDecodingError(field: path.text(appending: .key(key.stringValue)), reason: "missing")
        }
        return value
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try primitive(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try primitive(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try primitive(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try primitive(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: present(key) ?? .null, path: path.branch(.key(key.stringValue)), tracker: nil)
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: present(key) ?? .null, path: path.branch(.key(key.stringValue)), tracker: nil)
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { preconditionFailure("wire types do not use superDecoder") }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        preconditionFailure("wire types do not use superDecoder")
    }
}

private struct ArrayReader: UnkeyedDecodingContainer {
    let items: [JSON]
    let path: DecodingPath
    var currentIndex = 0

    init(items: [JSON], path: DecodingPath) {
        self.items = items
        self.path = path
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> (JSON, DecodingPath.Part) {
        guard !isAtEnd else { throw WireDecodingError(field: path.text(), reason: "too few elements") }
        defer { currentIndex += 1 }
        return (items[currentIndex], .index(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, part) = try next()
        if value == .null { throw WireDecodingError(field: path.text(appending: part), reason: "missing (null)") }
        return try TreeDecoder.decode(type, from: value, at: part, under: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, part) = try next()
        return try TreeDecoder(value: value, path: path.branch(part), tracker: nil).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, part) = try next()
        return try TreeDecoder(value: value, path: path.branch(part), tracker: nil).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { preconditionFailure("wire types do not use superDecoder") }
}

private struct SingleReader: SingleValueDecodingContainer {
    let value: JSON
    let path: DecodingPath
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if value == .null { throw WireDecodingError(field: path.text(), reason: "missing") }
        if let primitive = try WireDecoder.primitive(type, from: value, at: path.text()) { return primitive }
        // Other number types (Float, Int64, UInt8, ...): exactly, or an error. They
        // must not reach T(from:), which would ask this container again.
        if let integer = type as? any FixedWidthInteger.Type {
            guard let number = value.doubleValue, let exact = Self.exactly(integer, number) as? T else {
                throw WireDecodingError(
                    field: path.text(), reason: "expected a whole number in range of \(type), got \(value.serialized())"
                )
            }
            return exact
        }
        if let floating = type as? any BinaryFloatingPoint.Type {
            guard let number = value.doubleValue, let converted = Self.converted(floating, number) as? T else {
                throw WireDecodingError(field: path.text(), reason: "expected a number, got \(value.kindName)")
            }
            return converted
        }
        return try T(from: TreeDecoder(value: value, path: path, tracker: nil))
    }

    private static func exactly<I: FixedWidthInteger>(_ type: I.Type, _ number: Double) -> I? { I(exactly: number) }
    private static func converted<F: BinaryFloatingPoint>(_ type: F.Type, _ number: Double) -> F { F(number) }
}

extension Decodable {
    /// Reads the value's wire form; `context` names where it sits, for errors.
    public init(json: JSON, context: String = "") throws(WireDecodingError) {
        self = try WireDecoder.decode(Self.self, from: json, context: context)
    }
}
