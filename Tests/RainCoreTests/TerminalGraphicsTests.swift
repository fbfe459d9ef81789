import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class TerminalGraphicsTests: XCTestCase {
    func testSparkline_spansTheLowestToTheHighestBlock_andLeavesGapsForMissingValues() {
        XCTAssertEqual(BlockDrawing.sparkline([0, 5, 10, nil, 10], lower: 0, upper: 10), "▁▅█ █")
        XCTAssertEqual(BlockDrawing.sparkline([3, 3], lower: 3, upper: 3), "▅▅", "a flat series sits mid-height")
    }

    func testRangeBar_placesEachDayOnTheWeeksScale() {
        XCTAssertEqual(BlockDrawing.range(0, 10, lower: 0, upper: 10, width: 11), "━━━━━━━━━━━")
        XCTAssertEqual(BlockDrawing.range(5, 7, lower: 0, upper: 10, width: 11), "     ━━━   ")
        XCTAssertEqual(BlockDrawing.range(nil, 7, lower: 0, upper: 10, width: 4), "    ")
    }

    func testTableWidth_ignoresColourEscapes() {
        XCTAssertEqual(TextTable.width("\u{1B}[36m━━\u{1B}[0m"), 2)
        var table = TextTable([.left, .left, .left])
        table.append(["a", "", "High"])
        table.append(["b", "\u{1B}[36m━━━\u{1B}[0m", "4°"])
        let lines = table.lines()
        XCTAssertEqual(lines[0], "a       High")
        XCTAssertEqual(lines[1], "b  \u{1B}[36m━━━\u{1B}[0m  4°")
    }

    private func presenter() throws -> ForecastPresenter {
        let forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-paris-unixtime.json"), fetchedAt: 1_768_466_880)
        return ForecastPresenter(
            forecast: forecast, placeName: "Paris", units: .si, now: 1_768_467_600,
            zone: Fixtures.zoneInfo.rules(named: forecast.timeZone))
    }

    func testHourly_onATerminal_drawsATemperatureCurveAndRainBars() throws {
        let plain = try presenter().hourlyView(hours: 12)
        XCTAssertFalse(plain.split(separator: "\n").contains { $0.hasPrefix("Temp  ") }, "plain text off a terminal")
        let drawn = try presenter().hourlyView(hours: 12, graphics: .blocks(color: false))
        let curve = try XCTUnwrap(drawn.split(separator: "\n").first { $0.hasPrefix("Temp  ") })
        XCTAssertEqual(curve.dropFirst(6).prefix(12).filter { BlockDrawing.levels.contains($0) }.count, 12)
        XCTAssertTrue(curve.contains("°C to "), String(curve))
        XCTAssertTrue(drawn.contains("\nRain  "))
        XCTAssertFalse(drawn.contains("\u{1B}"), "no colour without colour")
        XCTAssertTrue(try presenter().hourlyView(hours: 12, graphics: .blocks(color: true)).contains("\u{1B}[33m"))
        let table = plain.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        XCTAssertTrue(drawn.hasSuffix(table), "the table below the drawing is the plain one")
    }

    func testHourly_fitsTheTerminal_leavingOutADrawingWiderThanIt() throws {
        let plain = try presenter().hourlyView(hours: 48)
        let wide = try presenter().hourlyView(hours: 48, graphics: .blocks(color: true), width: 200)
        XCTAssertTrue(wide.contains("\nTemp  "), "the drawing fits 200 columns")
        let drawn = wide.split(separator: "\n").filter { $0.hasPrefix("Temp  ") || $0.hasPrefix("Rain  ") }
        let drawingWidth = try XCTUnwrap(drawn.map { TextTable.width(String($0)) }.max())
        XCTAssertGreaterThan(drawingWidth, 48)
        let narrow = try presenter().hourlyView(hours: 48, graphics: .blocks(color: true), width: drawingWidth - 1)
        XCTAssertEqual(narrow, plain, "one column less: the table alone, as off a terminal")
        let exact = try presenter().hourlyView(hours: 48, graphics: .blocks(color: true), width: drawingWidth)
        XCTAssertEqual(exact, wide, "a drawing as wide as the terminal stays")
        let table = plain.split(separator: "\n").dropFirst().dropLast(2).map { TextTable.width(String($0)) }
        XCTAssertLessThanOrEqual(table.max() ?? 0, drawingWidth - 1, "the table itself fits")
    }

    func testDaily_onATerminal_drawsEachDaysRangeOnOneScale() throws {
        let drawn = try presenter().dailyView(graphics: .blocks(color: false))
        let lines = drawn.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Day ") })
        let rows = lines[(header + 1)...].prefix { !$0.hasPrefix("Updated") }
        XCTAssertEqual(rows.count, 7)
        XCTAssertTrue(rows.allSatisfy { $0.contains("━") }, "every day has its bar")
        let highColumn = lines[header].range(of: "High")!.lowerBound.utf16Offset(in: lines[header])
        for row in rows {
            let bar = row.firstIndex(of: "━")!
            XCTAssertLessThan(bar.utf16Offset(in: row), highColumn, "the bar lies between Low and High")
        }
        XCTAssertTrue(try presenter().dailyView(graphics: .blocks(color: true)).contains("\u{1B}[36m"))
        XCTAssertFalse(try presenter().dailyView().contains("━"))
    }
}
