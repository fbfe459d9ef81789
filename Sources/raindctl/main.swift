import Glibc
import RainCore
import RainSystem

// raindctl: the thin client. Exit codes: 0 ok, 1 failure reported by the
// daemon, 2 cannot reach the daemon, 64 usage (EX_USAGE).

var commands: [any ClientCommand.Type] {
    [
        StatusCommand.self, ListCommand.self, AddCommand.self, RemoveCommand.self,
        SetLocationCommand.self, UnitsCommand.self, RefreshCommand.self, NowCommand.self, HourlyCommand.self,
        DailyCommand.self, SearchCommand.self, SubscribeCommand.self,
    ]
}

func mainHelp() -> String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let lines = commands.map {
        "  \($0.name)" + String(repeating: " ", count: width - $0.name.count) + "  \($0.summary)"
    }
    return """
        Usage: raindctl [--socket PATH] COMMAND [ARGS]

        Talks to raind, the weather daemon.

        Commands:
        \(lines.joined(separator: "\n"))

        Options:
          --socket PATH   the daemon's socket (default: $RAIND_SOCKET, then the user
                          socket in $XDG_RUNTIME_DIR/raind/, then /run/raind/raind.sock)
          --version       print the version
          -h, --help      this help; 'raindctl COMMAND --help' shows a command's own

        """
}

func exitWith(_ error: ClientError) -> Never {
    switch error {
    case .unreachable(let message), .failed(let message), .usage(let message):
        Output.error(message)
    case .daemon(let name, let parameters, let instance):
        Output.error(Output.describe(errorName: name, parameters: parameters, instance: instance))
    case .daemonPartial:
        break
    }
    exit(error.exitCode)
}

/// Reads the options, picks the command and runs it; every way out exits.
func main(_ arguments: [String]) -> Never {
    var arguments = arguments
    var socketPath: String?
    while let first = arguments.first, first.hasPrefix("-") {
        arguments.removeFirst()
        switch first {
        case "--socket":
            guard !arguments.isEmpty else { exitWith(.usage("--socket needs a path")) }
            socketPath = arguments.removeFirst()
        case "--version":
            print("raindctl \(RaindVersion.string)")
            exit(0)
        case "-h", "--help":
            print(mainHelp(), terminator: "")
            exit(0)
        default:
            exitWith(.usage("unknown option '\(first)'\n\n\(mainHelp())"))
        }
    }

    guard let name = arguments.first else {
        Output.standardError(mainHelp())
        exit(64)
    }
    if name == "help" {
        if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
            print(command.help)
        } else {
            print(mainHelp(), terminator: "")
        }
        exit(0)
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        exitWith(.usage("unknown command '\(name)' (see 'raindctl --help')"))
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help)
        exit(0)
    }

    do {
        let session = ClientSession(
            socketCandidates: DaemonSocket.candidates(
                explicit: socketPath, environment: ProcessEnvironment.current(), uid: ProcessIdentity.userID))
        let parsed = try command.init(arguments: ArgumentReader(rest, command: name))
        try parsed.run(session)
    } catch {
        exitWith(error)
    }
    exit(0)
}

main(Array(CommandLine.arguments.dropFirst()))
