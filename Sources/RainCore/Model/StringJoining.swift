extension Array where Element == String {
    /// The strings with `separator` between them, as the standard library's
    /// `joined(separator:)` gives them, compiled for arrays of strings. The
    /// standard library's is written for any collection of strings and is not
    /// compiled into its callers: the first call in a process resolved the
    /// collection's associated types at run time (0.11 million instructions
    /// in `raindctl status`, a new process each time). Being the more specific
    /// declaration, this one is what `[String].joined(separator:)` calls
    /// wherever RainCore is imported.
    public func joined(separator: String) -> String {
        guard let first else { return "" }
        var length = separator.utf8.count * (count - 1)
        for string in self { length += string.utf8.count }
        var text = first
        text.reserveCapacity(length)
        for string in dropFirst() {
            text += separator
            text += string
        }
        return text
    }
}
