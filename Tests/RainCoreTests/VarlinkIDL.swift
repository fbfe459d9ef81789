import Foundation

/// A small reader of Varlink interface definitions (varlink.org's grammar:
/// types, methods, errors; `?T`, `[]T`, `[string]T`, enums and inline
/// structs), so the tests can hold the Swift wire types against the IDL file.
indirect enum IDLType: Equatable, CustomStringConvertible {
    case bool, int, float, string, object
    case named(String)
    case optional(IDLType)
    case array(IDLType)
    case dictionary(IDLType)
    case enumeration([String])
    case structure([IDLField])

    var description: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .string: return "string"
        case .object: return "object"
        case .named(let name): return name
        case .optional(let inner): return "?\(inner)"
        case .array(let inner): return "[]\(inner)"
        case .dictionary(let inner): return "[string]\(inner)"
        case .enumeration(let cases): return "(\(cases.joined(separator: ", ")))"
        case .structure(let fields): return "(\(fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
        }
    }
}

struct IDLField: Equatable {
    var name: String
    var type: IDLType
}

struct VarlinkIDL {
    /// The name after `interface`.
    var name = ""
    /// Each member's documentation: the comment lines right above it, joined by spaces.
    var documentation: [String: String] = [:]
    var types: [String: [IDLField]] = [:]
    var enums: [String: [String]] = [:]
    var methods: [String: (parameters: [IDLField], reply: [IDLField])] = [:]
    var errors: [String: [IDLField]] = [:]

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ text: String) throws {
        documentation = Self.documentation(text)
        // Comments run to the end of the line.
        let stripped = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.firstIndex(of: "#").map { line[..<$0] } ?? line) }
            .joined(separator: " ")
        var tokens = Self.tokenize(stripped)[...]
        func next() throws -> String {
            guard let token = tokens.popFirst() else { throw ParseError(description: "unexpected end") }
            return token
        }
        func expect(_ word: String) throws {
            let token = try next()
            guard token == word else { throw ParseError(description: "expected \(word), got \(token)") }
        }
        func parseType() throws -> IDLType {
            let token = try next()
            switch token {
            case "?": return .optional(try parseType())
            case "[":
                let inside = try next()
                if inside == "]" { return .array(try parseType()) }
                guard inside == "string" else { throw ParseError(description: "bad dictionary key \(inside)") }
                try expect("]")
                return .dictionary(try parseType())
            case "(": return try parseParenthesized()
            case "bool": return .bool
            case "int": return .int
            case "float": return .float
            case "string": return .string
            case "object": return .object
            default: return .named(token)
            }
        }
        // After "(": an enum `(a, b)` or a struct `(a: T, b: U)`.
        func parseParenthesized() throws -> IDLType {
            var fields: [IDLField] = []
            var cases: [String] = []
            if tokens.first == ")" {
                _ = try next()
                return .structure([])
            }
            while true {
                let name = try next()
                let separator = try next()
                if separator == ":" {
                    fields.append(IDLField(name: name, type: try parseType()))
                    let end = try next()
                    if end == ")" { return .structure(fields) }
                    guard end == "," else { throw ParseError(description: "expected , or ) after \(name)") }
                } else {
                    cases.append(name)
                    if separator == ")" { return .enumeration(cases) }
                    guard separator == "," else { throw ParseError(description: "expected , or ) after \(name)") }
                }
            }
        }
        func fields(_ type: IDLType) throws -> [IDLField] {
            guard case .structure(let fields) = type else {
                throw ParseError(description: "expected a struct, got \(type)")
            }
            return fields
        }
        while let keyword = tokens.popFirst() {
            switch keyword {
            case "interface": name = try next()
            case "type":
                let name = try next()
                try expect("(")
                switch try parseParenthesized() {
                case .enumeration(let cases): enums[name] = cases
                case let type: types[name] = try fields(type)
                }
            case "method":
                let name = try next()
                try expect("(")
                let parameters = try fields(try parseParenthesized())
                try expect("->")
                try expect("(")
                methods[name] = (parameters, try fields(try parseParenthesized()))
            case "error":
                let name = try next()
                try expect("(")
                errors[name] = try fields(try parseParenthesized())
            default:
                throw ParseError(description: "unexpected \(keyword)")
            }
        }
    }

    /// The comment block right above each `interface`, `type`, `method` and
    /// `error` line, by the member's name.
    static func documentation(_ text: String) -> [String: String] {
        var documentation: [String: String] = [:]
        var comment: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                comment.append(line.dropFirst().trimmingCharacters(in: .whitespaces))
                continue
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "(" })
            if words.count >= 2, ["interface", "type", "method", "error"].contains(words[0]), !comment.isEmpty {
                documentation[String(words[1])] = comment.joined(separator: " ")
            }
            comment = []
        }
        return documentation
    }

    static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        var characters = Array(text)[...]
        func flush() {
            if !word.isEmpty { tokens.append(word) }
            word = ""
        }
        while let character = characters.popFirst() {
            if character == "-", characters.first == ">" {
                flush()
                _ = characters.popFirst()
                tokens.append("->")
            } else if "()[]?:,".contains(character) {
                flush()
                tokens.append(String(character))
            } else if character.isWhitespace {
                flush()
            } else {
                word.append(character)
            }
        }
        flush()
        return tokens
    }
}
