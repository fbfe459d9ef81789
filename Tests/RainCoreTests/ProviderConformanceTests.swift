import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// One bar for every provider in `WeatherProviders.all`: each is run over
/// every answer recorded for it (`Tests/Fixtures/STEM-forecast-*.json`, STEM
/// its name without hyphens) and held to the same rules. A provider added to
/// the table is run here without a line of this file changing, and fails
/// until its recordings are there.
final class ProviderConformanceTests: XCTestCase {
    /// The recordings of a provider's forecast answers, by name: for a
    /// provider of one answer, `STEM-forecast-NAME.json`; for one of several
    /// (`answerRoles`), `STEM-forecast-NAME.N-ROLE.json`, one file a role.
    /// Each comes with the place it was asked for (`recorded-places.json`,
    /// by NAME; a place at 0°, 0° in UTC when it is not listed there).
    static func recordings(of provider: any WeatherProvider) throws -> [Recording] {
        let stem = provider.name.stem + "-forecast-"
        let files = try TestFile.names(in: Fixtures.directory)
            .filter { $0.hasPrefix(stem) && $0.hasSuffix(".json") }.sorted()
        let places = try recordedPlaces()
        let roles = provider.answerRoles
        var recordings: [Recording] = []
        for file in files {
            let name = String(file.dropFirst(stem.count).dropLast(".json".count))
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            if roles.count == 1 {
                guard parts.count == 1 else { continue }
            } else {
                guard parts.count == 2, parts[1] == "1-" + roles[0] else { continue }
            }
            let place =
                places[parts[0]]
                ?? Location(
                    id: LocationID("recorded"), name: parts[0], latitude: 0, longitude: 0, timeZone: "UTC",
                    source: .coordinates)
            var answers: [[UInt8]] = []
            for (index, role) in roles.enumerated() {
                answers.append(
                    try Fixtures.bytes(
                        roles.count == 1 ? file : "\(stem)\(parts[0]).\(index + 1)-\(role).json"))
            }
            recordings.append(Recording(name: stem + parts[0], place: place, answers: answers))
        }
        return recordings
    }

    struct Recording {
        var name: String
        var place: Location
        var answers: [[UInt8]]
    }

