import Glibc
import RainCore
import RainDaemon
import RainSystem

// raind: read the command line (DaemonCommandLine declares it), build the
// daemon, run. Usage errors exit 64 (EX_USAGE).

func fail(_ message: String, code: Int32) -> Never {
    Logger.standardError("raind: \(message)\n")
    exit(code)
}

/// Checks the configuration files and says what they hold; exits 0 when they have no error.
func checkConfiguration(_ options: DaemonOptions) -> Never {
    let paths = DaemonPaths(mode: options.mode, environment: options.environment)
    let result = ConfigLoader(paths: paths).load()
    for diagnostic in result.diagnostics { Logger.standardError("\(diagnostic)\n") }
    let files = result.files.isEmpty ? "no configuration files (defaults apply)" : result.files.joined(separator: ", ")
    if result.errors.isEmpty {
        print("configuration OK: \(files)")
        exit(0)
    }
    Logger.standardError("configuration has \(result.errors.count) error(s): \(files)\n")
    exit(1)
}

/// Does what the command line asks; every way out exits.
func main(_ arguments: ArraySlice<String>) -> Never {
    let action: DaemonCommandLine.Action
    do {
        action = try DaemonCommandLine.parse(arguments, environment: ProcessEnvironment.current())
    } catch {
        fail("\(error.description)\n\n\(DaemonCommandLine.usage)", code: 64)
    }
    switch action {
    case .printVersion:
        print("raind \(RaindVersion.string)")
        exit(0)
    case .printHelp:
        print(DaemonCommandLine.usage, terminator: "")
        exit(0)
    case .checkConfiguration(let options):
        checkConfiguration(options)
    case .run(let options):
        do {
            let daemon = try Daemon(options: options)
            exit(daemon.run())
        } catch {
            fail(error.description, code: 1)
        }
    }
}

main(CommandLine.arguments.dropFirst())
