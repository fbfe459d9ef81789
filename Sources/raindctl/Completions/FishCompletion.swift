/// The fish completion script (`complete`), made from the declaration:
/// `raindctl completions fish`.
enum FishCompletion {
    static func script(_ commands: [CommandSpec]) -> String {
        var text = """
            # fish completion for raindctl.
            # Installed as /usr/share/fish/vendor_completions.d/raindctl.fish.
            # Made by 'raindctl completions fish' from raindctl's declaration of its
            # commands (scripts/generate-completions writes this file): change that
            # declaration in Sources/raindctl, not this file.

            # The command on the line: the first word after the global options; false
            # while there is none.
            function __raindctl_command
                set -l tokens (commandline -opc)
                set -e tokens[1]
                while set -q tokens[1]
                    switch $tokens[1]
                        case --socket
                            set tokens $tokens[3..-1]
                        case '-*'
                            set -e tokens[1]
                        case '*'
                            echo $tokens[1]
                            return 0
                    end
                end
                return 1
            end

            # Whether the command on the line is one of these.
            function __raindctl_command_is
                set -l command (__raindctl_command); or return 1
                contains -- $command $argv
            end

            # Saved place ids, asked of the running raind (quietly nothing if it is not running).
            function __raindctl_places
                set -l socket
                set -l tokens (commandline -opc)
                if set -l index (contains -i -- --socket $tokens)
                    set socket --socket $tokens[(math $index + 1)]
                else if set -l given (string match -r -- '^--socket=(.*)' $tokens)
                    set socket --socket $given[2]
                end
                raindctl $socket list --json 2>/dev/null | string match -ar '"id":"[^"]*","name"' | string replace -r '^"id":"(.*)","name"$' '$1'
            end

            # A comma-separated list of the words given: what is typed up to the last
            # comma, then each word not in it yet.
            function __raindctl_list
                set -l token (commandline -ct)
                set -l typed (string replace -r -- '^--[^=]*=' '' "$token")
                set -l done (string replace -r -- '[^,]*$' '' "$typed")
                set -l given (string split -- , "$done")
                for word in $argv
                    contains -- $word $given; or printf '%s\\n' "$done$word"
                end
            end

            complete -c raindctl -f

            """
        for option in CommandTable.globalOptions {
            let condition = option.name == "--help" ? nil : "not __raindctl_command"
            text += line(condition: condition, option: option) + "\n"
        }
        for command in commands {
            text +=
                line(condition: "not __raindctl_command", arguments: [command.name], description: command.summary)
                + "\n"
        }
        for command in commands {
            text += "\n"
            let condition = "__raindctl_command_is \(command.name)"
            for option in command.options {
                text += line(condition: condition, option: option) + "\n"
            }
            guard let argument = command.argument else { continue }
            switch argument.source {
            case .text: break
            case .commands:
                for other in commands {
                    text += line(condition: condition, arguments: [other.name], description: other.summary) + "\n"
                }
            default:
                text +=
                    line(condition: condition, arguments: values(argument.source), description: argument.summary)
                    + "\n"
            }
        }
        return text
    }

    /// A `complete` line for an option: its names, whether it takes a value and what is offered for it.
    static func line(condition: String?, option: OptionSpec) -> String {
        var words = ["complete", "-c", "raindctl"]
        if let condition { words += ["-n", quote(condition)] }
        if let short = option.short { words += ["-s", String(short.dropFirst())] }
        words += ["-l", String(option.name.dropFirst(2))]
        if option.value != nil {
            switch option.source {
            case .files: words += ["-r", "-F"]
            default: words.append("-x")
            }
            let offered = values(option.source)
            if !offered.isEmpty { words += ["-a", quote(offered.joined(separator: " "))] }
        }
        words += ["-d", quote(option.summary)]
        return words.joined(separator: " ")
    }

    /// A `complete` line offering words as arguments.
    static func line(condition: String, arguments: [String], description: String) -> String {
        [
            "complete", "-c", "raindctl", "-n", quote(condition), "-a", quote(arguments.joined(separator: " ")), "-d",
            quote(description),
        ].joined(separator: " ")
    }

    /// What `-a` offers for a value (evaluated by fish when completing).
    static func values(_ source: ValueSource) -> [String] {
        switch source {
        case .text, .files, .commands: return []
        case .words(let words): return words
        case .list(let words): return ["(__raindctl_list \(words.joined(separator: " ")))"]
        case .places: return ["(__raindctl_places)"]
        }
    }

    /// Single-quoted for fish, where only `\` and `'` are escaped inside.
    static func quote(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            if character == "\\" || character == "'" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }
}
