import RainCore

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
            summary: "{icon} as emoji (default), nerd or text", help: help)
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
                    "\(command): unknown format '\(text)'; use people, json, bar, waybar, or a template such as '{icon} {temp}'"
                )
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

    /// `--icons STYLE`, else `$RAINDCTL_ICONS`, else emoji.
    static func iconStyle(_ arguments: ParsedArguments, command: String) throws(ClientError) -> IconStyle {
        let given = arguments.option("--icons") ?? ProcessEnvironment.current()["RAINDCTL_ICONS"]
        guard let given, !given.isEmpty else { return .emoji }
        guard let style = IconStyle(rawValue: given) else {
            throw .usage("\(command): unknown icon style '\(given)'; use emoji, nerd or text")
        }
        return style
    }
}

/// A failure as a short sentence for a tooltip: no URLs, at most one line
/// of about a hundred characters.
enum ShortSentence {
    static let limit = 100

    static func of(_ message: String) -> String {
        let words = message.split(whereSeparator: \.isWhitespace).filter { word in
            !(word.hasPrefix("http://") || word.hasPrefix("https://") || word.hasPrefix("(http"))
        }
        var text = ""
        for word in words {
            if text.count + word.count + 1 > limit {
                return text + "…"
            }
            text += (text.isEmpty ? "" : " ") + word
        }
        return text
    }
}
