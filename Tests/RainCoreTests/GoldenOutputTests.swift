import Foundation
import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The `now`, `hourly` and `daily` views and the status line for every
/// fixture in every unit system, compared exactly with the files under
/// `Tests/Fixtures/Golden/`. Run with `RAIND_UPDATE_GOLDEN=1` to rewrite them after an
/// intended change, then review the diff.
final class GoldenOutputTests: XCTestCase {
    private struct Case {
        var name: String
        var fixture: String
        var placeName: String
        var parse: ([UInt8], Double) throws -> Forecast
        var fetchedAt: Double
        var now: Double
        var isStale: Bool = false
    }

    private let cases: [Case] = [
        // Now 12:35 on 3 October in Enschede, after the fixture's three hours: the hourly view is empty.
        Case(
            name: "openmeteo-enschede", fixture: "openmeteo-forecast-enschede.json", placeName: "Enschede",
            parse: { try OpenMeteo.parseForecast($0, fetchedAt: $1) }, fetchedAt: 1_791_023_520,
            now: 1_791_023_700),
        Case(
            name: "openmeteo-paris", fixture: "openmeteo-forecast-paris-unixtime.json", placeName: "Paris",
            parse: { try OpenMeteo.parseForecast($0, fetchedAt: $1) }, fetchedAt: 1_768_466_880,
            now: 1_768_467_600),
        Case(
            name: "pirateweather-san-francisco", fixture: "pirateweather-forecast-san-francisco.json",
            placeName: "San Francisco", parse: { try PirateWeather.parseForecast($0, fetchedAt: $1) },
            fetchedAt: 1_759_697_300, now: 1_759_697_400),
        Case(
            name: "pirateweather-boston", fixture: "pirateweather-forecast-boston-si.json", placeName: "Boston",
            parse: { try PirateWeather.parseForecast($0, fetchedAt: $1) }, fetchedAt: 1_768_936_100,
            now: 1_768_936_100 + 3 * 3600 + 300, isStale: true),
        // 20:10 on Saturday 28 March 2026 in Paris: the hourly view crosses the
        // change to summer time (no 02:00), the daily dates stay one per day.
        Case(
            name: "openmeteo-paris-dst", fixture: "openmeteo-forecast-paris-dst.json", placeName: "Paris",
            parse: { try OpenMeteo.parseForecast($0, fetchedAt: $1) }, fetchedAt: 1_774_724_700,
            now: 1_774_725_000),
        // Tromsø at midsummer (polar day) and midwinter (polar night).
        Case(
            name: "openmeteo-tromso-june", fixture: "openmeteo-forecast-tromso-june.json", placeName: "Tromsø",
            parse: { try OpenMeteo.parseForecast($0, fetchedAt: $1) }, fetchedAt: 1_782_036_000,
            now: 1_782_036_300),
        Case(
            name: "openmeteo-tromso-december", fixture: "openmeteo-forecast-tromso-december.json",
            placeName: "Tromsø", parse: { try OpenMeteo.parseForecast($0, fetchedAt: $1) },
            fetchedAt: 1_797_850_800, now: 1_797_851_100),
        // UTC-09:30: local hours on the half hour UTC.
        Case(
            name: "openmeteo-marquesas", fixture: "openmeteo-forecast-marquesas.json", placeName: "Nuku Hiva",
            parse: { try OpenMeteo.parseForecast($0, fetchedAt: $1) }, fetchedAt: 1_768_498_200,
            now: 1_768_498_500),
        // UTC+05:45, and Pirate Weather's -999 marker in every kind of field.
        Case(
            name: "pirateweather-kathmandu-missing", fixture: "pirateweather-forecast-kathmandu-missing.json",
            placeName: "Kathmandu", parse: { try PirateWeather.parseForecast($0, fetchedAt: $1) },
            fetchedAt: 1_768_478_400, now: 1_768_478_700),
    ]

