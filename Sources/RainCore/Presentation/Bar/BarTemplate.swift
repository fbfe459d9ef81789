/// A line for status bars and prompts written by the person: text with
/// named fields in braces, `{temp}` with its unit, `{temp:value}` without.
/// `{{` and `}}` stand for literal braces. Fields are listed in raindctl(1).
public struct BarTemplate: Equatable, Sendable {
    public enum Field: String, CaseIterable, Sendable {
        case place, temp, feels, summary, icon, wind
        case windDirection = "wind_dir"
        case rain, precip, humidity, pressure, uv, sunrise, sunset, high, low, updated, alert, nowcast
        /// How many alerts are in effect.
        case alertCount = "alert_count"
        /// The highest severity in effect, a lower-case word; empty with none.
        case alertSeverity = "alert_severity"
        /// When the most severe alert in effect ends, as a short local time; empty when unknown.
        case alertUntil = "alert_until"
        /// The air quality index now, its category as the index names it, three
        /// concentrations, the UV index's WHO category, and the most abundant
        /// pollen with its name (`BarValues+Air`).
        case aqi
        case aqiCategory = "aqi_category"
        case pm25, pm10, o3
        case uvCategory = "uv_category"
        case pollen
        /// The moon's phase as a glyph in the `--icons` style.
        case moon
        /// The moon's phase by name (`Waxing gibbous`).
        case moonPhase = "moon_phase"
        /// How long the sun is up today (`9 h 12 min`).
        case daylength
    }

    enum Piece: Equatable, Sendable {
        case text(String)
        case field(Field, bare: Bool)
    }

    /// Why a template cannot be used; the message names the problem.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    let pieces: [Piece]

    public init(parsing template: String) throws(Problem) {
        var pieces: [Piece] = []
        var text = ""
        var characters = Substring(template)
        while let character = characters.popFirst() {
            if character == "}" {
                guard characters.first == "}" else {
                    throw Problem(description: "a lone '}' in the template (write '}}' for a brace)")
                }
                characters.removeFirst()
                text.append("}")
                continue
            }
            guard character == "{" else {
                text.append(character)
                continue
            }
            if characters.first == "{" {
                characters.removeFirst()
                text.append("{")
                continue
            }
            guard let close = characters.firstIndex(of: "}") else {
                throw Problem(description: "'{' without its '}' in the template")
            }
            let name = characters[..<close]
            characters = characters[characters.index(after: close)...]
            let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
            guard let first = parts.first, let field = Field(rawValue: first) else {
                throw Problem(
                    description: "unknown field {\(name)}; known: "
                        + Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " "))
            }
            let bare = parts.count == 2
            if bare, parts[1] != "value" {
                throw Problem(description: "{\(name)}: the only modifier is ':value' (the number without its unit)")
            }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.field(field, bare: bare))
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    public func render(_ values: BarValues) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .field(let field, let bare): return values.text(field, bare: bare)
            }
        }.joined()
    }
}
