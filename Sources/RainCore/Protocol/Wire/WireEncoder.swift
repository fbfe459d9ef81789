/// Turns a wire type into its JSON value through `Encodable`, so a field's
/// wire name is its Swift property name, written once. An optional that is
/// nil is written as `null` (the protocol reads null and absent alike, and
/// clients that index a reply directly find every declared field).
public enum WireEncoder {
    public static func encode<T: Encodable>(_ value: T) -> JSON {
        if let json = primitive(value) { return json }
        let encoder = TreeEncoder(codingPath: [], omitsNil: value is any WireSparse)
        // Encoding into JSON values cannot fail: every Swift value has a JSON form
        // here (a non-finite number becomes null, as JSON.format writes it).
        do {
            try value.encode(to: encoder)
        } catch {
            preconditionFailure("encoding \(T.self) threw \(error); wire types must not throw while encoding")
        }
        return encoder.result
    }

    /// The JSON of a value that needs no container, without making an encoder.
    static func primitive<T>(_ value: T) -> JSON? {
        switch value {
        case let value as String: return .string(value)
        case let value as Double: return .number(value)
        case let value as Int: return .int(value)
        case let value as Bool: return .bool(value)
        case let value as JSON: return value
        // Every other number, so no number type recurses through its own encode(to:).
        case let value as any BinaryInteger: return .number(Double(value))
        case let value as any BinaryFloatingPoint: return .number(Double(value))
        default: return nil
        }
    }
}

/// A wire type whose nil fields are left out instead of written as null:
/// one where most fields are absent in any one value (a Subscribe reply, a
/// place's source).
public protocol WireSparse {}

/// What one value encodes to, filled in by the container asked of its encoder.
private final class TreeEncoder: Encoder {
    enum Storage {
        case empty
        case value(JSON)
        case object(ObjectStorage)
        case array(ArrayStorage)
    }

    let codingPath: [any CodingKey]
    let omitsNil: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var storage = Storage.empty

    init(codingPath: [any CodingKey], omitsNil: Bool = false) {
        self.codingPath = codingPath
        self.omitsNil = omitsNil
    }

    var result: JSON {
        switch storage {
        case .empty: return .null
        case .value(let value): return value
        case .object(let object): return .object(JSONObject(object.members.map { ($0.key, $0.value.json) }))
        case .array(let array): return .array(array.items.map(\.json))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectStorage
        if case .object(let existing) = storage {
            object = existing
        } else {
            object = ObjectStorage()
            storage = .object(object)
        }
        return KeyedEncodingContainer(ObjectContainer<Key>(object: object, codingPath: codingPath, omitsNil: omitsNil))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayStorage
        if case .array(let existing) = storage {
            array = existing
        } else {
            array = ArrayStorage()
            storage = .array(array)
        }
        return ArrayContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }
}

/// A member's value: finished, or a nested container still being filled.
private enum Pending {
    case done(JSON)
    case nested(TreeEncoder)

    var json: JSON {
        switch self {
        case .done(let value): return value
        case .nested(let encoder): return encoder.result
        }
    }

    static func encoding<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Pending {
        if let json = WireEncoder.primitive(value) { return .done(json) }
        let encoder = TreeEncoder(codingPath: path, omitsNil: value is any WireSparse)
        try value.encode(to: encoder)
        return .done(encoder.result)
    }
}

private final class ObjectStorage {
    var members: [(key: String, value: Pending)] = []
}

private final class ArrayStorage {
    var items: [Pending] = []
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectStorage
    let codingPath: [any CodingKey]
    let omitsNil: Bool

    mutating func encodeNil(forKey key: Key) { object.members.append((key.stringValue, .done(.null))) }

    /// Writes an optional's value, or null, or nothing for a sparse type.
    private func put(_ key: Key, _ value: JSON?) {
        if let value {
            object.members.append((key.stringValue, .done(value)))
        } else if !omitsNil {
            object.members.append((key.stringValue, .done(.null)))
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.members.append((key.stringValue, try .encoding(value, at: codingPath + [key])))
    }

    // Synthesized conformances call these for optionals: nil is written as
    // null, or left out for a sparse type.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return put(key, nil) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { put(key, value.map(JSON.string)) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { put(key, value.map(JSON.number)) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { put(key, value.map(JSON.int)) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { put(key, value.map(JSON.bool)) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = TreeEncoder(codingPath: codingPath + [key])
        object.members.append((key.stringValue, .nested(nested)))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = TreeEncoder(codingPath: codingPath + [key])
        object.members.append((key.stringValue, .nested(nested)))
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("wire types do not use superEncoder") }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        preconditionFailure("wire types do not use superEncoder")
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let array: ArrayStorage
    let codingPath: [any CodingKey]
    var count: Int { array.items.count }

    mutating func encodeNil() { array.items.append(.done(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try .encoding(value, at: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = TreeEncoder(codingPath: codingPath)
        array.items.append(.nested(nested))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = TreeEncoder(codingPath: codingPath)
        array.items.append(.nested(nested))
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("wire types do not use superEncoder") }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.storage = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.storage = .value(try Pending.encoding(value, at: codingPath).json)
    }
}

extension Encodable {
    /// The value's wire form.
    public var json: JSON { WireEncoder.encode(self) }
}
