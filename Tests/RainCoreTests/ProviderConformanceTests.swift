import TestSupport
import XCTest

@testable import RainCore

/// One bar for every provider in `WeatherProviders.all`: each is run over
/// every answer recorded for it (`Tests/Fixtures/STEM-forecast-*.json`, STEM
/// its name without hyphens) and held to the same rules. A provider added to
/// the table is run here without a line of this file changing, and fails
/// until its recordings are there.
final class ProviderConformanceTests: XCTestCase {
    /// The recordings of a provider's forecast answers, by file name.
    static func recordings(of provider: any WeatherProvider) throws -> [(name: String, body: [UInt8])] {
        let stem = provider.name.stem + "-forecast-"
        let names = try TestFile.names(in: Fixtures.directory)
            .filter { $0.hasPrefix(stem) && $0.hasSuffix(".json") }.sorted()
        return try names.map { ($0, try Fixtures.bytes($0)) }
    }

    /// Places where rounding, signs and the date line have caught parsers and request builders out.
    static let places: [Location] = [
        Location(
            id: LocationID("paris-fr"), name: "Paris", countryCode: "FR", latitude: 48.8534, longitude: 2.3488,
            timeZone: "Europe/Paris", source: .geonames(id: 2_988_507)),
        Location(
            id: LocationID("suva-fj"), name: "Suva", countryCode: "FJ", latitude: -18.14161, longitude: 178.44149,
            timeZone: "Pacific/Fiji", source: .geonames(id: 2_198_148)),
        Location(
            id: LocationID("pole"), name: "South Pole", countryCode: "AQ", latitude: -90, longitude: -180,
            timeZone: "Antarctica/McMurdo", source: .coordinates),
        Location(
            id: LocationID("null-island"), name: "Null Island", countryCode: "", latitude: 0.004999, longitude: -0.005,
            timeZone: "UTC", source: .coordinates),
    ]

    func testTheTable_namesEachProviderOnce_andTheDefaultNeedsNoKey() {
        let names = WeatherProviders.all.map(\.name.rawValue)
        XCTAssertEqual(Set(names).count, names.count, "names: \(names)")
        XCTAssertFalse(WeatherProviders.standard.terms.needsKey, "raind must work out of the box")
        XCTAssertEqual(Configuration().provider, WeatherProviders.standard.name)
        for provider in WeatherProviders.all {
            XCTAssertEqual(ProviderName(rawValue: provider.name.rawValue), provider.name)
            XCTAssertEqual(WeatherProviders.provider(provider.name).name, provider.name)
            XCTAssertEqual(
                FuzzTargets.all.filter { $0.name == provider.name.stem }.count, 1, "\(provider.name) is fuzzed")
        }
        XCTAssertNil(ProviderName(rawValue: "wttr.in"), "only the table's names can be made")
    }

    func testEveryProvider_hasRecordedAnswers_thatParseIntoValidForecasts() throws {
        for provider in WeatherProviders.all {
            let recordings = try Self.recordings(of: provider)
            XCTAssertFalse(recordings.isEmpty, "\(provider.name) has no recorded answers in Tests/Fixtures")
            for (name, body) in recordings {
                let fetchedAt = 1_800_000_000.0
                var leftOut: [String] = []
                let forecast: Forecast
                do {
                    forecast = try provider.parseForecast(body, fetchedAt: fetchedAt) { leftOut.append($0) }
                } catch {
                    XCTFail("\(provider.name) cannot parse its own recording \(name): \(error)")
                    continue
                }
                XCTAssertEqual(forecast.provider, provider.name.rawValue, name)
                XCTAssertEqual(forecast.fetchedAt, fetchedAt, name)
                XCTAssertNil(
                    forecast.validationProblem(), "\(name): \(String(describing: forecast.validationProblem()))")
                XCTAssertTrue(
                    forecast.current != nil || !forecast.hourly.isEmpty || !forecast.daily.isEmpty,
                    "\(name) gave a forecast with nothing in it")
                XCTAssertEqual(
                    forecast.hourly.map(\.time), forecast.hourly.map(\.time).sorted(), "\(name): hours in order")
                XCTAssertEqual(
                    forecast.daily.map(\.time), forecast.daily.map(\.time).sorted(), "\(name): days in order")
                XCTAssertEqual(Set(forecast.hourly.map(\.time)).count, forecast.hourly.count, "\(name): each hour once")
                for note in leftOut {
                    XCTAssertTrue(note.hasPrefix(provider.name.rawValue), "\(name): a note names its provider: \(note)")
                }
            }
        }
    }

