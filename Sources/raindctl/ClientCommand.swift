import RainCore

/// One raindctl subcommand: its declaration (name, options, argument, help),
/// its validation of what was given (before any connection is made) and what
/// it does.
protocol ClientCommand {
    static var spec: CommandSpec { get }
    init(arguments: ParsedArguments) throws(ClientError)
    func run(_ session: ClientSession) throws(ClientError)
}

/// What every command gets: how to reach the daemon.
struct ClientSession {
    let socketCandidates: [DaemonSocket]

    func connect() throws(ClientError) -> VarlinkClient {
        try VarlinkClient(candidates: socketCandidates)
    }
}
