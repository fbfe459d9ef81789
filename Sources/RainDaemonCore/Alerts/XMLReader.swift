import RainCore

/// A small non-validating XML 1.0 reader for what official warning services
/// publish (CAP 1.2 messages, Atom feeds), without Foundation. It reads a
/// whole document into a tree of `XMLElement`s: elements with their
/// prefixes (looked up by local name), attributes in either quote, text
/// with the five predefined entities and numeric character references
/// replaced, and CDATA sections; comments, processing instructions and the
/// XML declaration are skipped.
///
/// What it refuses, each with what was wrong and where (line and column):
/// bytes that are not UTF-8 or characters XML does not allow; a declared
/// encoding other than UTF-8; a DOCTYPE (so no entity is ever declared or
/// expanded, and a "billion laughs" document is only a refusal); any other
/// entity; a reference to a code point XML does not allow; unclosed,
/// mismatched and stray tags; a document cut short; and a document beyond
/// the `Limits` in size, depth, elements or attributes.
public enum XMLReader {
    /// How much raind reads of one document. The defaults hold the largest
    /// warnings seen (a DWD wind warning in eight languages is 407 KB with
    /// 1352 areas) many times over.
    public struct Limits: Equatable, Sendable {
        public var maximumBytes: Int
        /// Elements open at once, the root included.
        public var maximumDepth: Int
        public var maximumElements: Int
        /// Attributes of one element.
        public var maximumAttributes: Int

