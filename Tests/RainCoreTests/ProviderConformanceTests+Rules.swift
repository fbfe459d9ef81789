import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The rules raind shows every provider's forecast by, run over every
/// recording of every provider in the table: the shared code must work for
/// each provider's shape (hourly or sparse steps, days in the place's zone),
/// and each parser must speak raind's icon vocabulary.
extension ProviderConformanceTests {
    private func parsedRecordings() throws -> [(name: String, forecast: Forecast, zone: TimeZoneRules?)] {
        var parsed: [(name: String, forecast: Forecast, zone: TimeZoneRules?)] = []
        for provider in WeatherProviders.all {
            for recording in try Self.recordings(of: provider) {
                let placeZone = Fixtures.zoneInfo.rules(named: recording.place.timeZone)
                let forecast = try provider.parseForecast(
                    recording.answers, for: recording.place, zone: placeZone, fetchedAt: 1_800_000_000
                ) { _ in }
                let zone = forecast.timeZone.isEmpty ? placeZone : Fixtures.zoneInfo.rules(named: forecast.timeZone)
                parsed.append((recording.name, forecast, zone))
            }
        }
        return parsed
    }

    /// An icon is a word of the vocabulary, or empty when the provider did
    /// not say (shown as unknown): never another word, which would be drawn
    /// as some weather and end up in a bar's CSS classes.
    func testEveryProvider_givesIconsOfTheVocabulary() throws {
        for (name, forecast, _) in try parsedRecordings() {
            let icons =
                [forecast.current?.icon].compactMap { $0 } + forecast.hourly.map(\.icon)
                + forecast.daily.map(\.icon)
            for icon in icons where !icon.isEmpty {
                XCTAssertTrue(WeatherIcon.vocabulary.contains(icon), "\(name): icon '\(icon)' is not raind's")
            }
        }
    }

    /// Without its current block, every entry is "now" through its step, and
    /// shown as a forecast; the forecast is not outdated before its last
    /// entry ends, and is after.
    func testEveryProvider_hoursAreNowInTurn_andTheForecastEndsAfterThem() throws {
        for (name, forecast, _) in try parsedRecordings() {
            var withoutCurrent = forecast
            withoutCurrent.current = nil
            for (index, hour) in forecast.hourly.enumerated() {
                let middle = (hour.time + withoutCurrent.stepEnd(ofHourAt: index)) / 2
                let reading = withoutCurrent.conditions(at: middle)
                XCTAssertEqual(reading?.conditions.time, hour.time, "\(name): hour \(index) is now in its step")
                XCTAssertEqual(reading?.observed, false, name)
                XCTAssertFalse(forecast.outdated(now: middle), "\(name): outdated during hour \(index)")
            }
            if let current = forecast.current {
                XCTAssertEqual(forecast.conditions(at: current.time + 60)?.observed, true, name)
            }
            let end = try XCTUnwrap(forecast.coverageEnd, name)
            XCTAssertTrue(forecast.outdated(now: end), name)
            XCTAssertFalse(forecast.outdated(now: end - 1), name)
        }
    }

    /// Each day of an answer is "today" at its own local noon: days are the
    /// place's days, so today's high, low and sun come from the right one.
    func testEveryProvider_eachDayIsTodayAtItsLocalNoon() throws {
        for (name, forecast, zone) in try parsedRecordings() {
            for day in forecast.daily {
                XCTAssertEqual(
                    forecast.today(at: day.time + 43_200, zone: zone)?.time, day.time,
                    "\(name): the day starting \(day.time) is not today at its noon")
            }
        }
    }
}
