/// Rows of cells laid out in aligned columns for a terminal: two spaces
/// between columns, no trailing spaces. Widths count Characters, which is
/// right for the text raind prints (letters, digits, `°`, `%`).
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

    /// The columns a cell takes on a terminal: its characters, less the
    /// colour escapes (`ESC [ ... m`), which take none.
    static func width(_ cell: String) -> Int {
        var count = 0
        var inEscape = false
        for character in cell {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
