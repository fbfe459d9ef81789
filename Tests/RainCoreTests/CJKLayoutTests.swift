import Foundation
import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Japanese and Chinese on a terminal: a kanji or hanzi takes two columns,
/// so a view that counted characters would misalign its columns and pass
/// 80 columns. The columns here are counted by the test's own rule
/// (`terminalColumns`, the CJK blocks a view shows), not by `DisplayWidth`,
/// so a wrong table in `DisplayWidth` fails it.
final class CJKLayoutTests: XCTestCase {
    /// Two columns for the CJK blocks (kana, kanji/hanzi, full-width forms
    /// and punctuation), none for a combining mark, else one.
    private func terminalColumns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0x300...0x36F: sum
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF01...0xFF60, 0xFFE0...0xFFE6:
                sum + 2
            default: sum + 1
            }
        }
    }

    func testDisplayWidth_countsWideCharactersTwiceAndMarksNever() {
        XCTAssertEqual(DisplayWidth.columns("Paris"), 5)
        XCTAssertEqual(DisplayWidth.columns("木曜日"), 6)
        XCTAssertEqual(DisplayWidth.columns("星期四，多云"), 12)
        XCTAssertEqual(DisplayWidth.columns("（体感温度）："), 14)
        XCTAssertEqual(DisplayWidth.columns("ｶﾀｶﾅ"), 4, "half-width katakana take one column")
        XCTAssertEqual(DisplayWidth.columns("e\u{301}t\u{E9}"), 3, "a combining accent takes none")
        XCTAssertEqual(DisplayWidth.columns("\u{1B}[1;34m雨\u{1B}[0m"), 2, "colour escapes take none")
        XCTAssertEqual(DisplayWidth.columns("-3° – 2°"), 8)
        XCTAssertEqual(DisplayWidth.columns("🌙"), 2)
        for text in ["2026年1月15日 木曜日", "东北风 3 m/s，阵风 6 m/s", "降水確率  5%"] {
            XCTAssertEqual(DisplayWidth.columns(text), terminalColumns(text), text)
        }
    }

    func testAParagraphWithoutSpaces_breaksBetweenWideCharacters_neverBeforeAClosingMark() {
        let text = String(repeating: "今日は晴れ、明日は雨の見込みです。", count: 8)
        let lines = LineWrap.wrap(text).split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(lines.count, 1)
        XCTAssertEqual(lines.joined(), text, "nothing is lost or added")
        for line in lines {
            XCTAssertLessThanOrEqual(terminalColumns(line), 80, line)
            XCTAssertFalse(line.hasPrefix("、") || line.hasPrefix("。"), line)
        }
        // A table row continues under its value.
        let row = "空気  " + String(repeating: "敏感なグループには健康に良くない", count: 6)
        let wrapped = LineWrap.wrap(row).split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(wrapped.count, 1)
        XCTAssertTrue(
            wrapped.dropFirst().allSatisfy { $0.hasPrefix("      ") && !$0.hasPrefix("       ") }, "\(wrapped)")
        XCTAssertTrue(wrapped.allSatisfy { terminalColumns($0) <= 80 }, "\(wrapped)")
    }

    func testBrief_cutsAtSixtyColumns() {
        let brief = ForecastPresenter.brief(String(repeating: "接続できません", count: 10))
        XCTAssertTrue((58...60).contains(terminalColumns(brief)), brief)
        XCTAssertTrue(brief.hasSuffix("…"))
    }

    private func paris() throws -> Forecast {
        var forecast = try OpenMeteo.parseForecast(
            try Fixtures.bytes("openmeteo-forecast-paris-unixtime.json"), fetchedAt: 1_768_466_880)
        let zone = try XCTUnwrap(Fixtures.zoneInfo.rules(named: forecast.timeZone))
        forecast.alignDays(to: zone)
        return forecast
    }

    /// The display columns at which each of `line`'s fields (runs of
    /// non-space characters) starts and ends.
    private func fields(_ line: String) -> [(start: Int, end: Int)] {
        var found: [(start: Int, end: Int)] = []
        var column = 0
        var start: Int?
        for character in line + " " {
            if character == " " {
                if let begun = start { found.append((begun, column)) }
                start = nil
            } else if start == nil {
                start = column
            }
            column += terminalColumns(String(character))
        }
        return found
    }

    func testHourlyDailyAndNow_lineUpAndFit80Columns_inJapaneseAndChinese() throws {
        XCTAssertNotNil(Catalogues.compiled, "msgfmt could not compile po/*.po")
        if let directory = Catalogues.compiled {
            Localization.bind(environment: ["RAIND_LOCALE_DIR": directory], executablePath: nil)
        }
        let forecast = try paris()
        let zone = Fixtures.zoneInfo.rules(named: forecast.timeZone)
        for locale in ["ja_JP.UTF-8", "zh_CN.UTF-8"] {
            let views = try XCTUnwrap(
                Localization.with(locale: locale) { () -> [String] in
                    let presenter = ForecastPresenter(
                        forecast: forecast, placeName: "Paris", units: .si, now: 1_768_467_600, zone: zone,
                        coordinates: PlaceCoordinates(latitude: 48.8534, longitude: 2.3488))
                    XCTAssertNotEqual(tr("Feels like"), "Feels like", "\(locale) speaks its catalogue")
                    return [
                        presenter.nowView(),
                        presenter.hourlyView(hours: 12, graphics: .blocks(color: false), width: 80),
                        presenter.dailyView(graphics: .blocks(color: false), width: 80),
                    ] + [tr("Feels like"), tr("Wind"), tr("Humidity"), tr("Pressure"), tr("Sun")]
                }, "\(locale) is not installed: ./scripts/test runs localedef")
            for view in views[..<3] {
                for line in LineWrap.wrap(view).split(separator: "\n") where !line.contains("https://") {
                    XCTAssertLessThanOrEqual(terminalColumns(String(line)), 80, "\(locale): \(line)")
                }
            }
            // hourly: every row with a time has its time and its rain chance
            // at the header's columns (right-aligned: the same end).
            let hourly = views[1].split(separator: "\n").map(String.init)
            let first = try XCTUnwrap(hourly.firstIndex { $0.contains("10:00") && $0.hasSuffix("%") }, "\(hourly)")
            let headerFields = fields(hourly[first - 1])
            let rows = hourly[first...].filter { $0.contains(":00") && $0.hasSuffix("%") }
            XCTAssertEqual(rows.count, 12, "\(locale): \(hourly)")
            for row in rows {
                let cells = fields(row)
                let time = try XCTUnwrap(cells.first { row.contains(":") && $0.end - $0.start == 5 }, row)
                XCTAssertEqual(time.start, headerFields[1].start, "\(locale): time under its header: \(row)")
                XCTAssertEqual(cells.last?.end, headerFields.last?.end, "\(locale): rain under its header: \(row)")
            }
            // daily: each day's weekday, date and low start and end where the others' do.
            let daily = views[2].split(separator: "\n").map(String.init).filter { $0.contains("°") }
            XCTAssertEqual(daily.count, 7, "\(locale): \(daily)")
            let firstDay = fields(daily[0])
            for row in daily {
                let cells = fields(row)
                XCTAssertEqual(cells[1].start, firstDay[1].start, "\(locale): the date column: \(row)")
                XCTAssertEqual(cells[2].end, firstDay[2].end, "\(locale): the low column: \(row)")
            }
            // now: every row of its table starts its value at one column.
            let now = views[0].split(separator: "\n").map(String.init)
            let labels = views[3...]
            let starts = try labels.map { label in
                let row = try XCTUnwrap(now.first { $0.hasPrefix(label + " ") }, "\(locale): \(label) in \(now)")
                return fields(row).first { $0.start > 0 }?.start
            }
            XCTAssertEqual(Set(starts).count, 1, "\(locale): values start at \(starts)")
        }
    }

    func testAJapaneseTerminalThatIsNotUTF8_getsEnglishInASCII() throws {
        // What reads in ASCII is kept (a Latin-1 German terminal keeps its German).
        for text in ["Gefühlt", "Körner/m³", "CAMS-Daten © ECMWF", "Jutro: 0° – 5°"] {
            XCTAssertTrue(AsciiText.representable(text), text)
        }
        for text in ["体感温度", "{place}：{temp}", "Berlin（DWD）", "Ощущается"] {
            XCTAssertFalse(AsciiText.representable(text), text)
        }
        if let directory = Catalogues.compiled {
            Localization.bind(environment: ["RAIND_LOCALE_DIR": directory], executablePath: nil)
        }
        let text = try XCTUnwrap(
            Localization.with(locale: "ja_JP.EUC-JP") { () -> [String] in
                let time = CivilDateTime(unixSeconds: 1_768_467_600, utcOffsetSeconds: 0)
                return [
                    tr("Feels like"), trn("{count} day ago", "{count} days ago", 3), time.longDate,
                    AlertWording.moment(time), AsciiText.degrade(tr("Weather data by Open-Meteo.com (CC BY 4.0)")),
                ]
            }, "ja_JP.EUC-JP is not installed: ./scripts/test runs localedef")
        XCTAssertEqual(
            text,
            [
                "Feels like", "3 days ago", "Thursday 15 January 2026", "Thu 15 Jan 09:00",
                "Weather data by Open-Meteo.com (CC BY 4.0)",
            ])
    }
}