    /// A cut-off or garbled answer is an error that names the provider,
    /// never a crash and never a forecast made up from the pieces.
    func testEveryProvider_refusesBrokenAnswers_withAnErrorNamingIt() throws {
        for provider in WeatherProviders.all {
            var broken: [(String, [UInt8])] = [
                ("empty", []), ("null", Array("null".utf8)), ("an array", Array("[]".utf8)),
                ("HTML", Array("<html><body>502 Bad Gateway</body></html>".utf8)),
                ("an empty object", Array("{}".utf8)),
            ]
            for (name, body) in try Self.recordings(of: provider) {
                for eighth in 1..<8 {
                    broken.append(("\(name) cut at \(eighth)/8", Array(body.prefix(body.count * eighth / 8))))
                }
            }
            for (what, body) in broken {
                do {
                    _ = try provider.parseForecast(body, fetchedAt: 1_800_000_000) { _ in }
                    XCTFail("\(provider.name) made a forecast of \(what)")
                } catch {
                    XCTAssertEqual(error.provider, provider.name.rawValue, "\(what): \(error)")
                }
            }
        }
    }

    func testEveryProvider_asksOnTheGrid_andNeverLeaksItsKey() {
        let key = "s3cret/key?#"
        for provider in WeatherProviders.all {
            let digits = provider.terms.coordinateDigits
            for place in Self.places {
                for units in UnitSystem.allCases {
                    let request = provider.request(for: place, units: units, key: key)
                    XCTAssertTrue(request.path.hasPrefix("/"), "\(provider.name): \(request.path)")
                    XCTAssertFalse(
                        request.path.contains(where: { $0 == " " || $0.isNewline || $0 == "#" }),
                        "\(provider.name): \(request.path)")
                    for number in Self.numbers(in: request.path) {
                        XCTAssertLessThanOrEqual(
                            number.split(separator: ".").dropFirst().first?.count ?? 0, digits,
                            "\(provider.name) sent \(number) for \(place.id): at most \(digits) decimals")
                    }
                    XCTAssertFalse(request.path.contains(key), "\(provider.name) put the key in unencoded")
                    let keyless = provider.request(for: place, units: units, key: nil)
                    XCTAssertFalse(keyless.path.contains("s3cret"), "\(provider.name): \(keyless.path)")
                    if provider.terms.needsKey {
                        XCTAssertTrue(request.path.contains("s3cret"), "\(provider.name) takes its key in the request")
                    } else {
                        XCTAssertEqual(request, keyless, "\(provider.name) needs no key, so sends none")
                    }
                    XCTAssertEqual(request, provider.request(for: place, units: units, key: key), "the same question")
                }
            }
        }
    }

    func testEveryProvider_statesItsTermsAndCredit() {
        for provider in WeatherProviders.all {
            let terms = provider.terms
            XCTAssertTrue(provider.defaultBaseURL.hasPrefix("https://"), "\(provider.name)")
            XCTAssertFalse(provider.defaultBaseURL.hasSuffix("/"), "\(provider.name): paths start with /")
            XCTAssertFalse(provider.attribution.text.isEmpty, "\(provider.name) is credited")
            XCTAssertTrue(provider.attribution.url.hasPrefix("https://"), "\(provider.name)")
            XCTAssertEqual(Attribution(provider: provider.name.rawValue), provider.attribution)
            XCTAssertTrue(terms.quota.callsPerRequest.isFinite && terms.quota.callsPerRequest >= 1, "\(provider.name)")
            if let free = terms.quota.freeCalls { XCTAssertGreaterThan(free, 0, "\(provider.name)") }
            XCTAssertTrue((0...0.5).contains(terms.jitterFraction), "\(provider.name)")
            XCTAssertTrue((1...6).contains(terms.coordinateDigits), "\(provider.name)")
            XCTAssertTrue((5...60).contains(terms.nowcastIntervalMinutes), "\(provider.name)")
            if let lifetime = terms.defaultLifetime { XCTAssertGreaterThan(lifetime, 0, "\(provider.name)") }
            for place in Self.places {
                var configuration = Configuration()
                configuration.provider = provider.name
                XCTAssertEqual(configuration.providerTerms, terms)
                XCTAssertTrue(terms.coverage.covers(countryCode: place.countryCode) || terms.coverage != .world)
            }
        }
    }

    /// The runs of digits, with their decimal point, in `text`.
    static func numbers(in text: String) -> [Substring] {
        text.split(whereSeparator: { !($0.isNumber || $0 == ".") }).filter { $0.contains(".") && $0.first != "." }
    }
}
