import RainCore

/// One raindctl subcommand: its name, help, argument validation (before any
/// connection is made) and what it does.
protocol ClientCommand {
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full help, starting with the usage line.
    static var help: String { get }
    init(arguments: ArgumentReader) throws(ClientError)
    func run(_ session: ClientSession) throws(ClientError)
}

/// What every command gets: how to reach the daemon.
struct ClientSession {
    let socketCandidates: [DaemonSocket]

    func connect() throws(ClientError) -> VarlinkClient {
        try VarlinkClient(candidates: socketCandidates)
    }
}

/// Reads a command's arguments: flags, options with values, positionals.
struct ArgumentReader {
    private(set) var remaining: [String]
    let command: String

    init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// Removes `--flag` wherever it is; true if it was there.
    mutating func flag(_ names: String...) -> Bool {
        guard let index = remaining.firstIndex(where: { names.contains($0) }) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes `--option VALUE` (or `--option=VALUE`); nil when absent.
    mutating func option(_ name: String) throws(ClientError) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else {
            throw .usage("\(command): \(name) needs a value")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// The positional arguments left; any leftover `-x` is an unknown option.
    func positionals() throws(ClientError) -> [String] {
        if let unknown = remaining.first(where: { $0.hasPrefix("-") && $0.count > 1 && Double($0) == nil }) {
            throw .usage("\(command): unknown option '\(unknown)' (see 'raindctl \(command) --help')")
        }
        return remaining
    }

    func noPositionals() throws(ClientError) {
        let left = try positionals()
        if !left.isEmpty {
            throw .usage("\(command): unexpected argument '\(left[0])' (see 'raindctl \(command) --help')")
        }
    }
}
