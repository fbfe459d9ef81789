/// Rows of cells laid out in aligned columns for a terminal: two spaces
/// between columns, no trailing spaces. Widths are the columns a terminal
/// gives each character (`DisplayWidth`): two for East Asian wide ones
/// (Japanese weekday names, `火`), none for combining marks, one for the rest.
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
                let padding = String.spaces(widths[index] - Self.width(cell))
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
        for index in rows.indices {
            rows[index][last] = DisplayWidth.fitting(rows[index][last], columns: room)
        }
    }

    /// The columns a cell takes on a terminal (`DisplayWidth`).
    static func width(_ cell: String) -> Int { DisplayWidth.columns(cell) }

    static func columns(of character: Character) -> Int { DisplayWidth.columns(of: character) }
}
