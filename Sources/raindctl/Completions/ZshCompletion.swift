/// The zsh completion script (`_arguments`), made from the declaration:
/// `raindctl completions zsh`.
enum ZshCompletion {
    static func script(_ commands: [CommandSpec]) -> String {
        var text = """
            #compdef raindctl
            # zsh completion for raindctl.
            # Installed as /usr/share/zsh/vendor-completions/_raindctl (Debian) or
            # $PREFIX/share/zsh/site-functions/_raindctl.
            # Made by 'raindctl completions zsh' from raindctl's declaration of its
            # commands (scripts/generate-completions writes this file): change that
            # declaration in Sources/raindctl, not this file.

            # Saved place ids, asked of the running raind (quietly nothing if it is not
            # running); $socket is _raindctl's --socket, if one was given.
            (( $+functions[_raindctl_places] )) ||
            _raindctl_places() {
                local -a ids
                ids=(${(f)"$(raindctl $socket list --json 2>/dev/null |
                    grep -o '"id":"[^"]*","name"' | sed 's/^"id":"//; s/","name"$//')"})
                _describe -t places 'saved place' ids
            }

            _raindctl() {
                local curcontext=$curcontext state line ret=1
                local -A opt_args
                local -a socket commands
                commands=(

            """
        for command in commands {
            text += "        " + quote(command.name + ":" + command.summary) + "\n"
        }
        text += """
                )

                _arguments -C \\

            """
        // A global flag (--version, --help) is all the line does: nothing goes after it.
        for spec in CommandTable.globalOptions.flatMap({ specs($0, exclusive: $0.value == nil) }) {
            text += "        \(spec) \\\n"
        }
        text += """
                    '1:command:->command' \\
                    '*::argument:->argument' && ret=0

                case $state in
                    command)
                        _describe -t commands 'raindctl command' commands && ret=0
                        ;;
                    argument)
                        [[ -n ${opt_args[--socket]} ]] && socket=(--socket ${(Q)opt_args[--socket]})
                        curcontext=${curcontext%:*:*}:raindctl-$words[1]:
                        case $words[1] in

            """
        for command in commands {
            var lines = command.options.flatMap { specs($0, exclusive: false) }
            lines += specs(CommandSpec.helpOption, exclusive: true)
            if let argument = command.argument {
                let position = argument.source == .text ? "*" : "1"
                lines.append(
                    quote(
                        "\(position):\(escape(argument.summary)):\(action(for: argument.source, name: argument.value))")
                )
            }
            text += "                \(command.name))\n"
            text += "                    _arguments \\\n"
            text += lines.map { "                        \($0)" }.joined(separator: " \\\n") + " && ret=0\n"
            text += "                    ;;\n"
        }
        text += """
                        esac
                        ;;
                esac
                return ret
            }

            _raindctl "$@"

            """
        return text
    }

    /// An option's `_arguments` specs, one per spelling: `'--format=[...]:FORMAT:(bar waybar)'`.
    /// `exclusive`: nothing else follows it (`--help`, `--version`).
    static func specs(_ option: OptionSpec, exclusive: Bool) -> [String] {
        let exclusion = exclusive ? "(- *)" : ""
        let description = "[" + escape(option.summary) + "]"
        let value = option.value.map { ":" + escape($0) + ":" + action(for: option.source, name: $0) } ?? ""
        return [option.short, option.name].compactMap { $0 }.map { name in
            // `--name=`: the value follows in the same word after `=` or as the next word.
            let equals = option.value != nil && name.hasPrefix("--") ? "=" : ""
            return quote(exclusion + name + equals + description + value)
        }
    }

    /// What `_arguments` calls for a value.
    static func action(for source: ValueSource, name: String) -> String {
        switch source {
        case .text: return " "
        case .words(let words): return "(" + words.joined(separator: " ") + ")"
        case .list(let words): return "_values -s , \(name) " + words.joined(separator: " ")
        case .places: return "_raindctl_places"
        case .files: return "_files"
        case .commands: return "{_describe -t commands 'raindctl command' commands}"
        }
    }

    /// A description or message inside an `_arguments` spec: brackets and colons are its syntax.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "[]:\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Single-quoted for the shell.
    static func quote(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
