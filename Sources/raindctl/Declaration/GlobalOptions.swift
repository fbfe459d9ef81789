/// The options before the command (`CommandTable.globalOptions`), read left to
/// right without a word of the reader's language: `--version` is answered
/// before the catalogues and the locale are read.
struct GlobalOptions {
    /// An option that ends the reading: raindctl answers it instead of a command.
    enum Stop: Equatable {
        case version
        case help
        /// `--socket` last, without its path.
        case socketWithoutPath
        /// An option `globalOptions` does not declare, as typed.
        case unknown(String)
    }

    var socketPath: String?
    /// The command and its arguments.
    var rest: [String]
    var stop: Stop?

    init(reading arguments: [String]) {
        var arguments = arguments[...]
        while let first = arguments.first, first.hasPrefix("-") {
            arguments.removeFirst()
            let equals = first.hasPrefix("--") ? first.utf8.firstIndex(of: UInt8(ascii: "=")) : nil
            let given = equals.map { String(first[..<$0]) } ?? first
            let option = CommandTable.globalOptions.first { $0.name == given || $0.short == given }
            switch option?.name {
            case "--socket":
                if let equals {
                    socketPath = String(first[first.index(after: equals)...])
                } else if let path = arguments.popFirst() {
                    socketPath = path
                } else {
                    stop = .socketWithoutPath
                }
            case "--version" where equals == nil:
                stop = .version
            case "--help" where equals == nil:
                stop = .help
            default:
                stop = .unknown(first)
            }
            if stop != nil { break }
        }
        rest = Array(arguments)
    }
}
