/// A command's positional argument, declared with the command.
struct ArgumentSpec: Equatable {
    /// Its name in help: `PLACE`.
    let value: String
    /// What the shells offer for it.
    let source: ValueSource
    /// What it is, in a few words: the shells' heading for it and the
    /// subject of "takes one ...".
    let summary: String
    /// Whether several words make one value (a place name such as New York);
    /// otherwise a second word is a usage error.
    let joinsWords: Bool
}
