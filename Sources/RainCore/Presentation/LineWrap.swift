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
        guard !text.isEmpty else { return text }
        // One line (most): no splitting and joining.
        if !text.utf8.contains(UInt8(ascii: "\n")) {
            let lines = wrapLine(text, width: width)
            return lines.count == 1 ? lines[0] : lines.joined(separator: "\n")
        }
        // Split at the newline's byte: a line break is never part of another character here.
        return text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .flatMap { wrapLine(String(Substring($0)), width: width) }
            .joined(separator: "\n")
    }

    static func wrapLine(_ line: String, width: Int) -> [String] {
        guard TextTable.width(line) > width else { return [line] }
        // Each character, and where it starts in `line` (its end last) to cut lines from.
        var characters: [Character] = []
        var starts: [String.Index] = []
        var position = line.startIndex
        while position < line.endIndex {
            starts.append(position)
            characters.append(line[position])
            position = line.index(after: position)
        }
        starts.append(line.endIndex)
        func text(_ range: Range<Int>) -> Substring { line[starts[range.lowerBound]..<starts[range.upperBound]] }
        let widths = Self.widths(of: characters)
        // Columns before each character, so that any stretch's columns are one subtraction.
        var before = [0]
        before.reserveCapacity(widths.count + 1)
        for width in widths { before.append(before[before.count - 1] + width) }
        func columns(_ range: Range<Int>) -> Int { before[range.upperBound] - before[range.lowerBound] }
        let leading = characters.prefix { $0 == " " }.count
        var indent = leading
        // The column after the first run of two or more spaces past the indent.
        var index = leading
        while index < characters.count - 1 {
            if characters[index] == " ", characters[index + 1] == " ", index > leading {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                indent = columns(0..<end)
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
            columns(0..<(colon + 2)) <= width / 2
        {
            indent = columns(0..<(colon + 2))
        }
        if indent > width / 2 { indent = leading }
        var lines: [String] = []
        var start = 0
        // The continuation's indent: none on the first line.
        var prefix = 0
        while prefix + columns(start..<characters.count) > width {
            // The last space within the room, past the first line's label.
            var used = prefix
            var cut: Int?
            for position in start..<characters.count {
                if position > start, prefix > 0 || used > indent,
                    characters[position] == " "
                        || (widths[position - 1] == 2 && widths[position] == 2
                            && breaksBetween(characters[position - 1], characters[position]))
                {
                    cut = position
                }
                used += widths[position]
                if used > width { break }
            }
            guard let cut else { break }
            var end = cut
            while end > start, characters[end - 1] == " " { end -= 1 }
            lines.append(String(repeating: " ", count: prefix) + text(start..<end))
            start = cut
            while start < characters.count, characters[start] == " " { start += 1 }
            prefix = indent
        }
        lines.append(String(repeating: " ", count: prefix) + text(start..<characters.count))
        return lines
    }

    /// Each character's columns, as `TextTable.width` counts them: none
    /// for a colour escape's characters (`ESC [ ... m`).
    private static func widths(of characters: [Character]) -> [Int] {
        var inEscape = false
        return characters.map { character in
            if inEscape {
                if character == "m" { inEscape = false }
                return 0
            }
            if character == "\u{1B}" {
                inEscape = true
                return 0
            }
            return TextTable.columns(of: character)
        }
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
