/// What a value on the command line may be, as the shells' completions offer
/// it. It says what to offer, not all that is accepted (a `--format` may also
/// be a template): each command checks its values and says what was wrong.
enum ValueSource: Equatable {
    /// Free text: nothing to offer.
    case text
    /// One of these words.
    case words([String])
    /// A comma-separated list of these words.
    case list([String])
    /// A saved place's id, asked of the running raind.
    case places
    /// A path.
    case files
    /// A raindctl command's name.
    case commands

    /// The name the declaration's JSON gives it.
    var kind: String {
        switch self {
        case .text: return "text"
        case .words: return "words"
        case .list: return "list"
        case .places: return "places"
        case .files: return "files"
        case .commands: return "commands"
        }
    }

    /// The fixed words, for `words` and `list`.
    var words: [String] {
        switch self {
        case .words(let words), .list(let words): return words
        case .text, .places, .files, .commands: return []
        }
    }
}
