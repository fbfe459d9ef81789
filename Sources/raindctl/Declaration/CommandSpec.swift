import RainCore

/// One raindctl command, declared once: its name, what it takes and its help.
/// Parsing, `--help`, the man page check and the bash, zsh and fish
/// completions (`raindctl completions SHELL`) are all made from it, so they
/// cannot disagree.
struct CommandSpec: Equatable {
    let name: String
    /// One line for the command list.
    let summary: String
    /// What follows `raindctl NAME` in each usage line; a line break inside
    /// one continues it under the first.
    let synopses: [String]
    /// The help's text after the usage lines, up to the list of options.
    let description: String
    let options: [OptionSpec]
    let argument: ArgumentSpec?
    /// Left out of the command list and the completions (`completions`).
    var hidden = false

    /// Every command takes `-h`/`--help` (answered before any parsing, wherever it is).
    static let helpOption = OptionSpec("--help", short: "-h", summary: Localization.marked("show help"), listed: false)

    /// `raindctl NAME ...` for each synopsis, continuation lines aligned
    /// under the first after `label` (the help's "Usage:", in its language).
    func usageLines(label: String = "Usage:") -> [String] {  // l10n: the declaration's English
        let prefix = "raindctl \(name) "
        let continuation = String.spaces(DisplayWidth.columns(label) + 1 + prefix.count)
        return synopses.map { synopsis in
            prefix + synopsis.split(separator: "\n").joined(separator: "\n" + continuation)
        }
    }

    /// The full help, as `raindctl NAME --help` prints it: in the reader's language.
    var help: String { help(localized: true) }

    /// The full help, in the reader's language or in the declaration's
    /// English (the JSON the man page is checked against). Command, option
    /// and value names stay as they are typed.
    func help(localized: Bool) -> String {
        func text(_ english: String) -> String { localized ? Localization.translate(english) : english }
        let label = localized ? tr("Usage:") : "Usage:"  // l10n: the declaration's English
        let indent = "\n" + String.spaces(DisplayWidth.columns(label) + 1)
        let usage = label + " " + usageLines(label: label).joined(separator: indent)
        let list = OptionSpec.helpList(options, text)
        return usage + "\n\n" + text(description) + (list.isEmpty ? "" : "\n\n" + list)
    }

    /// Reads the words after the command name by this declaration: each
    /// option once, a value for each option that takes one (`--name VALUE` or
    /// `--name=VALUE`, even one starting with `-`), the rest positional.
    /// Negative numbers and a lone `-` are positional.
    func parse(_ words: [String]) throws(ClientError) -> ParsedArguments {
        var parsed = ParsedArguments(command: name, declared: options.map(\.name))
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), word.utf8.count > 1, Double(word) == nil else {
                parsed.positionals.append(word)
                continue
            }
            // Bytes, not characters: '=' is ASCII, and this runs at every start.
            let equals = word.hasPrefix("--") ? word.utf8.firstIndex(of: UInt8(ascii: "=")) : nil
            let given = equals.map { String(word[..<$0]) } ?? word
            guard let option = options.first(where: { $0.name == given || $0.short == given }) else {
                throw .usage(
                    tr(
                        "{command}: unknown option '{option}' (see 'raindctl {command} --help')",
                        ["command": name, "option": word]))
            }
            guard !parsed.has(option.name) else {
                throw .usage(tr("{command}: {option} is given twice", ["command": name, "option": option.name]))
            }
            guard option.value != nil else {
                if equals != nil {
                    throw .usage(tr("{command}: {option} takes no value", ["command": name, "option": option.name]))
                }
                parsed.flags.append(option.name)
                continue
            }
            if let equals {
                parsed.values.append((option.name, String(word[word.index(after: equals)...])))
            } else {
                guard index < words.count else {
                    throw .usage(tr("{command}: {option} needs a value", ["command": name, "option": option.name]))
                }
                parsed.values.append((option.name, words[index]))
                index += 1
            }
        }
        if let argument {
            if !argument.joinsWords, parsed.positionals.count > 1 {
                // Translators: {argument} is a few words such as "place name".
                throw .usage(
                    tr(
                        "{command}: takes one {argument} (see 'raindctl {command} --help')",
                        ["command": name, "argument": Localization.translate(argument.summary)]))
            }
        } else if let first = parsed.positionals.first {
            throw .usage(
                tr(
                    "{command}: unexpected argument '{argument}' (see 'raindctl {command} --help')",
                    ["command": name, "argument": first]))
        }
        return parsed
    }
}
