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

/// Reads the options before the command (`GlobalOptions`), picks the command,
/// lets its declaration read the rest and runs it; every way out exits.
func main(_ arguments: [String]) -> Never {
    let options = GlobalOptions(reading: arguments)
    // The version has no text to translate: it is written before the catalogues and the
    // locale are read, which were most of its memory (docs/PERFORMANCE.md), in one write
    // to the descriptor.
    if options.stop == .version {
        // Nowhere left to report a failure to write it.
        try? StandardStream.output.write("raindctl \(RaindVersion.string)\n")
        exit(0)
    }
    // The reader's language and conventions (docs/TRANSLATING.md); the catalogues
    // beside the executable's PREFIX/bin, or RAIND_LOCALE_DIR's.
    let environment = ProcessEnvironment.current()
    Localization.bind(
        environment: environment, executablePath: try? FileIO.symbolicLinkTarget(of: "/proc/self/exe"),
        warn: { Output.error("warning: \($0)") })
    Localization.useEnvironmentLocale()
    Output.utf8 = LocaleConventions.current.utf8
    switch options.stop {
    case nil, .version:  // .version: printed above
        break
    case .help:
        print(Output.forTerminal(LineWrap.wrap(CommandTable.mainHelp)), terminator: "")
        exit(0)
    case .socketWithoutPath:
        exitWith(.usage(tr("--socket needs a path")))
    case .unknown(let option):
        exitWith(.usage(tr("unknown option '{option}'", ["option": option]) + "\n\n" + CommandTable.mainHelp))
    }
    let arguments = options.rest
    let socketPath = options.socketPath

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
