/// A JSON value. raind speaks JSON on its socket and reads JSON from weather
/// providers; this type keeps both free of Foundation so the client can be a
/// small static binary and the core stays pure.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Keys keep their insertion order so that what we write reads the way it
    /// was built (the wire contract does not depend on order).
    case object(JSONObject)

    public static func int(_ value: Int) -> JSON { .number(Double(value)) }
    public static func object(_ pairs: KeyValuePairs<String, JSON>) -> JSON {
        var object = JSONObject()
        for (key, value) in pairs { object[key] = value }
        return .object(object)
    }
}

/// An ordered string-keyed map for JSON objects. Members are kept as pairs
/// in the order they were written: replies are small objects that are built
/// once and written once, so appending beats hashing every key. Lookups scan
/// from the end, so when a parsed object repeats a key the last one counts
/// (what most JSON readers do) and parsing stays linear whatever the input.
public struct JSONObject: Equatable, Sendable, Sequence {
    public typealias Member = (key: String, value: JSON)
    private var members: [Member] = []

    public init() {}

    public init(_ members: [Member]) {
        self.members = members
    }

    public subscript(key: String) -> JSON? {
        get {
            guard let index = lastIndex(of: key) else { return nil }
            return members[index].value
        }
        set {
            let index = lastIndex(of: key)
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (nil, let value?): members.append((key, value))
            case (let index?, nil): members.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    /// Adds a member without looking for an earlier one of the same key (the
    /// parser's path: a later duplicate then shadows the earlier one).
    public mutating func append(_ key: String, _ value: JSON) {
        members.append((key, value))
    }

    private func lastIndex(of key: String) -> Int? {
        members.lastIndex { $0.key == key }
    }

    /// The keys in order, each once.
    public var keys: [String] {
        var seen = Set<String>()
        return members.reversed().compactMap { seen.insert($0.key).inserted ? $0.key : nil }.reversed()
    }

    public var count: Int { keys.count }

    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        let left = Dictionary(lhs.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        let right = Dictionary(rhs.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        return left == right
    }
}

// MARK: - Access

extension JSON {
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an integer when it is one exactly.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value,
            abs(value) < 9.0e15
        else { return nil }
        return Int(value)
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// A name for the value's kind, for error messages ("expected a string, got a number").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSON {
    /// A number, or null when there is none.
    public init(_ number: Double?) {
        self = number.map(JSON.number) ?? .null
    }
}
