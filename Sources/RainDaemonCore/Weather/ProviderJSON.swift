import RainCore

/// Read access to a provider's JSON that remembers where it is, so every
/// error names the field's path. Absent and null read alike as "no value":
/// providers write null for what they do not know.
struct ProviderJSON {
    let provider: String
    let path: String
    let value: JSON

    init(provider: String, path: String = "", value: JSON) {
        self.provider = provider
        self.path = path
        self.value = value
    }

    /// Parses a whole response body, which must be a JSON object. Arrays
    /// keep at most `keepingElements` elements (`ForecastHorizon.arrayElements`
    /// for a forecast), the rest checked and dropped.
    static func parse(
        _ body: [UInt8], provider: String, keepingElements: Int = .max
    ) throws(ProviderParseError) -> ProviderJSON {
        let value: JSON
        do {
            value = try JSON(parsing: body, keepingElements: keepingElements)
        } catch {
            throw ProviderParseError(provider: provider, field: "", problem: .notJSON(error))
        }
        guard case .object = value else {
            throw ProviderParseError(
                provider: provider, field: "", problem: .wrongType(expected: "an object", got: value.kindName))
        }
        return ProviderJSON(provider: provider, value: value)
    }

    func error(_ problem: ProviderParseError.Problem, at field: String? = nil) -> ProviderParseError {
        ProviderParseError(provider: provider, field: field ?? path, problem: problem)
    }

    func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, or nil when absent or null.
    subscript(key: String) -> ProviderJSON? {
        guard let member = value[key], !member.isNull else { return nil }
        return ProviderJSON(provider: provider, path: childPath(key), value: member)
    }

    /// The member `key`, which must be present and not null.
    func required(_ key: String) throws(ProviderParseError) -> ProviderJSON {
        guard let member = self[key] else { throw error(.missing, at: childPath(key)) }
        return member
    }

    /// The member `key` as an object, nil when absent or null.
    func object(_ key: String) throws(ProviderParseError) -> ProviderJSON? {
        guard let member = self[key] else { return nil }
        guard case .object = member.value else {
            throw member.error(.wrongType(expected: "an object", got: member.value.kindName))
        }
        return member
    }

    /// The member `key` as an array of elements (each with its indexed path),
    /// nil when absent or null.
    func array(_ key: String) throws(ProviderParseError) -> [ProviderJSON]? {
        guard let member = self[key] else { return nil }
        guard let elements = member.value.arrayValue else {
            throw member.error(.wrongType(expected: "an array", got: member.value.kindName))
        }
        return elements.enumerated().map { index, element in
            ProviderJSON(provider: provider, path: "\(member.path)[\(index)]", value: element)
        }
    }

    /// The member `key` as a number, nil when absent or null.
    func number(_ key: String) throws(ProviderParseError) -> Double? {
        guard let member = self[key] else { return nil }
        return try member.asNumber()
    }

    /// The member `key` as a string, nil when absent or null.
    func string(_ key: String) throws(ProviderParseError) -> String? {
        guard let member = self[key] else { return nil }
        guard let text = member.value.stringValue else {
            throw member.error(.wrongType(expected: "a string", got: member.value.kindName))
        }
        return text
    }

    /// This value as a number; null reads as nil.
    func asNumber() throws(ProviderParseError) -> Double? {
        switch value {
        case .null: return nil
        case .number(let number): return number
        default: throw error(.wrongType(expected: "a number", got: value.kindName))
        }
    }
}
