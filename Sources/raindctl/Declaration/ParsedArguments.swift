/// A command's words as its declaration read them (`CommandSpec.parse`): the
/// flags given, the options' values and the positional words, in order.
///
/// A command reads them through its own declared `OptionSpec`s
/// (`arguments.flag(Self.jsonOption)`), so a read cannot be misspelled; an
/// option the command did not declare, or a flag read as a value, is a bug
/// and traps.
struct ParsedArguments {
    let command: String
    /// The names of the options the command declares.
    let declared: [String]
    var flags: [String] = []
    var values: [(name: String, value: String)] = []
    var positionals: [String] = []

    init(command: String, declared: [String]) {
        self.command = command
        self.declared = declared
    }

    /// Whether the flag was given.
    func flag(_ option: OptionSpec) -> Bool {
        precondition(option.value == nil, "\(option.name) takes a value: read it with value(_:)")
        precondition(declared.contains(option.name), "\(command) does not declare \(option.name)")
        return flags.contains(option.name)
    }

    /// The option's value; nil when it was not given.
    func value(_ option: OptionSpec) -> String? {
        precondition(option.value != nil, "\(option.name) is a flag: read it with flag(_:)")
        precondition(declared.contains(option.name), "\(command) does not declare \(option.name)")
        return values.first { $0.name == option.name }?.value
    }

    /// Whether the option was given, as a flag or with a value (while parsing).
    func has(_ name: String) -> Bool {
        flags.contains(name) || values.contains { $0.name == name }
    }

    /// The positional words as one value ("New York"); nil when there are none.
    var joinedPositionals: String? {
        positionals.isEmpty ? nil : positionals.joined(separator: " ")
    }
}