        public init(
            maximumBytes: Int = 8 << 20, maximumDepth: Int = 64, maximumElements: Int = 250_000,
            maximumAttributes: Int = 64
        ) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
            self.maximumElements = maximumElements
            self.maximumAttributes = maximumAttributes
        }
    }

    /// The root element of the document in `bytes`.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(XMLParseError) -> XMLElement {
        var parser = Parser(bytes: bytes, limits: limits)
        return try parser.document()
    }

    /// Names are bounded so that an error message quoting one stays short.
    static let maximumNameBytes = 256

    /// Whether XML 1.0 allows the code point in a document (its `Char`).
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x1_0000...0x10_FFFF).contains(value)
    }

    /// `U+001B`.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private struct Parser {
        let bytes: [UInt8]
        let limits: Limits
        var index = 0
        var elements = 0

        init(bytes: [UInt8], limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func document() throws(XMLParseError) -> XMLElement {
            guard bytes.count <= limits.maximumBytes else {
                throw error(
                    "the document is \(bytes.count) bytes, more than the \(limits.maximumBytes) raind reads", at: 0)
            }
            try checkCharacters()
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            if hasPrefix("<?xml"), index + 5 < bytes.count, isWhitespace(bytes[index + 5]) { try declaration() }
            try skipMisc()
            guard index < bytes.count else { throw error("the document has no root element", at: index) }
            guard bytes[index] == UInt8(ascii: "<") else { throw error("text before the root element", at: index) }
            let root = try element()
            try skipMisc()
            guard index == bytes.count else {
                throw error("content after the end of the root element <\(root.name)>", at: index)
            }
            return root
        }

        // MARK: Characters

        /// Every byte sequence must be UTF-8 and every character one XML allows.
        func checkCharacters() throws(XMLParseError) {
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                if lead < 0x80 {
                    guard XMLReader.isXMLCharacter(UInt32(lead)) else {
                        throw error(
                            "control character \(XMLReader.codePoint(UInt32(lead))), which XML does not allow",
                            at: index)
                    }
                    index += 1
                    continue
                }
                let length: Int
                var value: UInt32
                let smallest: UInt32
                switch lead {
                case 0xC2...0xDF: (length, value, smallest) = (2, UInt32(lead & 0x1F), 0x80)
                case 0xE0...0xEF: (length, value, smallest) = (3, UInt32(lead & 0x0F), 0x800)
                case 0xF0...0xF4: (length, value, smallest) = (4, UInt32(lead & 0x07), 0x1_0000)
                default: throw error("bytes that are not UTF-8 (raind reads UTF-8 only)", at: index)
                }
                guard index + length <= bytes.count else {
                    throw error("bytes that are not UTF-8 (a character cut off at the end)", at: index)
                }
                for next in bytes[(index + 1)..<(index + length)] {
                    guard next & 0xC0 == 0x80 else {
                        throw error("bytes that are not UTF-8 (raind reads UTF-8 only)", at: index)
                    }
                    value = value << 6 | UInt32(next & 0x3F)
                }
                guard value >= smallest, value <= 0x10_FFFF, !(0xD800...0xDFFF).contains(value) else {
                    throw error("bytes that are not UTF-8 (an overlong or out-of-range sequence)", at: index)
                }
                guard XMLReader.isXMLCharacter(value) else {
                    throw error("character \(XMLReader.codePoint(value)), which XML does not allow", at: index)
                }
                index += length
            }
        }

        // MARK: Prolog and what may stand around the root

        /// `<?xml version="1.0" encoding="UTF-8"?>`: skipped, but an encoding
        /// other than UTF-8 (or its ASCII subset) is refused rather than misread.
        mutating func declaration() throws(XMLParseError) {
            let start = index
            guard let end = find("?>", from: index + 5) else {
                throw error("the XML declaration is not closed with ?>", at: start)
            }
            if let encoding = Self.pseudoAttribute("encoding", in: bytes[(index + 5)..<end]) {
                let name = encoding.lowercased()
                guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(name) else {
                    throw error(
                        "the document is declared as \(encoding.prefix(40)); raind reads UTF-8 only", at: start)
                }
            }
            index = end + 2
        }

        /// The value of `name="..."` in an XML declaration's text.
        static func pseudoAttribute(_ name: String, in text: ArraySlice<UInt8>) -> String? {
            let key = Array(name.utf8)
            var index = text.startIndex
            while index + key.count <= text.endIndex {
                guard text[index..<(index + key.count)].elementsEqual(key) else {
                    index += 1
                    continue
                }
                var cursor = index + key.count
                while cursor < text.endIndex, isWhitespace(text[cursor]) { cursor += 1 }
                guard cursor < text.endIndex, text[cursor] == UInt8(ascii: "=") else { return nil }
                cursor += 1
                while cursor < text.endIndex, isWhitespace(text[cursor]) { cursor += 1 }
                guard cursor < text.endIndex, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'")
                else { return nil }
                let quote = text[cursor]
                let valueStart = cursor + 1
                guard let valueEnd = text[valueStart...].firstIndex(of: quote) else { return nil }
                return String(decoding: text[valueStart..<valueEnd], as: UTF8.self)
            }
            return nil
        }

        /// Whitespace, comments and processing instructions; a DOCTYPE is refused.
        mutating func skipMisc() throws(XMLParseError) {
            while true {
                skipWhitespace()
                if hasPrefix("<!--") {
                    try comment()
                } else if hasPrefix("<?") {
                    try processingInstruction()
                } else if hasPrefix("<!") {
                    throw markupError()
                } else {
                    return
                }
            }
        }

        mutating func comment() throws(XMLParseError) {
            guard let end = find("-->", from: index + 4) else {
                throw error("a comment <!-- is not closed with -->", at: index)
            }
            index = end + 3
        }

        mutating func processingInstruction() throws(XMLParseError) {
            guard let end = find("?>", from: index + 2) else {
                throw error("a processing instruction <? is not closed with ?>", at: index)
            }
            index = end + 2
        }

        /// `<!` that opens neither a comment nor (in content) CDATA.
        func markupError() -> XMLParseError {
            if hasPrefix("<!DOCTYPE") {
                return error(
                    "a DOCTYPE, which raind does not accept (it declares entities, and raind expands none)", at: index)
            }
            return error("markup <! that is neither a comment nor CDATA", at: index)
        }

        // MARK: Elements

        /// The element starting at `index` (a `<`), with everything inside it.
        /// Iterative, so that depth costs no stack beyond `maximumDepth` entries.
        mutating func element() throws(XMLParseError) -> XMLElement {
            let (root, rootIsEmpty) = try startTag()
            if rootIsEmpty { return root }
            var open = [root]
            while true {
                guard index < bytes.count, let current = open.last else {
                    let unclosed = open.last?.name ?? ""
                    throw error(
                        "the document ends inside <\(unclosed)> (\(opened(open.last))); is it cut off?", at: index)
                }
                guard bytes[index] == UInt8(ascii: "<") else {
                    open[open.count - 1].text += try characterData()
                    continue
                }
                if hasPrefix("</") {
                    let start = index
                    index += 2
                    let name = try readName(what: "an element name after </")
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                        throw error("the end tag </\(name)> is not closed with >", at: start)
                    }
                    index += 1
                    guard name == current.name else {
                        throw error(
                            "the end tag </\(name)> does not match <\(current.name)> (\(opened(current)))", at: start)
                    }
                    let done = open.removeLast()
                    if open.isEmpty { return done }
                    open[open.count - 1].children.append(done)
                } else if hasPrefix("<!--") {
                    try comment()
                } else if hasPrefix("<![CDATA[") {
                    guard let end = find("]]>", from: index + 9) else {
                        throw error("a CDATA section is not closed with ]]>", at: index)
                    }
                    open[open.count - 1].text += String(decoding: bytes[(index + 9)..<end], as: UTF8.self)
                    index = end + 3
                } else if hasPrefix("<?") {
                    try processingInstruction()
                } else if hasPrefix("<!") {
                    throw markupError()
                } else {
                    guard open.count < limits.maximumDepth else {
                        throw error("elements nested deeper than \(limits.maximumDepth)", at: index)
                    }
                    let (child, isEmpty) = try startTag()
                    if isEmpty {
                        open[open.count - 1].children.append(child)
                    } else {
                        open.append(child)
                    }
                }
            }
        }

        /// "opened at line 3, column 5".
        func opened(_ element: XMLElement?) -> String {
            guard let element else { return "never opened" }
            let (line, column) = position(element.offset)
            return "opened at line \(line), column \(column)"
        }

        /// `<name attribute="value" ...>` or `<name .../>`: the element, and
        /// whether it was empty (`/>`).
        mutating func startTag() throws(XMLParseError) -> (XMLElement, Bool) {
            let start = index
            index += 1
            let name = try readName(what: "an element name after <")
            elements += 1
            guard elements <= limits.maximumElements else {
                throw error("more than \(limits.maximumElements) elements", at: start)
            }
            var attributes: [XMLAttribute] = []
            while true {
                let spaced = skipWhitespace()
                guard index < bytes.count else {
                    throw error("the start tag <\(name)> is not closed with >", at: start)
                }
                if bytes[index] == UInt8(ascii: ">") {
                    index += 1
                    return (XMLElement(name: name, attributes: attributes, offset: start), false)
                }
                if bytes[index] == UInt8(ascii: "/") {
                    guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                        throw error("/ in the start tag <\(name)> not followed by >", at: index)
                    }
                    index += 2
                    return (XMLElement(name: name, attributes: attributes, offset: start), true)
                }
                guard spaced else {
                    throw error("expected a space, > or /> in the start tag <\(name)>", at: index)
                }
                let attributeName = try readName(what: "an attribute name in <\(name)>")
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                    throw error("the attribute \(attributeName) of <\(name)> has no = and value", at: index)
                }
                index += 1
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
                else {
                    throw error("the value of the attribute \(attributeName) of <\(name)> is not in quotes", at: index)
                }
                let valueStart = index
                let value = try attributeValue()
                guard !attributes.contains(where: { $0.name == attributeName }) else {
                    throw error("the attribute \(attributeName) appears twice in <\(name)>", at: valueStart)
                }
                guard attributes.count < limits.maximumAttributes else {
                    throw error("<\(name)> has more than \(limits.maximumAttributes) attributes", at: valueStart)
                }
                attributes.append(XMLAttribute(name: attributeName, value: value))
            }
        }

        /// A quoted attribute value, references replaced, tabs and line
        /// breaks read as spaces (XML 1.0, 3.3.3).
        mutating func attributeValue() throws(XMLParseError) -> String {
            let start = index
            let quote = bytes[index]
            index += 1
            var value = ""
            var run = index
            while true {
                guard index < bytes.count else { throw error("an attribute value is not closed", at: start) }
                let byte = bytes[index]
                if byte == quote {
                    value += String(decoding: bytes[run..<index], as: UTF8.self)
                    index += 1
                    return value
                }
                switch byte {
                case UInt8(ascii: "<"):
                    throw error("< in an attribute value (write &lt;)", at: index)
                case UInt8(ascii: "&"):
                    value += String(decoding: bytes[run..<index], as: UTF8.self)
                    try reference(into: &value)
                    run = index
                case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    value += String(decoding: bytes[run..<index], as: UTF8.self) + " "
                    if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                        index += 1
                    }
                    index += 1
                    run = index
                default:
                    index += 1
                }
            }
        }

        /// Text up to the next `<`, references replaced and line ends
        /// (CR LF, CR) read as LF (XML 1.0, 2.11).
        mutating func characterData() throws(XMLParseError) -> String {
            var text = ""
            var run = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "<"):
                    text += String(decoding: bytes[run..<index], as: UTF8.self)
                    return text
                case UInt8(ascii: "&"):
                    text += String(decoding: bytes[run..<index], as: UTF8.self)
                    try reference(into: &text)
                    run = index
                case UInt8(ascii: "\r"):
                    text += String(decoding: bytes[run..<index], as: UTF8.self) + "\n"
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
                    index += 1
                    run = index
                default:
                    index += 1
                }
            }
            text += String(decoding: bytes[run..<index], as: UTF8.self)
            return text
        }

        /// `&amp;` and the other four, `&#38;`, `&#x26;`: the character
        /// appended to `text`, `index` moved past the `;`.
        mutating func reference(into text: inout String) throws(XMLParseError) {
            let start = index
            var end = index + 1
            while end < bytes.count, end - start <= 40, bytes[end] != UInt8(ascii: ";"),
                bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "<"), !isWhitespace(bytes[end])
            {
                end += 1
            }
            guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
                throw error("& that starts no reference (a literal & is written &amp;)", at: start)
            }
            let body = bytes[(start + 1)..<end]
            index = end + 1
            if body.first == UInt8(ascii: "#") {
                let hex = body.count > 1 && body[body.startIndex + 1] == UInt8(ascii: "x")
                let digits = body.dropFirst(hex ? 2 : 1)
                guard let value = Self.number(digits, hex: hex) else {
                    throw error(
                        "&\(String(decoding: body, as: UTF8.self)); is not a character reference", at: start)
                }
                guard XMLReader.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                    throw error(
                        "&\(String(decoding: body, as: UTF8.self)); names \(XMLReader.codePoint(value)), "
                            + "which XML does not allow", at: start)
                }
                text.unicodeScalars.append(scalar)
                return
            }
            switch String(decoding: body, as: UTF8.self) {
            case "amp": text += "&"
            case "lt": text += "<"
            case "gt": text += ">"
            case "quot": text += "\""
            case "apos": text += "'"
            case let name:
                throw error(
                    "unknown entity &\(name); (XML has amp, lt, gt, quot and apos; raind reads no DOCTYPE "
                        + "that could declare others)", at: start)
            }
        }

        /// Decimal or hex digits as a number (capped so that it cannot
        /// overflow: anything past U+10FFFF is refused by the caller anyway).
        static func number(_ digits: ArraySlice<UInt8>, hex: Bool) -> UInt32? {
            guard !digits.isEmpty else { return nil }
            var value: UInt32 = 0
            for digit in digits {
                let d: UInt32
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(digit - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: d = UInt32(digit - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: d = UInt32(digit - UInt8(ascii: "A")) + 10
                default: return nil
                }
                value = min(value * (hex ? 16 : 10) + d, 0x11_0000)
            }
            return value
        }

        // MARK: Scanning

        /// A name (of an element or attribute): letters, digits, `_ : - .`
        /// and any non-ASCII character, not starting with a digit, `-` or `.`.
        mutating func readName(what: String) throws(XMLParseError) -> String {
            let start = index
            guard index < bytes.count, Self.isNameStart(bytes[index]) else {
                throw error("expected \(what)", at: index)
            }
            index += 1
            while index < bytes.count, Self.isNameStart(bytes[index]) || Self.isNameTail(bytes[index]) { index += 1 }
            guard index - start <= XMLReader.maximumNameBytes else {
                throw error("a name longer than \(XMLReader.maximumNameBytes) bytes", at: start)
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        static func isNameStart(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
                UInt8(ascii: ":"), 0x80...0xFF:
                return true
            default: return false
            }
        }

        static func isNameTail(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }

        /// Skips XML whitespace; true when there was some.
        @discardableResult
        mutating func skipWhitespace() -> Bool {
            let start = index
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            return index > start
        }

        func hasPrefix(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return text.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
        }

        /// Where `text` next starts at or after `start`.
        func find(_ text: StaticString, from start: Int) -> Int? {
            text.withUTF8Buffer { pattern -> Int? in
                guard let first = pattern.first, start + pattern.count <= bytes.count else { return nil }
                var at = start
                while at + pattern.count <= bytes.count {
                    if bytes[at] == first, bytes[at..<(at + pattern.count)].elementsEqual(pattern) { return at }
                    at += 1
                }
                return nil
            }
        }

        func error(_ problem: String, at offset: Int) -> XMLParseError {
            let (line, column) = position(offset)
            return XMLParseError(line: line, column: column, problem: problem)
        }

        /// Line and column (in characters, both from 1) of a byte offset.
        func position(_ offset: Int) -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            for byte in bytes[0..<min(max(offset, 0), bytes.count)] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return (line, column)
        }
    }
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
}

/// Why a document is not XML raind reads, and where: `problem` says what
/// was found, `line` and `column` (from 1, columns in characters) where.
public struct XMLParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var problem: String

    public init(line: Int, column: Int, problem: String) {
        self.line = line
        self.column = column
        self.problem = problem
    }

    public var description: String { "\(problem) at line \(line), column \(column)" }
}
