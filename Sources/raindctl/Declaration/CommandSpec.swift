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
    static let helpOption = OptionSpec("--help", short: "-h", summary: "show help", listed: false)

    /// `raindctl NAME ...` for each synopsis, continuation lines aligned.
    var usageLines: [String] {
        let prefix = "raindctl \(name) "
        let continuation = String(repeating: " ", count: "Usage: ".count + prefix.count)
        return synopses.map { synopsis in
            prefix + synopsis.split(separator: "\n").joined(separator: "\n" + continuation)
        }
    }

    /// The full help, as `raindctl NAME --help` prints it.
    var help: String {
        let usage = "Usage: " + usageLines.joined(separator: "\n       ")
        let list = OptionSpec.helpList(options)
        return usage + "\n\n" + description + (list.isEmpty ? "" : "\n\n" + list)
    }

    /// Reads the words after the command name by this declaration: each
    /// option once, a value for each option that takes one (`--name VALUE` or
    /// `--name=VALUE`, even one starting with `-`), the rest positional.
    /// Negative numbers and a lone `-` are positional.
    func parse(_ words: [String]) throws(ClientError) -> ParsedArguments {
        var parsed = ParsedArguments(command: name)
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
                throw .usage("\(name): unknown option '\(word)' (see 'raindctl \(name) --help')")
            }
            guard !parsed.has(option.name) else { throw .usage("\(name): \(option.name) is given twice") }
            guard option.value != nil else {
                if equals != nil { throw .usage("\(name): \(option.name) takes no value") }
                parsed.flags.append(option.name)
                continue
            }
            if let equals {
                parsed.values.append((option.name, String(word[word.index(after: equals)...])))
            } else {
                guard index < words.count else { throw .usage("\(name): \(option.name) needs a value") }
                parsed.values.append((option.name, words[index]))
                index += 1
            }
        }
        if let argument {
            if !argument.joinsWords, parsed.positionals.count > 1 {
                throw .usage("\(name): takes one \(argument.summary) (see 'raindctl \(name) --help')")
            }
        } else if let first = parsed.positionals.first {
            throw .usage("\(name): unexpected argument '\(first)' (see 'raindctl \(name) --help')")
        }
        return parsed
    }
}
