import RainCore
import RainSystem

/// What `subscribe` and `now` print: a named preset or a person's template.
enum BarFormat: Equatable {
    /// A timestamped line per event (subscribe only).
    case people
    /// Each reply's parameters as one JSON object per line.
    case json
    /// One line with the selected place's weather (i3blocks, polybar).
    case bar
    /// waybar's custom-module JSON; `text` from the template when one is given.
    case waybar(text: BarTemplate?)
    /// One line written from a template.
    case template(BarTemplate)

    static let presets = ["people", "json", "bar", "waybar"]
    /// The presets that print one line, all `now --format` takes besides a template.
    static let linePresets = ["bar", "waybar"]

    /// `--icons STYLE`, for `now` and `subscribe`; `help` is the --help text when it says more.
    static func iconsOption(help: String? = nil) -> OptionSpec {
        OptionSpec(
            "--icons", value: "STYLE", source: .words(IconStyle.allCases.map(\.rawValue)),
            summary: Localization.marked("{icon} as emoji (default), nerd or text"), help: help)
    }

    /// A preset's name, or a template (anything with a `{field}`).
    static func parse(_ text: String, command: String) throws(ClientError) -> BarFormat {
        switch text {
        case "people": return .people
        case "json": return .json
        case "bar": return .bar
        case "waybar": return .waybar(text: nil)
        default:
            guard text.contains("{") else {
                throw .usage(
                    tr(
                        "{command}: unknown format '{format}'; use people, json, bar, waybar, or a template such as '{icon} {temp}'",
                        ["command": command, "format": text]))
            }
            return .template(try template(text, command: command))
        }
    }

    static func template(_ text: String, command: String) throws(ClientError) -> BarTemplate {
        do {
            return try BarTemplate(parsing: text)
        } catch {
            throw .usage("\(command): \(error)")
        }
    }

    /// Whether the output is one line that replaces the previous one (a bar's).
    var isBarLine: Bool {
        switch self {
        case .people, .json: return false
        case .bar, .waybar, .template: return true
        }
    }

    /// `--icons STYLE`, else `$RAINDCTL_ICONS`, else emoji; text where the
    /// locale's character set cannot show emoji or a Nerd Font's glyphs
    /// (`LANG=C`, Latin-1), which would print as `??`.
    static func iconStyle(
        _ arguments: ParsedArguments, option: OptionSpec, command: String, utf8: Bool = Output.utf8
    ) throws(ClientError) -> IconStyle {
        let given = arguments.value(option) ?? ProcessEnvironment.value(of: "RAINDCTL_ICONS")
        var style = IconStyle.emoji
        if let given, !given.isEmpty {
            guard let named = IconStyle(rawValue: given) else {
                throw .usage(
                    tr(
                        "{command}: unknown icon style '{style}'; use emoji, nerd or text",
                        ["command": command, "style": given]))
            }
            style = named
        }
        return utf8 ? style : .text
    }
}

/// A failure as a short sentence for a tooltip: each URL as its host name,
/// the first sentence only, and never cut inside: past about a hundred
/// characters a closing parenthesis's detail (libcurl's own words) goes
/// whole, so "could not resolve the host of api.open-meteo.com (Could not
/// resolve host: api.open-meteo.com)" stays a sentence.
enum ShortSentence {
    static let limit = 100

    static func of(_ message: String) -> String {
        let words = message.split(whereSeparator: \.isWhitespace).map { hostOnly(String($0)) }
        // The first sentence: up to a word that ends in "." or ";" (not "api.example.com").
        var sentence: [String] = []
        for word in words {
            sentence.append(word)
            if word.hasSuffix(".") || word.hasSuffix(";") { break }
        }
        if let last = sentence.last, last.hasSuffix(";") { sentence[sentence.count - 1] = String(last.dropLast()) }
        var text = sentence.joined(separator: " ")
        // Too long: a closing parenthesis's detail goes whole.
        if text.count > limit, let open = sentence.lastIndex(where: { $0.hasPrefix("(") }), open > 0,
            sentence[sentence.count - 1].hasSuffix(")") || sentence[sentence.count - 1].hasSuffix(").")
        {
            text = sentence[..<open].joined(separator: " ") + (text.hasSuffix(".") ? "." : "")
        }
        return text
    }

    /// `(https://api.example/v1?key=…),` is `(api.example),`.
    static func hostOnly(_ word: String) -> String {
        let characters = Array(word)
        for scheme in ["https://", "http://"] {
            let pattern = Array(scheme)
            guard characters.count >= pattern.count else { continue }
            for start in 0...(characters.count - pattern.count)
            where Array(characters[start..<start + pattern.count]) == pattern {
                let rest = characters[(start + pattern.count)...]
                let host = rest.prefix { !"/?#),;".contains($0) }
                let closing = characters.reversed().prefix { "),.;:".contains($0) }
                return String(characters[..<start]) + String(host) + String(closing.reversed())
            }
        }
        return word
    }
}
