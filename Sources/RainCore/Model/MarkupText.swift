/// Text placed in markup a reader parses (Pango in status bars, the body of
/// a desktop notification): a provider's `<b>` must read as text, not a tag.
extension String {
    /// The text with `&`, `<` and `>` escaped, and quotes too when
    /// `quotes` (inside attribute values; a reader that shows the body as
    /// plain text would otherwise print `&quot;`).
    public func escapingMarkup(quotes: Bool) -> String {
        var out = ""
        for character in self {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'" where quotes: out += "&#39;"
            case "\"" where quotes: out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
