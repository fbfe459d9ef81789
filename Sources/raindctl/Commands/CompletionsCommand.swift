import RainCore

/// `raindctl completions SHELL` (hidden): the shell's completion script, made
/// from the declaration of every command, or that declaration as JSON. The
/// scripts in packaging/completions/ are its output
/// (scripts/generate-completions), and a test holds them to it.
struct CompletionsCommand: ClientCommand {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish, json
    }

    static let spec = CommandSpec(
        name: "completions",
        summary: Localization.marked("print a shell's completion script, or the declaration of the commands"),
        synopses: ["bash|zsh|fish|json"],
        description: Localization.marked(
            """
            Prints the completion script for bash, zsh or fish, made from
            raindctl's declaration of its commands, or (json) that declaration:
            each command's usage, help, options, argument and what a shell
            offers for their values.
            """),
        options: [],
        argument: ArgumentSpec(
            value: "SHELL", source: .words(Shell.allCases.map(\.rawValue)), summary: Localization.marked("shell"),
            joinsWords: false),
        hidden: true)

    let shell: Shell

    init(arguments: ParsedArguments) throws(ClientError) {
        guard let name = arguments.positionals.first else {
            throw .usage(tr("completions: name a shell: bash, zsh or fish (or json for the declaration)"))
        }
        guard let shell = Shell(rawValue: name) else {
            throw .usage(tr("completions: unknown shell '{shell}'; use bash, zsh, fish or json", ["shell": name]))
        }
        self.shell = shell
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let commands = CommandTable.shown
        switch shell {
        case .bash: print(BashCompletion.script(commands), terminator: "")
        case .zsh: print(ZshCompletion.script(commands), terminator: "")
        case .fish: print(FishCompletion.script(commands), terminator: "")
        case .json: print(CommandTable.declarationJSON().serialized())
        }
    }
}
