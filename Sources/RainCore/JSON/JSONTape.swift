/// A JSON document read in one pass into a flat list of where each of its
/// values lies in its bytes, none of them made until asked for. Checked as
/// `JSON(parsing:)` checks it: a document it refuses is refused here with
/// the same error. A tree (`JSON`) is an array, a member list or a string
/// allocated for each value, then freed; a tape is one array. raindctl
/// reads its status this way (`WireFields`).
public struct JSONTape: Sendable {
    public enum Kind: Sendable {
        case object, array, string, number, bool, null
    }

    struct Entry: Sendable {
        var kind: Kind
        /// Where the value lies in the bytes.
        var start: Int
        var end: Int
        /// An object member's key; an empty range for anything else.
        var key: MemberKey
        /// The object or array the value is in; -1 for the document's own.
        var parent: Int
        /// The entry after this value and everything inside it.
        var next: Int
    }

    let bytes: [UInt8]
    let entries: [Entry]

    /// The document's own value.
    public static let root = 0

    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        let read = bytes.withUnsafeBufferPointer { buffer -> Result<[Entry], JSONParseError> in
            var parser = JSONParser(bytes: buffer)
            var entries: [Entry] = []
            // Room for a value every 12 bytes: a forecast answer has one every 11, a status fewer.
            entries.reserveCapacity(buffer.count / 12)
            do throws(JSONParseError) {
                parser.skipWhitespace()
                try parser.record(into: &entries, key: .none)
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.fail("unexpected text after the value") }
                return .success(entries)
            } catch {
                return .failure(error)
            }
        }
        self.bytes = bytes
        self.entries = try read.get()
    }

    public func kind(_ value: Int) -> Kind { entries[value].kind }

    /// The value of `object`'s member `key`; the last one when the key is
    /// repeated, as `JSON(parsing:)` keeps it. nil when absent.
    public func member(_ key: String, of object: Int) -> Int? {
        guard entries[object].kind == .object else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { bytes in
                var found: Int?
                var child = object + 1
                while child < entries[object].next {
                    let entry = entries[child]
                    if entry.key.plain {
                        if entry.key.inner.count == wanted.count,
                            WireBytes.equal(UnsafeBufferPointer(rebasing: bytes[entry.key.inner]), wanted)
                        {
                            found = child
                        }
                    } else if JSONParser(bytes: bytes).string(at: entry.key.range).utf8.elementsEqual(wanted) {
                        found = child
                    }
                    child = entry.next
                }
                return found
            }
        }
    }

    /// The values directly inside `value` (an object's members' or an
    /// array's elements), in order; none for anything else.
    func children(of value: Int) -> [Int] {
        var children: [Int] = []
        var child = value + 1
        while child < entries[value].next {
            children.append(child)
            child = entries[child].next
        }
        return children
    }

    /// The elements of `array`, in order.
    public func elements(of array: Int) -> [Int] {
        entries[array].kind == .array ? children(of: array) : []
    }

    /// The members of `object` in order: each key and value.
    public func members(of object: Int) -> [(key: String, value: Int)] {
        guard entries[object].kind == .object else { return [] }
        return children(of: object).map { (string(at: entries[$0].key.range), $0) }
    }

    /// The string `value` is; nil when it is another kind.
    public func string(_ value: Int) -> String? {
        guard entries[value].kind == .string else { return nil }
        return string(at: entries[value].start..<entries[value].end)
    }

    /// The number `value` is; nil when it is another kind.
    public func number(_ value: Int) -> Double? {
        guard entries[value].kind == .number else { return nil }
        return bytes.withUnsafeBufferPointer { bytes in
            var parser = JSONParser(
                bytes: UnsafeBufferPointer(rebasing: bytes[entries[value].start..<entries[value].end]))
            return try? parser.parseNumber()
        }
    }

    /// The document's member `key` as a whole number (as `JSON.intValue`
    /// takes one): a file's version, read before its shape is known. nil
    /// when the document is not an object, or the member is absent or not
    /// a whole number.
    public func wholeNumber(_ key: String) -> Int? {
        member(key, of: Self.root).flatMap(number).flatMap { JSON.number($0).intValue }
    }

    /// The flag `value` is; nil when it is another kind.
    public func bool(_ value: Int) -> Bool? {
        guard entries[value].kind == .bool else { return nil }
        return bytes[entries[value].start] == UInt8(ascii: "t")
    }

    /// Where `value` sits below `base` (one of the values it is in, or
    /// itself): `.status.providers[2]`, appended to `context` (`reply`),
    /// or the path alone when `context` is empty. Made only for an error.
    public func path(of value: Int, below base: Int, context: String) -> String {
        var parts: [(text: String, isIndex: Bool)] = []
        var inner = value
        while inner > base {
            let parent = entries[inner].parent
            guard parent >= 0 else { break }
            if entries[parent].kind == .object {
                parts.append((string(at: entries[inner].key.range), false))
            } else {
                parts.append(("[\(children(of: parent).firstIndex(of: inner) ?? 0)]", true))
            }
            inner = parent
        }
        var text = context
        for part in parts.reversed() {
            text += part.isIndex || text.isEmpty ? part.text : "." + part.text
        }
        return text
    }

    /// "an object", "a string": as `JSON.kindName` says it, for errors.
    public func kindName(_ value: Int) -> String {
        switch entries[value].kind {
        case .null: return JSON.null.kindName
        case .bool: return JSON.bool(true).kindName
        case .number: return JSON.number(0).kindName
        case .string: return JSON.string("").kindName
        case .array: return JSON.array([]).kindName
        case .object: return JSON.object(JSONObject()).kindName
        }
    }

    private func string(at range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { JSONParser(bytes: $0).string(at: range) }
    }
}

extension JSONParser {
    /// Reads the value at the index (checked as `parseValue` checks it) into
    /// `entries`, each value's entry before those inside it.
    mutating func record(
        into entries: inout [JSONTape.Entry], key: MemberKey, parent: Int = -1
    ) throws(JSONParseError) {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        let slot = entries.count
        let start = index
        func entry(_ kind: JSONTape.Kind, end: Int) -> JSONTape.Entry {
            JSONTape.Entry(kind: kind, start: start, end: end, key: key, parent: parent, next: slot + 1)
        }
        let kind: JSONTape.Kind
        switch bytes[index] {
        case UInt8(ascii: "{"):
            entries.append(entry(.object, end: start))
            try parseMembers { parser, key throws(JSONParseError) in
                try parser.record(into: &entries, key: key, parent: slot)
            }
            entries[slot].end = index
            entries[slot].next = entries.count
            return
        case UInt8(ascii: "["):
            entries.append(entry(.array, end: start))
            try parseElements { parser throws(JSONParseError) in
                try parser.record(into: &entries, key: .none, parent: slot)
            }
            entries[slot].end = index
            entries[slot].next = entries.count
            return
        case UInt8(ascii: "\""): kind = .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .bool
        case UInt8(ascii: "n"): kind = .null
        default: kind = .number
        }
        _ = try parseValue(building: false)
        entries.append(entry(kind, end: index))
    }
}
