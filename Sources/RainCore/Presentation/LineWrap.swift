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
        let newline = UInt8(ascii: "\n")
        if !(text.utf8.withContiguousStorageIfAvailable { $0.contains(newline) } ?? text.utf8.contains(newline)) {
            let lines = wrapLine(text, width: width)
            return lines.count == 1 ? lines[0] : lines.joined(separator: "\n")
        }
        // Split at the newline's byte: a line break is never part of another character here.
        return text.utf8.split(separator: newline, omittingEmptySubsequences: false)
            .flatMap { wrapLine(String(Substring($0)), width: width) }
            .joined(separator: "\n")
    }

    static func wrapLine(_ line: String, width: Int) -> [String] {
        guard TextTable.width(line) > width else { return [line] }
        let cells = Cells(line)
        let count = cells.count
        func text(_ range: Range<Int>) -> Substring {
            line[cells.starts[range.lowerBound]..<cells.starts[range.upperBound]]
        }
        // Columns before each character, so that any stretch's columns are one subtraction.
        var before = [0]
        before.reserveCapacity(count + 1)
        for width in cells.widths { before.append(before[before.count - 1] + width) }
        func columns(_ range: Range<Int>) -> Int { before[range.upperBound] - before[range.lowerBound] }
        let isSpace = { (index: Int) in cells.kinds[index] == .space }
        let leading = (0..<count).prefix(while: isSpace).count
        var indent = leading
        // The column after the first run of two or more spaces past the indent.
        var index = leading
        while index < count - 1 {
            if isSpace(index), isSpace(index + 1), index > leading {
                var end = index
                while end < count, isSpace(end) { end += 1 }
                indent = columns(0..<end)
                break
            }
            index += 1
        }
        // A row whose label is the widest has one space after its colon.
        if indent == leading,
            let colon = (0..<count).first(where: { cells.kinds[$0] == .colon && $0 + 1 < count && isSpace($0 + 1) }),
            columns(0..<(colon + 2)) <= width / 2
        {
            indent = columns(0..<(colon + 2))
        }
        if indent > width / 2 { indent = leading }
        var lines: [String] = []
        var start = 0
        // The continuation's indent: none on the first line.
        var prefix = 0
        while prefix + columns(start..<count) > width {
            // The last space within the room, past the first line's label.
            var used = prefix
            var cut: Int?
            for position in start..<count {
                if position > start, prefix > 0 || used > indent, isSpace(position) || cells.breaksBefore[position] {
                    cut = position
                }
                used += cells.widths[position]
                if used > width { break }
            }
            guard let cut else { break }
            var end = cut
            while end > start, isSpace(end - 1) { end -= 1 }
            lines.append(String.spaces(prefix) + String(text(start..<end)))
            start = cut
            while start < count, isSpace(start) { start += 1 }
            prefix = indent
        }
        lines.append(String.spaces(prefix) + String(text(start..<count)))
        return lines
    }

    /// A line's characters as the wrapper sees them: where each starts in
    /// the line (its end last), its columns as `TextTable.width` counts
    /// them (none for a colour escape's, `ESC [ ... m`), whether it is a
    /// space or a colon, and whether the line may break before it with no
    /// space (`breaksBetween`). ASCII and a line of scalars that are
    /// characters of their own (`DisplayWidth.isOwnCharacter`), most lines,
    /// are read on their bytes, a scalar a character.
    private struct Cells {
        enum Kind { case space, colon, other }
        var starts: [String.Index] = []
        var widths: [Int] = []
        var kinds: [Kind] = []
        var breaksBefore: [Bool] = []
        var count: Int { widths.count }

        init(_ line: String) {
            // As many characters as bytes at most.
            let most = line.utf8.count + 1
            starts.reserveCapacity(most)
            widths.reserveCapacity(most)
            kinds.reserveCapacity(most)
            breaksBefore.reserveCapacity(most)
            var escapes = DisplayWidth.Escapes()
            if line.utf8.allSatisfy({ $0 < 0x80 }) || line.unicodeScalars.allSatisfy(DisplayWidth.isOwnCharacter) {
                // ASCII (a lone CR too, a byte a character here), accents, Cyrillic, "…": a scalar a
                // character and a column, none wide. Read on the bytes: a scalar starts at each byte
                // that does not continue another.
                var position = line.utf8.startIndex
                while position < line.utf8.endIndex {
                    let byte = line.utf8[position]
                    if byte & 0xC0 != 0x80 {
                        starts.append(position)
                        widths.append(escapes.columns(escape: byte == 0x1B, ending: byte == UInt8(ascii: "m"), 1))
                        kinds.append(byte == UInt8(ascii: " ") ? .space : byte == UInt8(ascii: ":") ? .colon : .other)
                        breaksBefore.append(false)
                    }
                    line.utf8.formIndex(after: &position)
                }
            } else {
                var previous: Character?
                var position = line.startIndex
                while position < line.endIndex {
                    let character = line[position]
                    let afterWide = widths.last == 2
                    starts.append(position)
                    widths.append(
                        escapes.columns(
                            escape: character == "\u{1B}", ending: character == "m", TextTable.columns(of: character)))
                    kinds.append(character == " " ? .space : character == ":" || character == "：" ? .colon : .other)
                    breaksBefore.append(
                        afterWide && widths.last == 2 && previous.map { breaksBetween($0, character) } == true)
                    previous = character
                    position = line.index(after: position)
                }
            }
            starts.append(line.endIndex)
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
