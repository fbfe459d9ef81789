/// The bash completion script (bash-completion's `_init_completion`), made
/// from the declaration: `raindctl completions bash`.
enum BashCompletion {
    static func script(_ commands: [CommandSpec]) -> String {
        // The event names: the one list of words the commands declare, bash's $events.
        let events =
            commands.flatMap(\.options).lazy.compactMap { option -> [String]? in
                if case .list(let words) = option.source { return words }
                return nil
            }.first ?? []
        var text = """
            # bash completion for raindctl                             -*- shell-script -*-
            # Installed as /usr/share/bash-completion/completions/raindctl.
            # Made by 'raindctl completions bash' from raindctl's declaration of its
            # commands (scripts/generate-completions writes this file): change that
            # declaration in Sources/raindctl, not this file.

            # Saved place ids, asked of the running raind (quietly nothing if it is not running).
            _raindctl_places()
            {
                local -a socket=()
                [[ -n $1 ]] && socket=(--socket "$1")
                raindctl "${socket[@]}" list --json 2>/dev/null |
                    grep -o '"id":"[^"]*","name"' | sed 's/^"id":"//; s/","name"$//'
            }

            # A comma-separated list of the words given: completes its last item with
            # the words not in it yet.
            _raindctl_list()
            {
                local done_part=${cur%"${cur##*,}"} word left=""
                for word in $1; do
                    [[ ,$done_part == *,$word,* ]] || left+=" $word"
                done
                COMPREPLY=($(compgen -P "$done_part" -W "$left" -- "${cur##*,}"))
                compopt -o nospace
            }

            _raindctl()
            {
                local cur prev words cword split
                _init_completion -s || return

                local commands="\(commands.map(\.name).joined(separator: " "))"
                local events="\(events.joined(separator: " "))"

                # Global options come before the command.
                local i command="" socket=""
                for ((i = 1; i < cword; i++)); do
                    case ${words[i]} in
                        --socket)
                            socket=${words[i + 1]}
                            ((i++))
                            ;;
                        --socket=*) socket=${words[i]#--socket=} ;;
                        -*) ;;
                        *)
                            command=${words[i]}
                            break
                            ;;
                    esac
                done

                if [[ -z $command ]]; then
                    case $prev in

            """
        text += valueArms(CommandTable.globalOptions.map { ($0.name, $0) }, events: events, indent: 12)
        text += """
                    esac
                    if [[ $cur == -* ]]; then
                        COMPREPLY=($(compgen -W "\(names(CommandTable.globalOptions))" -- "$cur"))
                    else
                        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
                    fi
                    return
                fi

                # An option's value.
                case $command:$prev in

            """
        text += valueArms(
            commands.flatMap { command in command.options.map { ("\(command.name):\($0.name)", $0) } }, events: events,
            indent: 8)
        text += """
                esac

                # The command's argument.
                if [[ $cur != -* ]]; then
                    case $command in

            """
        for (action, names) in grouped(
            commands.compactMap { command in
                command.argument.flatMap { action(for: $0.source, events: events) }.map { ($0, command.name) }
            })
        {
            text += "            \(names.joined(separator: " | "))) \(action) ;;\n"
        }
        text += """
                    esac
                    return
                fi

                # The command's options.
                local options=""
                case $command in

            """
        for command in commands {
            text += "        \(command.name)) options=\"\(names(command.options + [CommandSpec.helpOption]))\" ;;\n"
        }
        text += """
                esac
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
            } &&
                complete -F _raindctl raindctl

            # ex: filetype=sh

            """
        return text
    }

    /// Every spelling of the options: `--json -h --help`.
    static func names(_ options: [OptionSpec]) -> String {
        options.flatMap { [$0.short, $0.name].compactMap { $0 } }.joined(separator: " ")
    }

    /// `case` arms completing the value of each option that takes one
    /// (patterns such as `now:--format`); a value of free text gets nothing.
    static func valueArms(_ options: [(pattern: String, option: OptionSpec)], events: [String], indent: Int) -> String {
        let pad = String.spaces(indent)
        let withValues = options.filter { $0.option.value != nil }
        return grouped(withValues.map { (action(for: $0.option.source, events: events) ?? "", $0.pattern) }).map {
            action, patterns in
            "\(pad)\(patterns.joined(separator: " | ")))\n"
                + (action.isEmpty ? "" : "\(pad)    \(action)\n")
                + "\(pad)    return\n\(pad)    ;;\n"
        }.joined()
    }

    /// The line that fills COMPREPLY for a value; nil for free text.
    static func action(for source: ValueSource, events: [String]) -> String? {
        switch source {
        case .text: return nil
        case .words(let words): return #"COMPREPLY=($(compgen -W "\#(words.joined(separator: " "))" -- "$cur"))"#
        case .list(let words):
            return #"_raindctl_list "\#(words == events ? "$events" : words.joined(separator: " "))""#
        case .places: return #"COMPREPLY=($(compgen -W "$(_raindctl_places "$socket")" -- "$cur"))"#
        case .files: return "_filedir"
        case .commands: return #"COMPREPLY=($(compgen -W "$commands" -- "$cur"))"#
        }
    }

    /// Pairs gathered by their first element, in the order each first appears.
    static func grouped(_ pairs: [(String, String)]) -> [(String, [String])] {
        var groups: [(String, [String])] = []
        for (key, value) in pairs {
            if let index = groups.firstIndex(where: { $0.0 == key }) {
                groups[index].1.append(value)
            } else {
                groups.append((key, [value]))
            }
        }
        return groups
    }
}
