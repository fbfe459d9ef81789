/// Rows of cells laid out in aligned columns for a terminal: two spaces
/// between columns, no trailing spaces. Widths are the columns a terminal
/// gives each character: two for East Asian wide ones (Japanese weekday
/// names, `火`), none for combining marks, one for the rest.
struct TextTable {
    enum Alignment { case left, right }

    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ alignments: [Alignment]) { self.alignments = alignments }

    mutating func append(_ row: [String]) {
        precondition(row.count == alignments.count, "row has \(row.count) cells for \(alignments.count) columns")
        rows.append(row)
    }

    func lines() -> [String] {
        var widths = Array(repeating: 0, count: alignments.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], Self.width(cell)) }
        }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                if index > 0 { line += "  " }
                let padding = String(repeating: " ", count: widths[index] - Self.width(cell))
                line += alignments[index] == .right ? padding + cell : cell + padding
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The columns of the widest line.
    var widest: Int { lines().map(Self.width).max() ?? 0 }

    /// Cuts the last column's cells (with `…`) so every line fits in `width`
    /// columns; the other columns stay whole.
    mutating func fitLastColumn(to width: Int) {
        guard let last = alignments.indices.last else { return }
        var others = Array(repeating: 0, count: alignments.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index != last {
                others[index] = max(others[index], Self.width(cell))
            }
        }
        let room = max(4, width - others.reduce(0, +) - 2 * last)
        for index in rows.indices where Self.width(rows[index][last]) > room {
            var cut = ""
            for character in rows[index][last] {
                guard Self.width(cut) + Self.columns(of: character) < room else { break }
                cut.append(character)
            }
            rows[index][last] = cut + "…"
        }
    }

    /// The columns a cell takes on a terminal: its characters, less the
    /// colour escapes (`ESC [ ... m`), which take none.
    static func width(_ cell: String) -> Int {
        // Most cells: ASCII without escapes, a column a byte.
        if cell.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x1B }) { return cell.utf8.count }
        var count = 0
        var inEscape = false
        for character in cell {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += columns(of: character)
            }
        }
        return count
    }

    /// 2 for a character East Asian Width calls wide or full-width, 0 for a
    /// lone combining mark, else 1 (as wcwidth counts them).
    static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x300 else { return 1 }
        let value = scalar.value
        if (0x300...0x36F).contains(value) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }
}
