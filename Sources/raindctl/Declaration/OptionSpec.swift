/// One option of raindctl or of one of its commands, declared once: parsing,
/// `--help`, the man page check and the shells' completions all read it.
struct OptionSpec: Equatable {
    /// `--format`.
    let name: String
    /// `-h`, for the one option that has a short form.
    let short: String?
    /// The value's name in help (`FORMAT`); nil for a flag.
    let value: String?
    /// What the shells offer for the value.
    let source: ValueSource
    /// One line saying what it does: the shells' description of it.
    let summary: String
    /// Its text in the `--help` list of options (lines after the first are
    /// indented under it); nil when the command's description explains it.
    let help: String?

    /// `help` defaults to the summary; `listed: false` leaves the option out of the `--help` list.
    init(
        _ name: String, short: String? = nil, value: String? = nil, source: ValueSource = .text, summary: String,
        help: String? = nil, listed: Bool = true
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.source = source
        self.summary = summary
        self.help = listed ? help ?? summary : nil
    }

    /// How help shows it: `--format FORMAT`, `-h, --help`.
    var display: String {
        (short.map { $0 + ", " } ?? "") + name + (value.map { " " + $0 } ?? "")
    }

    /// The `--help` list of these options: names padded to one column, then
    /// their text through `text` (the reader's language, or as declared).
    static func helpList(_ options: [OptionSpec], _ text: (String) -> String) -> String {
        let listed = options.filter { $0.help != nil }
        let width = listed.map(\.display.count).max() ?? 0
        let indent = String.spaces(2 + width + 3)
        return listed.map { option in
            let lines = text(option.help ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            let first = "  " + option.display + String.spaces(width - option.display.count + 3)
            return lines.enumerated().map { ($0.offset == 0 ? first : indent) + $0.element }.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
