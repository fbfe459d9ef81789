import RainCore

/// raind's command line, declared once: each option's spellings, its value,
/// its help line and what it does. The usage text and the parser are made
/// from `options`, and a test holds raind(8)'s OPTIONS section to it.
public enum DaemonCommandLine {
    /// What raind was asked to do.
    public enum Action {
        case run(DaemonOptions)
        case checkConfiguration(DaemonOptions)
        case printVersion
        case printHelp
    }

    /// A command line raind cannot follow; said with the usage, exit 64 (EX_USAGE).
    public struct UsageError: Error, CustomStringConvertible {
        public var description: String
    }

    /// One option.
    public struct Option: Sendable {
        /// Its spellings, the long one last (`-h`, `--help`).
        public var names: [String]
        /// The value's name in the usage (`PATH`); nil for a flag.
        public var value: String?
        public var help: String
        /// Applies the option (and its value) to what raind will do.
        let apply: @Sendable (inout Action, String?) throws(UsageError) -> Void

        /// The long spelling.
        public var name: String { names[names.count - 1] }
    }

    static let levels: [(name: String, level: Logger.Level)] = [
        ("error", .error), ("warning", .warning), ("notice", .notice), ("info", .info), ("debug", .debug),
    ]

    public static let options: [Option] = [
        Option(names: ["--user"], value: nil, help: "run as a per-user instance (default)") { action, _ in
            action.change { $0.mode = .user }
        },
        Option(
            names: ["--system"], value: nil, help: "run as the system instance (paths under /run, /var/lib, /etc)"
        ) { action, _ in action.change { $0.mode = .system } },
        Option(names: ["--socket"], value: "PATH", help: "listen on PATH instead of the default socket") {
            action, path throws(UsageError) in
            guard let path, path.hasPrefix("/") else {
                throw UsageError(description: "--socket needs an absolute path")
            }
            action.change { $0.socketPath = path }
        },
        Option(
            names: ["--check-config"], value: nil,
            help: "validate the configuration files, print findings, and exit"
        ) { action, _ in
            if case .run(let options) = action { action = .checkConfiguration(options) }
        },
        Option(
            names: ["--log-level"], value: "LEVEL", help: "error, warning, notice, info (default) or debug"
        ) { action, name throws(UsageError) in
            guard let level = levels.first(where: { $0.name == name })?.level else {
                throw UsageError(
                    description: "--log-level needs one of: \(levels.map(\.name).joined(separator: ", "))")
            }
            action.change { $0.logLevel = level }
        },
        Option(names: ["--version"], value: nil, help: "print the version and exit") { action, _ in
            action = .printVersion
        },
        Option(names: ["-h", "--help"], value: nil, help: "print this help and exit") { action, _ in
            action = .printHelp
        },
    ]

    /// `raind --help`, made from `options`.
    public static var usage: String {
        let spelled = options.map { option in
            option.names.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
        }
        let width = spelled.map(\.count).max() ?? 0
        var text = """
            Usage: raind [OPTIONS]

            Keeps the weather for your saved places fresh and publishes every change
            on a Varlink socket. Talk to it with raindctl.

            Options:

            """
        for (spelling, option) in zip(spelled, options) {
            text += "  \(spelling.padding(to: width))   \(option.help)\n"
        }
        return text + "\n"
    }

    /// What `arguments` (without the program's name) ask for. `--version`
    /// and `--help` win as soon as they are read, as before any check.
    public static func parse(
        _ arguments: some Sequence<String>, environment: [String: String]
    ) throws(UsageError) -> Action {
        var action = Action.run(DaemonOptions(environment: environment))
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            guard let option = options.first(where: { $0.names.contains(argument) }) else {
                throw UsageError(description: "unknown option '\(argument)'")
            }
            try option.apply(&action, option.value == nil ? nil : remaining.popFirst())
            switch action {
            case .printVersion, .printHelp: return action
            case .run, .checkConfiguration: continue
            }
        }
        return action
    }
}

extension DaemonCommandLine.Action {
    /// Changes the options of a run or a check; a print has none.
    mutating func change(_ body: (inout DaemonOptions) -> Void) {
        switch self {
        case .run(var options):
            body(&options)
            self = .run(options)
        case .checkConfiguration(var options):
            body(&options)
            self = .checkConfiguration(options)
        case .printVersion, .printHelp:
            break
        }
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String.spaces(width - count)
    }
}
