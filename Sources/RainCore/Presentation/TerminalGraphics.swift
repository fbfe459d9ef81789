/// How the views draw on a terminal: plain aligned text (a pipe, a file),
/// or with Unicode block graphics, coloured or not (`NO_COLOR`).
public enum TerminalGraphics: Sendable, Equatable {
    case none
    case blocks(color: Bool)

    var drawsBlocks: Bool { self != .none }

    var colored: Bool { self == .blocks(color: true) }

    /// `text` in an ANSI colour when colour is on.
    func paint(_ text: String, _ color: ANSIColor) -> String {
        colored ? "\u{1B}[\(color.rawValue)m" + text + "\u{1B}[0m" : text
    }
}

public enum ANSIColor: Int, Sendable {
    case blue = 34, yellow = 33, cyan = 36
}

/// Block-character drawings: a sparkline (`▁▃▅▇`) and a range bar on a
/// shared scale (`   ━━━━━    `), and the charts made of sparklines that
/// `hourly` and `accuracy --chart` draw.
public enum BlockDrawing {
    /// One line of a chart: a label, the values drawn as a sparkline on
    /// `lower...upper` in `color`, and a caption after them.
    public struct Line: Sendable {
        public var label: String
        public var values: [Double?]
        public var lower: Double
        public var upper: Double
        public var color: ANSIColor
        public var caption: String

        public init(
            label: String, values: [Double?], lower: Double, upper: Double, color: ANSIColor, caption: String
        ) {
            self.label = label
            self.values = values
            self.lower = lower
            self.upper = upper
            self.color = color
            self.caption = caption
        }
    }

    /// `lines` drawn under one another, their labels in one column however
    /// wide their translations: `Temp  ▁▂▃▅▆▇▇▆▅▄▃▂  -2 °C to 4 °C`.
    public static func chart(_ lines: [Line], graphics: TerminalGraphics) -> [String] {
        var table = TextTable([.left, .left, .left])
        for line in lines {
            let drawn = sparkline(line.values, lower: line.lower, upper: line.upper)
            table.append([line.label, graphics.paint(drawn, line.color), line.caption])
        }
        return table.lines()
    }

    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One block per value, its height from `lower...upper`; a missing value is a space.
    static func sparkline(_ values: [Double?], lower: Double, upper: Double) -> String {
        String(
            values.map { value -> Character in
                guard let value, value.isFinite else { return " " }
                let span = upper - lower
                let fraction = span > 0 ? (value - lower) / span : 0.5
                return levels[min(levels.count - 1, max(0, Int((fraction * Double(levels.count - 1)).rounded())))]
            })
    }

    /// `low...high` drawn in a bar of `width` cells whose ends are `lower` and `upper`.
    static func range(_ low: Double?, _ high: Double?, lower: Double, upper: Double, width: Int) -> String {
        guard let low, let high, low.isFinite, high.isFinite, upper > lower else {
            return String.spaces(width)
        }
        func cell(_ value: Double) -> Int {
            min(width - 1, max(0, Int(((value - lower) / (upper - lower) * Double(width - 1)).rounded())))
        }
        let (start, end) = (cell(min(low, high)), cell(max(low, high)))
        return String.spaces(start) + String(repeating: "━", count: end - start + 1)
            + String.spaces(width - end - 1)
    }
}
