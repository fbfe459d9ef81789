/// A command's words as its declaration read them (`CommandSpec.parse`): the
/// flags given, the options' values and the positional words, in order.
struct ParsedArguments {
    let command: String
    var flags: [String] = []
    var values: [(name: String, value: String)] = []
    var positionals: [String] = []

    init(command: String) {
        self.command = command
    }

    /// Whether the flag was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The option's value; nil when it was not given.
    func option(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    func has(_ name: String) -> Bool {
        flag(name) || option(name) != nil
    }

    /// The positional words as one value ("New York"); nil when there are none.
    var joinedPositionals: String? {
        positionals.isEmpty ? nil : positionals.joined(separator: " ")
    }
}
