import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// A forecast's size has a fixed bound whatever a provider sends (issue 24,
/// point 1), and an absurd value is refused for every provider alike.
final class ForecastHorizonTests: XCTestCase {
    /// An Open-Meteo answer of `rows` hourly rows, in unixtime as raind asks.
    private func openMeteoBody(rows: Int, temperature: String = "12.5") -> [UInt8] {
        let times = (0..<rows).map { String(1_700_000_000 + $0 * 3600) }.joined(separator: ",")
        let temperatures = Array(repeating: temperature, count: rows).joined(separator: ",")
        return Array(
            #"{"utc_offset_seconds":0,"timezone":"GMT","hourly":{"time":[\#(times)],"temperature_2m":[\#(temperatures)]}}"#
                .utf8)
    }

    func testJSON_keepsAtMostTheGivenElementsOfEachArray_andStillChecksTheRest() throws {
        let kept = try JSON(parsing: Array("[1,2,3,[4,5,6],7]".utf8), keepingElements: 2)
        XCTAssertEqual(kept, .array([.number(1), .number(2)]))
        let nested = try JSON(parsing: Array(#"{"a":[[1,2,3],[4]]}"#.utf8), keepingElements: 2)
        XCTAssertEqual(nested["a"], .array([.array([.number(1), .number(2)]), .array([.number(4)])]))
        XCTAssertThrowsError(try JSON(parsing: Array("[1,2,3,x]".utf8), keepingElements: 2), "dropped is still checked")
        XCTAssertEqual(try JSON(parsing: Array("[1,2,3]".utf8)), .array([.number(1), .number(2), .number(3)]))
    }

    func testHugeOpenMeteoAnswer_isBuiltOnlyUpToTheArrayBound_andCutToTheHorizon() throws {
        var forecast = try OpenMeteo.parseForecast(openMeteoBody(rows: 300_000), fetchedAt: 1_700_000_000)
        XCTAssertLessThanOrEqual(forecast.hourly.count, ForecastHorizon.arrayElements, "cut while parsing")
        let cut = try XCTUnwrap(forecast.cutToHorizon())
        XCTAssertEqual(forecast.hourly.count, ForecastHorizon.hours)
        XCTAssertEqual(forecast.hourly.first?.time, 1_700_000_000, "the first hours are kept")
        XCTAssertTrue(cut.contains("open-meteo sent more than raind keeps"), cut)
        XCTAssertNil(forecast.validationProblem())
        XCTAssertNil(forecast.cutToHorizon(), "a forecast within the horizon is left as it is")
    }

    func testForecastBeyondTheHorizon_isInvalid_asWhenReadBackFromTheCache() {
        let hours = (0...ForecastHorizon.hours).map { HourlyForecast(time: Double(1_700_000_000 + $0 * 3600)) }
        let forecast = Forecast(provider: "open-meteo", fetchedAt: 1_700_000_000, hourly: hours)
        XCTAssertEqual(forecast.validationProblem()?.field, "hourly")
    }

    func testLongTexts_areCutAtACharacterBoundary() {
        var forecast = Forecast(
            provider: "pirateweather", fetchedAt: 0,
            current: CurrentConditions(time: 0, summary: String(repeating: "ü", count: 1000)))
        XCTAssertNotNil(forecast.cutToHorizon())
        let summary = forecast.current?.summary ?? ""
        XCTAssertEqual(summary.utf8.count, ForecastHorizon.textBytes)
        XCTAssertTrue(summary.allSatisfy { $0 == "ü" })
    }

    func testAbsurdValues_areRefusedForEveryProviderAlike() throws {
        // Open-Meteo writes SI already: 1e308 °C is finite, and was kept until this rule.
        let forecast = try OpenMeteo.parseForecast(openMeteoBody(rows: 3, temperature: "1e308"), fetchedAt: 0)
        let problem = try XCTUnwrap(forecast.validationProblem())
        XCTAssertEqual(problem.field, "hourly[0]")
        XCTAssertTrue(problem.reason.contains("no temperature (expected -150 to 150 °C)"), problem.reason)
        for bad in [
            CurrentConditions(time: 0, windSpeed: 1e6), CurrentConditions(time: 0, humidity: 3),
            CurrentConditions(time: 0, pressure: -5), CurrentConditions(time: 0, windBearing: 1e308),
        ] {
            XCTAssertNotNil(Forecast(provider: "x", fetchedAt: 0, current: bad).validationProblem(), "\(bad)")
        }
        let plausible = CurrentConditions(
            time: 0, temperature: -89.2, apparentTemperature: 70, humidity: 1, windSpeed: 113, windGust: 113,
            windBearing: 360, precipIntensity: 300, precipProbability: 0, pressure: 870, visibility: 80, uvIndex: 20,
            cloudCover: 0)
        XCTAssertNil(Forecast(provider: "x", fetchedAt: 0, current: plausible).validationProblem())
    }
}
