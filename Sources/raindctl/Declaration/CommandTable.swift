import RainCore

/// raindctl's whole command line: the options that come before a command and
/// every command, in the order `--help` lists them. Each command's own
/// declaration is its type's `spec`; nothing here is built until asked for,
/// so a status bar's `raindctl now` pays only for the command it runs.
enum CommandTable {
    static var commands: [any ClientCommand.Type] {
        [
            StatusCommand.self, ListCommand.self, AddCommand.self, RemoveCommand.self, SetLocationCommand.self,
            UnitsCommand.self, RefreshCommand.self, NowCommand.self, HourlyCommand.self, DailyCommand.self,
            AccuracyCommand.self, SearchCommand.self, SubscribeCommand.self, HelpCommand.self, CompletionsCommand.self,
        ]
    }

    /// The declarations of the commands a person is shown (not `completions`).
    static var shown: [CommandSpec] {
        commands.map { $0.spec }.filter { !$0.hidden }
    }

    /// The options that go before the command.
    static let globalOptions = [
        OptionSpec(
            "--socket", value: "PATH", source: .files, summary: Localization.marked("the daemon's socket"),
            help: Localization.marked(
                """
                the daemon's socket (default: $RAIND_SOCKET, then the user
                socket in $XDG_RUNTIME_DIR/raind/, then /run/raind/raind.sock)
                """)),
        OptionSpec("--version", summary: Localization.marked("print the version")),
        OptionSpec(
            "--help", short: "-h", summary: Localization.marked("show help"),
            help: Localization.marked("this help; 'raindctl COMMAND --help' shows a command's own")),
    ]

    static func command(named name: String) -> (any ClientCommand.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// `raindctl --help`, in the reader's language.
    static var mainHelp: String {
        let shown = self.shown
        let width = shown.map(\.name.count).max() ?? 0
        let lines = shown.map {
            "  \($0.name)" + String.spaces(width - $0.name.count) + "  "
                + Localization.translate($0.summary)
        }
        // l10n: the synopsis is typed as it is
        return tr("Usage:") + " raindctl [--socket PATH] COMMAND [ARGS]\n\n" + tr("Talks to raind, the weather daemon.")
            + "\n\n" + tr("Commands:") + "\n" + lines.joined(separator: "\n") + "\n\n" + tr("Options:") + "\n"
            + OptionSpec.helpList(globalOptions, Localization.translate) + "\n"
    }
}
