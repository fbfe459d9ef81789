/// Lines for people kept within a terminal's 80 columns in every language:
/// a line past `width` is broken at the last space that fits, and each
/// continuation starts under the column it continues (a table's value, a
/// help entry's description: the text after the line's first run of two
/// or more spaces, or after a leading `Label: `), else under the line's
/// own indent:
///
///     Air               Unhealthy for sensitive groups (US AQI 120),
///                       mostly PM2.5
///
/// Japanese and Chinese, written without spaces, break between two wide
/// characters as well (columns counted by `DisplayWidth`), never before a
/// closing mark (`、。）」`) nor after an opening one (`（「`).
///
/// Lines that fit are left as they are; a word longer than the room (a
/// URL) stays whole on a line of its own.
public enum LineWrap {
    public static let width = 80

    public static func wrap(_ text: String, width: Int = LineWrap.width) -> String {
        guard text.contains(where: { _ in true }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { wrapLine(String($0), width: width) }
            .joined(separator: "\n")
    }

    static func wrapLine(_ line: String, width: Int) -> [String] {
        guard TextTable.width(line) > width else { return [line] }
        let characters = Array(line)
        let leading = characters.prefix { $0 == " " }.count
        var indent = leading
        // The column after the first run of two or more spaces past the indent.
        var index = leading
        while index < characters.count - 1 {
            if characters[index] == " ", characters[index + 1] == " ", index > leading {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                indent = TextTable.width(String(characters[..<end]))
                break
            }
            index += 1
        }
        // A row whose label is the widest has one space after its colon.
        if indent == leading,
            let colon = characters.indices.first(where: {
                (characters[$0] == ":" || characters[$0] == "：") && $0 + 1 < characters.count
                    && characters[$0 + 1] == " "
            }),
            TextTable.width(String(characters[...(colon + 1)])) <= width / 2
        {
            indent = TextTable.width(String(characters[...(colon + 1)]))
        }
        if indent > width / 2 { indent = leading }
        var lines: [String] = []
        var rest = Array(line)
        var prefix = ""
        while TextTable.width(prefix + String(rest)) > width {
            // The last space within the room, past the first line's label.
            var columns = prefix.count
            var cut: Int?
            for (position, character) in rest.enumerated() {
                if position > 0, !prefix.isEmpty || columns > indent,
                    character == " " || breaksBetween(rest[position - 1], character)
                {
                    cut = position
                }
                columns += TextTable.width(String(character))
                if columns > width { break }
            }
            guard let cut else { break }
            let head = String(rest[..<cut]).trimmingTrailingSpaces()
            lines.append(prefix + head)
            rest = Array(rest[cut...].drop { $0 == " " })
            prefix = String(repeating: " ", count: indent)
        }
        lines.append(prefix + String(rest))
        return lines
    }

    /// Marks a line of Japanese or Chinese does not start with.
    static let closing: Set<Character> = [
        "、", "。", "，", "．", "：", "；", "！", "？", "）", "」", "』", "】", "〉", "》", "ー", "・", "々", "…",
    ]
    /// Marks a line does not end with.
    static let opening: Set<Character> = ["（", "「", "『", "【", "〈", "《"]

    /// Whether a line may break between two characters with no space
    /// between them: both wide, and the kinsoku rules above.
    static func breaksBetween(_ before: Character, _ after: Character) -> Bool {
        DisplayWidth.columns(of: before) == 2 && DisplayWidth.columns(of: after) == 2
            && !closing.contains(after) && !opening.contains(before)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
