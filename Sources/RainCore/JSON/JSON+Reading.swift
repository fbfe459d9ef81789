// MARK: - Reading

/// Why a text is not valid JSON, with the byte offset where reading stopped.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSON {
    /// The deepest nesting accepted; deeper input is refused rather than risking the stack.
    public static let maximumDepth = 128

    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    public init<Bytes: Collection>(parsing bytes: Bytes) throws(JSONParseError)
    where Bytes.Element == UInt8 {
        try self.init(parsing: bytes, keepingElements: .max)
    }

    /// Parses `bytes` keeping at most `keepingElements` elements of each
    /// array: the rest are checked as JSON (a document `JSON(parsing:)`
    /// refuses is refused alike) but never built, so a huge array costs no
    /// memory beyond the bytes. For providers' answers, whose use is bounded
    /// (`ForecastHorizon`).
    public init<Bytes: Collection>(parsing bytes: Bytes, keepingElements: Int) throws(JSONParseError)
    where Bytes.Element == UInt8 {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) in Self.parse(buffer, keepingElements: keepingElements) }
        // Bytes not held in one block of memory are copied into an array, which is.
        let result =
            bytes.withContiguousStorageIfAvailable(parse)
            ?? Array(bytes).withUnsafeBufferPointer(parse)
        self = try result.get()
    }

    /// Reads a document that is an object one member at a time without
    /// building it: `member` is given each key's UTF-8 (escapes resolved)
    /// and where its value lies in `bytes`, every value checked as JSON on
    /// the way (a document `JSON(parsing:)` refuses is refused with the same
    /// error) but none made. Returns false, calling nothing, when the
    /// document is not an object. For a Varlink call's envelope, whose
    /// parameters only the method's decoder reads.
    public static func forEachMember(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ member: (_ key: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Void
    ) throws(JSONParseError) -> Bool {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else { return false }
        try parser.parseMembers { parser, key throws(JSONParseError) in
            let start = parser.index
            _ = try parser.parseValue(building: false)
            if key.plain {
                member(UnsafeBufferPointer(rebasing: bytes[key.inner]), start..<parser.index)
            } else {
                var resolved = parser.string(at: key.range)
                resolved.withUTF8 { member($0, start..<parser.index) }
            }
        }
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.fail("unexpected text after the value") }
        return true
    }

    /// Parses bytes held in one block of memory. The closures that lend the
    /// buffer cannot throw a typed error: it is carried out as a value.
    private static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, keepingElements: Int
    ) -> Result<JSON, JSONParseError> {
        var parser = JSONParser(bytes: buffer)
        parser.keptElements = keepingElements
        do throws(JSONParseError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

/// An object member's key as the parser found it: where it lies, quotes
/// included, and whether it is plain (ASCII without escapes: the bytes
/// between the quotes are its UTF-8).
struct MemberKey {
    let range: Range<Int>
    let plain: Bool

    /// What a value that is no object's member has.
    static let none = MemberKey(range: 0..<0, plain: true)

    /// The bytes between the quotes.
    var inner: Range<Int> { (range.lowerBound + 1)..<(range.upperBound - 1) }
}

/// Reads JSON from memory the caller keeps alive while it runs: the hot
/// path of every call (a parameters object, its keys and strings) reads
/// bytes with no copies and no bounds-checked array in between.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// Elements of an array built; later ones are checked and dropped.
    var keptElements = Int.max

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the value") }
        return value
    }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(reason: reason, offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// `building`: false checks the value as JSON and returns `.null`, making
    /// nothing: what a caller skips costs no allocation.
    mutating func parseValue(building: Bool = true) throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(building: building)
        case UInt8(ascii: "["): return try parseArray(building: building)
        case UInt8(ascii: "\""):
            guard building else {
                try skipString()
                return .null
            }
            return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return building ? .bool(true) : .null
        case UInt8(ascii: "f"): try expect("false"); return building ? .bool(false) : .null
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try parseNumber()
            return building ? .number(number) : .null
        default: throw fail("unexpected character")
        }
    }

    mutating func expect(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            word.withUTF8Buffer({ bytes[index..<index + count].elementsEqual($0) })
        else { throw fail("unexpected word") }
        index += count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSON.maximumDepth { throw fail("nested deeper than \(JSON.maximumDepth) levels") }
    }

    mutating func parseObject(building: Bool = true) throws(JSONParseError) -> JSON {
        var object = JSONObject()
        try parseMembers { parser, key throws(JSONParseError) in
            let value = try parser.parseValue(building: building)
            if building { object.append(parser.string(at: key.range), value) }
        }
        return building ? .object(object) : .null
    }

    /// Reads an object (the index at its `{`), handing each member to
    /// `member` with the parser at its value, which `member` must read, and
    /// its key: where it lies (quotes included) and whether it is plain
    /// (`skipString`), checked but not made into a String: a member that is
    /// not built makes none.
    mutating func parseMembers(
        _ member: (inout JSONParser, MemberKey) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a quoted key")
            }
            let keyStart = index
            let plain = try skipString()
            let key = MemberKey(range: keyStart..<index, plain: plain)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return }
            throw fail("expected ',' or '}'")
        }
    }

    /// The string at `range` (quotes included), already checked by `skipString`.
    func string(at range: Range<Int>) -> String {
        var reader = JSONParser(bytes: UnsafeBufferPointer(rebasing: bytes[range]))
        return (try? reader.parseString()) ?? ""
    }

    mutating func parseArray(building: Bool = true) throws(JSONParseError) -> JSON {
        var values: [JSON] = []
        try parseElements { parser throws(JSONParseError) in
            let keeping = building && values.count < parser.keptElements
            let value = try parser.parseValue(building: keeping)
            if keeping { values.append(value) }
        }
        return building ? .array(values) : .null
    }

    /// Reads an array (the index at its `[`), handing each element to
    /// `element` with the parser at it, which `element` must read.
    mutating func parseElements(_ element: (inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return }
            throw fail("expected ',' or ']'")
        }
    }

    /// Checks a string as `parseString` reads it, making no String when it
    /// is ASCII without escapes (every key and name of a call). Returns
    /// whether it was: then its bytes between the quotes are its UTF-8.
    @discardableResult
    mutating func skipString() throws(JSONParseError) -> Bool {
        let start = index
        index = WireBytes.plainEnd(in: bytes, from: index + 1)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return true
        }
        // Escapes, other scripts or no end: the reader that builds it checks it, errors and all.
        index = start
        _ = try parseString()
        return false
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Most strings (every key, most values) have no escape: scan to the
        // closing quote and make the String from the bytes in one go.
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let string = try makeString(run, ascii: highBits < 0x80)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in string") }
            highBits |= byte
            index += 1
        }
        guard index < bytes.count else { throw fail("unterminated string") }
        // Escapes: gather the UTF-8 (runs copied at once, escapes encoded) and check it once at the end.
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        var runStart = index
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                let string = try utf8.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try makeString(buffer, ascii: false)
                }
                index += 1
                return string
            }
            if byte < 0x20 { throw fail("control character in string") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("unpaired surrogate") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                UTF8.encode(scalar) { utf8.append($0) }
            default: throw fail("invalid escape")
            }
            runStart = index
        }
    }

    /// The string of UTF-8 bytes; `ascii` when every byte is known to be below 0x80 (nothing to validate).
    func makeString(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) throws(JSONParseError) -> String {
        if ascii { return String(decoding: utf8, as: UTF8.self) }
        guard let string = String(validating: utf8, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
        return string
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
            }
            return parser.index - from
        }
        guard digits(&self) > 0 else { throw fail("expected digits") }
        var hasFractionOrExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            hasFractionOrExponent = true
            guard digits(&self) > 0 else { throw fail("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            hasFractionOrExponent = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw fail("expected exponent digits") }
        }
        // Up to 15 digits with no fraction or exponent: exact in a Double, no text to convert.
        if !hasFractionOrExponent, index - start <= 15 {
            var value: Int64 = 0
            for byte in bytes[start..<index] where byte != UInt8(ascii: "-") {
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            // -0 stays a negative zero, as Double("-0") reads it.
            return bytes[start] == UInt8(ascii: "-") ? -Double(value) : Double(value)
        }
        // The slice is ASCII digits and signs, so it is valid UTF-8.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw fail("number out of range") }
        return value
    }
}
