import RainCore

/// `raindctl help [COMMAND]`: the same as `--help`, and a usage error for a
/// command raindctl does not have, as `raindctl COMMAND` is.
struct HelpCommand: ClientCommand {
    static let spec = CommandSpec(
        name: "help", summary: Localization.marked("show this help, or a command's (raindctl help COMMAND)"),
        synopses: ["[COMMAND]"],
        description: Localization.marked(
            """
            Shows raindctl's help (the same as 'raindctl --help'), or COMMAND's
            (the same as 'raindctl COMMAND --help').
            """),
        options: [],
        argument: ArgumentSpec(
            value: "COMMAND", source: .commands, summary: Localization.marked("command"), joinsWords: false))

    let command: (any ClientCommand.Type)?

    init(arguments: ParsedArguments) throws(ClientError) {
        guard let name = arguments.positionals.first else {
            command = nil
            return
        }
        guard let command = CommandTable.command(named: name) else {
            throw .usage(tr("help: unknown command '{command}' (see 'raindctl --help')", ["command": name]))
        }
        self.command = command
    }

    func run(_ session: ClientSession) throws(ClientError) {
        if let command {
            print(Output.forTerminal(LineWrap.wrap(command.spec.help)))
        } else {
            print(Output.forTerminal(LineWrap.wrap(CommandTable.mainHelp)), terminator: "")
        }
    }
}
