import Glibc
import RainCore
import RainDaemon

// raind: parse flags, build the daemon, run. Usage errors exit 64 (EX_USAGE).

let usage = """
    Usage: raind [OPTIONS]

    Keeps the weather for your saved places fresh and publishes every change
    on a Varlink socket. Talk to it with raindctl.

    Options:
      --user              run as a per-user instance (default)
      --system            run as the system instance (paths under /run, /var/lib, /etc)
      --socket PATH       listen on PATH instead of the default socket
      --check-config      validate the configuration files, print findings, and exit
      --log-level LEVEL   error, warning, notice, info (default) or debug
      --version           print the version and exit
      -h, --help          print this help and exit

    """

func fail(_ message: String, code: Int32) -> Never {
    Logger.standardError("raind: \(message)\n")
    exit(code)
}

/// Reads the options, then checks the configuration or runs the daemon; every way out exits.
func main(_ arguments: ArraySlice<String>) -> Never {
    var arguments = arguments
    var options = DaemonOptions(environment: ProcessEnvironment.current())
    var checkConfigOnly = false
    while let argument = arguments.popFirst() {
        switch argument {
        case "--user": options.mode = .user
        case "--system": options.mode = .system
        case "--socket":
            guard let path = arguments.popFirst(), path.hasPrefix("/") else {
                fail("--socket needs an absolute path\n\n\(usage)", code: 64)
            }
            options.socketPath = path
        case "--check-config": checkConfigOnly = true
        case "--log-level":
            let levels: [String: Logger.Level] = [
                "error": .error, "warning": .warning, "notice": .notice, "info": .info, "debug": .debug,
            ]
            guard let name = arguments.popFirst(), let level = levels[name] else {
                fail("--log-level needs one of: error, warning, notice, info, debug", code: 64)
            }
            options.logLevel = level
        case "--version":
            print("raind \(RaindVersion.string)")
            exit(0)
        case "-h", "--help":
            print(usage, terminator: "")
            exit(0)
        default:
            fail("unknown option '\(argument)'\n\n\(usage)", code: 64)
        }
    }

    if checkConfigOnly {
        let paths = DaemonPaths(mode: options.mode, environment: options.environment)
        let result = ConfigLoader(paths: paths).load()
        for diagnostic in result.diagnostics { Logger.standardError("\(diagnostic)\n") }
        let files =
            result.files.isEmpty ? "no configuration files (defaults apply)" : result.files.joined(separator: ", ")
        if result.errors.isEmpty {
            print("configuration OK: \(files)")
            exit(0)
        }
        Logger.standardError("configuration has \(result.errors.count) error(s): \(files)\n")
        exit(1)
    }

    do {
        let daemon = try Daemon(options: options)
        exit(daemon.run())
    } catch {
        fail(error.description, code: 1)
    }
}

main(CommandLine.arguments.dropFirst())