    /// `Tests/Fixtures/recorded-places.json`: where each recording was asked
    /// for, `{"NAME": {"latitude": ..., "longitude": ..., "timeZone": ...,
    /// "countryCode": ...}}`.
    static func recordedPlaces() throws -> [String: Location] {
        let json = try JSON(parsing: try Fixtures.bytes("recorded-places.json"))
        var places: [String: Location] = [:]
        for (name, value) in json.objectValue ?? JSONObject() {
            guard let latitude = value["latitude"]?.doubleValue, let longitude = value["longitude"]?.doubleValue
            else { continue }
            places[name] = Location(
                id: LocationID("recorded"), name: name, countryCode: value["countryCode"]?.stringValue ?? "",
                latitude: latitude, longitude: longitude, timeZone: value["timeZone"]?.stringValue ?? "UTC",
                source: .coordinates)
        }
        return places
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
        XCTAssertNil(Configuration().provider, "Name=auto by default: each place gets its region's providers")
        for place in Self.places {
            let chain = Configuration().providers(for: place)
            XCTAssertFalse(chain.isEmpty, "\(place.id) has a provider")
            XCTAssertTrue(
                chain.allSatisfy { !WeatherProviders.provider($0).terms.needsKey }, "\(place.id): \(chain), keyless")
        }
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
            for recording in recordings {
                let name = recording.name
                let fetchedAt = 1_800_000_000.0
                var leftOut: [String] = []
                let forecast: Forecast
                do {
                    forecast = try provider.parseForecast(
                        recording.answers, for: recording.place,
                        zone: Fixtures.zoneInfo.rules(named: recording.place.timeZone), fetchedAt: fetchedAt
                    ) { leftOut.append($0) }
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
            let recordings = try Self.recordings(of: provider)
            let place = recordings.first?.place ?? Self.places[0]
            let whole = recordings.first?.answers ?? [[UInt8]](repeating: [], count: provider.answerRoles.count)
            var broken: [(String, [[UInt8]])] = []
            // Each answer in turn replaced by garbage, the others as recorded.
            for index in whole.indices {
                for (what, body) in [
                    ("empty", ""), ("null", "null"), ("an array", "[]"),
                    ("HTML", "<html><body>502 Bad Gateway</body></html>"), ("an empty object", "{}"),
                ] {
                    var answers = whole
                    answers[index] = Array(body.utf8)
                    broken.append(("\(provider.answerRoles[index]) \(what)", answers))
                }
            }
            for recording in recordings {
                for index in recording.answers.indices {
                    let body = recording.answers[index]
                    for eighth in 1..<8 {
                        var answers = recording.answers
                        answers[index] = Array(body.prefix(body.count * eighth / 8))
                        broken.append(("\(recording.name) \(provider.answerRoles[index]) cut at \(eighth)/8", answers))
                    }
                }
            }
            broken.append(("no answer", []))
            for (what, answers) in broken {
                do {
                    _ = try provider.parseForecast(
                        answers, for: place, zone: Fixtures.zoneInfo.rules(named: place.timeZone),
                        fetchedAt: 1_800_000_000
                    ) { _ in }
                    XCTFail("\(provider.name) made a forecast of \(what)")
                } catch {
                    XCTAssertEqual(error.provider, provider.name.rawValue, "\(what): \(error)")
                }
            }
        }
    }

    func testEveryProvider_asksOnTheGrid_andNeverLeaksItsKey() throws {
        let key = "s3cret/key?#"
        for provider in WeatherProviders.all {
            let digits = provider.terms.coordinateDigits
            for place in Self.places {
                for units in UnitSystem.allCases {
                    let asked = try Self.requests(of: provider, for: place, units: units, key: key)
                    let keyless = try Self.requests(of: provider, for: place, units: units, key: nil)
                    XCTAssertEqual(asked.count, keyless.count, "\(provider.name): the same questions")
                    for (request, unkeyed) in zip(asked, keyless) {
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
                        XCTAssertFalse(unkeyed.path.contains("s3cret"), "\(provider.name): \(unkeyed.path)")
                        if !provider.terms.needsKey {
                            XCTAssertEqual(request, unkeyed, "\(provider.name) needs no key, so sends none")
                        }
                    }
                    if provider.terms.needsKey {
                        XCTAssertTrue(
                            asked.contains { $0.path.contains("s3cret") },
                            "\(provider.name) takes its key in the request")
                    }
                    XCTAssertEqual(
                        asked, try Self.requests(of: provider, for: place, units: units, key: key), "the same question")
                }
            }
        }
    }

    /// Every request `provider` makes for `place`: its plan's, and after a
    /// lookup, the plan's with each recorded lookup answer
    /// (`STEM-lookup-*.json`) it accepts for the place.
    static func requests(
        of provider: any WeatherProvider, for place: Location, units: UnitSystem, key: String?
    ) throws -> [ProviderRequest] {
        let now = 1_800_000_000.0
        switch provider.plan(for: place, units: units, key: key, lookup: nil, now: now) {
        case .forecast(let requests):
            return requests
        case .notCovered:
            return []
        case .lookup(let request):
            var requests = [request]
            let stem = provider.name.stem + "-lookup-"
            for file in try TestFile.names(in: Fixtures.directory).filter({ $0.hasPrefix(stem) }).sorted() {
                guard let lookup = try? provider.parseLookup(try Fixtures.bytes(file), for: place, now: now),
                    case .forecast(let more) = provider.plan(
                        for: place, units: units, key: key, lookup: lookup, now: now)
                else { continue }
                requests += more
            }
            return requests
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
