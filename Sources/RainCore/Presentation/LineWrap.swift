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
        // No character takes more columns than it has bytes: a line of `width` bytes fits.
        guard line.utf8.count > width, TextTable.width(line) > width else { return [line] }
        let cells = Cells(line)
        let count = cells.count
        func text(_ range: Range<Int>) -> Substring {
            let utf8 = line.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: cells.start(range.lowerBound))
            return Substring(utf8[start..<utf8.index(utf8.startIndex, offsetBy: cells.start(range.upperBound))])
        }
        // Columns before each character, so that any stretch's columns are one subtraction.
        var before = [0]
        before.reserveCapacity(count + 1)
        for cell in cells.cells { before.append(before[before.count - 1] + cell.width) }
        func columns(_ range: Range<Int>) -> Int { before[range.upperBound] - before[range.lowerBound] }
        let isSpace = { (index: Int) in cells.cells[index].kind == .space }
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
            let colon = (0..<count).first(where: {
                cells.cells[$0].kind == .colon && $0 + 1 < count && isSpace($0 + 1)
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
        while prefix + columns(start..<count) > width {
            // The last space within the room, past the first line's label.
            var used = prefix
            var cut: Int?
            for position in start..<count {
                let cell = cells.cells[position]
                if position > start, prefix > 0 || used > indent, cell.kind == .space || cell.breaksBefore {
                    cut = position
                }
                used += cell.width
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
    /// the line's UTF-8, its columns as `TextTable.width` counts them (none
    /// for a colour escape's, `ESC [ ... m`), whether it is a space or a
    /// colon, and whether the line may break before it with no space
    /// (`breaksBetween`). ASCII and a line of scalars that are characters of
    /// their own (`DisplayWidth.isOwnCharacter`), most lines, are read on
    /// their bytes, a scalar a character.
    private struct Cells {
        enum Kind { case space, colon, other }
        struct Cell {
            /// Where the character starts in the line's UTF-8.
            var start: Int
            var width: Int
            var kind: Kind
            var breaksBefore: Bool
        }
        var cells: [Cell] = []
        /// The line's UTF-8 length: where a character past the last would start.
        let end: Int
        var count: Int { cells.count }

        /// Where character `index` starts; `end` for `count`.
        func start(_ index: Int) -> Int { index < cells.count ? cells[index].start : end }

        init(_ line: String) {
            end = line.utf8.count
            // As many characters as bytes at most.
            cells.reserveCapacity(end)
            var escapes = DisplayWidth.Escapes()
            var contiguous = line
            // ASCII (a lone CR too, a byte a character here), accents, Cyrillic, "…": a scalar a
            // character and a column, none wide, read on the bytes. A scalar starts at each byte
            // that does not continue another.
            let readOnBytes = contiguous.withUTF8 { bytes in
                guard bytes.allSatisfy({ $0 < 0x80 }) || DisplayWidth.allOwnCharacters(bytes) else { return false }
                for (offset, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 {
                    cells.append(
                        Cell(
                            start: offset,
                            width: escapes.columns(escape: byte == 0x1B, ending: byte == UInt8(ascii: "m"), 1),
                            kind: byte == UInt8(ascii: " ") ? .space : byte == UInt8(ascii: ":") ? .colon : .other,
                            breaksBefore: false))
                }
                return true
            }
            if readOnBytes { return }
            var previous: Character?
            var position = line.startIndex
            while position < line.endIndex {
                let character = line[position]
                let afterWide = cells.last?.width == 2
                let width = escapes.columns(
                    escape: character == "\u{1B}", ending: character == "m", TextTable.columns(of: character))
                cells.append(
                    Cell(
                        start: line.utf8.distance(from: line.startIndex, to: position), width: width,
                        kind: character == " " ? .space : character == ":" || character == "：" ? .colon : .other,
                        breaksBefore: afterWide && width == 2 && previous.map { breaksBetween($0, character) } == true))
                previous = character
                position = line.index(after: position)
            }
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