    /// The forecast as raind keeps it: parsed, its days put on the local
    /// midnights of its zone (from the system's tz database, Debian's tzdata).
    private func normalized(_ testCase: Case) throws -> Forecast {
        var forecast = try testCase.parse(try Fixtures.bytes(testCase.fixture), testCase.fetchedAt)
        let zone = try XCTUnwrap(
            Fixtures.zoneInfo.rules(named: forecast.timeZone), "no tz data for \(forecast.timeZone); install tzdata")
        forecast.alignDays(to: zone)
        return forecast
    }

    /// The place as the recording gives it (its top-level `latitude` and
    /// `longitude`), for the moon and the day's length in `now`.
    private func coordinates(of testCase: Case) throws -> PlaceCoordinates {
        let json = try JSON(parsing: try Fixtures.bytes(testCase.fixture))
        let latitude = try XCTUnwrap(json["latitude"]?.doubleValue, "\(testCase.fixture) has no latitude")
        let longitude = try XCTUnwrap(json["longitude"]?.doubleValue, "\(testCase.fixture) has no longitude")
        return try XCTUnwrap(PlaceCoordinates(latitude: latitude, longitude: longitude))
    }

    private func render(_ presenter: ForecastPresenter) -> String {
        """
        == status line ==
        \(presenter.statusLine())
        == now ==
        \(presenter.nowView())== hourly --hours 12 ==
        \(presenter.hourlyView(hours: 12))== daily ==
        \(presenter.dailyView())
        """
    }

    func testViews_matchGoldenFiles_inEveryUnitSystem() throws {
        let update = ProcessInfo.processInfo.environment["RAIND_UPDATE_GOLDEN"] == "1"
        for testCase in cases {
            let forecast = try normalized(testCase)
            for units in UnitSystem.allCases {
                let zone = Fixtures.zoneInfo.rules(named: forecast.timeZone)
                let presenter = ForecastPresenter(
                    forecast: forecast, placeName: testCase.placeName, units: units, now: testCase.now,
                    isStale: testCase.isStale, zone: zone, coordinates: try coordinates(of: testCase))
                let name = "\(testCase.name).\(units.rawValue).txt"
                try compare(render(presenter), withGolden: name, update: update) { path in
                    "output for \(testCase.name) in \(units.rawValue) differs from \(path); "
                        + "if the change is intended, rerun with RAIND_UPDATE_GOLDEN=1 and review the diff"
                }
            }
        }
    }

    /// Compares `actual` with the golden file `name`, or with `update` writes it there.
    private func compare(
        _ actual: String, withGolden name: String, update: Bool, file: StaticString = #filePath, line: UInt = #line,
        differs message: (String) -> String
    ) throws {
        let path = Fixtures.goldenDirectory + "/" + name
        if update {
            try FileManager.default.createDirectory(atPath: Fixtures.goldenDirectory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        guard let expected = try? TestFile.text(path) else {
            return XCTFail(
                "golden file \(path) is missing; run the tests with RAIND_UPDATE_GOLDEN=1 to create it", file: file,
                line: line)
        }
        XCTAssertEqual(actual, expected, message(path), file: file, line: line)
    }

    /// The normalized forecast of every fixture, as the wire JSON, compared
    /// with golden files: catches any change in normalization, not only the
    /// values the provider tests assert.
    func testNormalization_matchesGoldenFiles() throws {
        let update = ProcessInfo.processInfo.environment["RAIND_UPDATE_GOLDEN"] == "1"
        for testCase in cases {
            let forecast = try normalized(testCase)
            // The wire form reads back to the same forecast.
            XCTAssertEqual(try Forecast(json: try JSON(parsing: forecast.json.serialized())), forecast)
            try compare(Self.pretty(forecast.json), withGolden: "\(testCase.name).forecast.json", update: update) {
                _ in "normalization of \(testCase.fixture) changed"
            }
        }
    }

    /// One member per line, so golden diffs are readable. Numbers are rounded
    /// to 6 decimals so the files do not depend on the last bit of a conversion.
    private static func pretty(_ value: JSON, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let object) where object.count > 0:
            return "{\n"
                + object.map { inner + JSON.string($0.key).serialized() + ": " + pretty($0.value, indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        case .number(let number):
            return DecimalText.format(number, fractionDigits: 6) ?? "null"
        default:
            return value.serialized()
        }
    }
}
