import RainCore

extension CommandTable {
    /// The whole declaration as JSON (`raindctl completions json`), for the
    /// tests that hold the man page to it and for other tools.
    static func declarationJSON() -> JSON {
        .object([
            "options": .array(globalOptions.map(json)),
            "commands": .array(commands.map { json($0.spec) }),
        ])
    }

    static func json(_ command: CommandSpec) -> JSON {
        .object([
            "name": .string(command.name),
            "summary": .string(command.summary),
            "hidden": .bool(command.hidden),
            "usage": .array(command.usageLines().map(JSON.string)),
            "help": .string(command.help(localized: false)),
            "options": .array(command.options.map(json)),
            "argument": command.argument.map(json) ?? .null,
        ])
    }

    static func json(_ option: OptionSpec) -> JSON {
        .object([
            "name": .string(option.name),
            "short": option.short.map(JSON.string) ?? .null,
            "value": option.value.map(JSON.string) ?? .null,
            "summary": .string(option.summary),
            "help": option.help.map(JSON.string) ?? .null,
            "source": json(option.source),
        ])
    }

    static func json(_ argument: ArgumentSpec) -> JSON {
        .object([
            "value": .string(argument.value),
            "summary": .string(argument.summary),
            "joinsWords": .bool(argument.joinsWords),
            "source": json(argument.source),
        ])
    }

    static func json(_ source: ValueSource) -> JSON {
        .object(["kind": .string(source.kind), "words": .array(source.words.map(JSON.string))])
    }
}
