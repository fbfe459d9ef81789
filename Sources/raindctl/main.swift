import Glibc
import RainCore
import RainSystem

// raindctl: the thin client. Exit codes: 0 ok, 1 failure reported by the
// daemon, 2 cannot reach the daemon, 64 usage (EX_USAGE).

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

/// Reads the options before the command (as `CommandTable.globalOptions`
/// declares them), picks the command, lets its declaration read the rest and
/// runs it; every way out exits.
func main(_ arguments: [String]) -> Never {
    // The reader's language and conventions (docs/TRANSLATING.md); the catalogues
    // beside the executable's PREFIX/bin, or RAIND_LOCALE_DIR's.
    let environment = ProcessEnvironment.current()
    Localization.bind(
        environment: environment, executablePath: try? FileIO.symbolicLinkTarget(of: "/proc/self/exe"),
        warn: { Output.error("warning: \($0)") })
    Localization.useEnvironmentLocale()
    Output.utf8 = LocaleConventions.current.utf8
    var arguments = arguments
    var socketPath: String?
    while let first = arguments.first, first.hasPrefix("-") {
        arguments.removeFirst()
        let equals = first.hasPrefix("--") ? first.utf8.firstIndex(of: UInt8(ascii: "=")) : nil
        let given = equals.map { String(first[..<$0]) } ?? first
        let option = CommandTable.globalOptions.first { $0.name == given || $0.short == given }
        switch option?.name {
        case "--socket":
            if let equals {
                socketPath = String(first[first.index(after: equals)...])
            } else {
                guard !arguments.isEmpty else { exitWith(.usage(tr("--socket needs a path"))) }
                socketPath = arguments.removeFirst()
            }
        case "--version" where equals == nil:
            print("raindctl \(RaindVersion.string)")
            exit(0)
        case "--help" where equals == nil:
            print(Output.forTerminal(LineWrap.wrap(CommandTable.mainHelp)), terminator: "")
            exit(0)
        default:
            exitWith(.usage(tr("unknown option '{option}'", ["option": first]) + "\n\n" + CommandTable.mainHelp))
        }
    }

    guard let name = arguments.first else {
        Output.standardError(CommandTable.mainHelp)
        exit(64)
    }
    guard let command = CommandTable.command(named: name) else {
        exitWith(.usage(tr("unknown command '{command}' (see 'raindctl --help')", ["command": name])))
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(Output.forTerminal(LineWrap.wrap(command.spec.help)))
        exit(0)
    }

    do {
        let session = ClientSession(
            socketCandidates: DaemonSocket.candidates(
                explicit: socketPath, environment: environment, uid: ProcessIdentity.userID))
        let parsed = try command.init(arguments: try command.spec.parse(rest))
        try parsed.run(session)
    } catch {
        exitWith(error)
    }
    exit(0)
}

main(Array(CommandLine.arguments.dropFirst()))
