import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Values from files, providers and clients that used to trap raind or leak
/// through it (issue 9): each is refused, repaired or cleaned here.
final class HostileValueTests: XCTestCase {
    let paris = Location(
        id: LocationID("paris-fr"), name: "Paris", countryCode: "FR", latitude: 48.85, longitude: 2.35,
        source: .coordinates)

    // MARK: Places and ids

    func testLocationID_onlySlugsAreWellFormed() {
        for good in ["paris-fr", "a", "springfield-us-2", String(repeating: "x", count: 64)] {
            XCTAssertTrue(LocationID(good).isWellFormed, good)
        }
        for bad in [
            "", "../../x", "budget/..", "a--b", "-a", "a-", "Paris", "a.json", "a b", "é",
            String(repeating: "x", count: 65), "a\u{1B}b",
        ] {
            XCTAssertFalse(LocationID(bad).isWellFormed, bad)
        }
    }

    func testLocationValidation_refusesImpossibleCoordinatesAndControlCharacters() {
        XCTAssertNil(paris.validationProblem())
        var bad = paris
        bad.latitude = 1e300
        XCTAssertEqual(bad.validationProblem()?.field, "latitude")
        bad = paris
        bad.longitude = -.infinity
        XCTAssertEqual(bad.validationProblem()?.field, "longitude")
        bad = paris
        bad.name = "Evil\u{1B}]0;x\u{07}"
        XCTAssertEqual(bad.validationProblem()?.field, "name")
        bad = paris
        bad.id = LocationID("../../etc")
        XCTAssertEqual(bad.validationProblem()?.field, "id")
    }

    func testNewIDs_neverCarryWhatAGeocoderSent() {
        var list = LocationList()
        let (location, _) = list.add(
            PlaceCandidate(
                name: String(repeating: "Ünïcödé ", count: 30), countryCode: "../../E\u{1B}[0m", latitude: 1,
                longitude: 1,
                source: .coordinates))
        XCTAssertTrue(location.id.isWellFormed, location.id.rawValue)
    }

    func testCandidateSanitized_replacesControlCharacters() {
        let candidate = PlaceCandidate(
            name: "Zz\u{1B}[31mtop\u{07}\r", region: "Re\u{9B}gion", latitude: 1, longitude: 1, source: .coordinates)
        let clean = candidate.sanitized()
        XCTAssertFalse(clean.name.containsControlCharacters)
        XCTAssertFalse(clean.region.containsControlCharacters)
        XCTAssertTrue(clean.name.hasPrefix("Zz\u{FFFD}[31mtop"))
        XCTAssertEqual("a\u{1B}b\nc\td\u{07}".strippingControlCharacters(keepingLineBreaks: true), "ab\nc\td")
    }

    // MARK: The state file

    func testStateWithTrapValues_isRepairedAndReported() throws {
        var lat = paris
        lat.id = LocationID("far")
        lat.latitude = 1e300
        var traversal = paris
        traversal.id = LocationID("../../x")
        let state = PersistentState(
            places: LocationList(locations: [paris, lat, traversal], selectedID: LocationID("far")),
            settings: Settings(units: .si, refreshMinutes: 1_000_000_000_000))
        let (repaired, problems) = state.validated()
        XCTAssertEqual(repaired.places.locations.map(\.id), [paris.id])
        XCTAssertNil(repaired.places.selectedID)
        XCTAssertNil(repaired.settings.refreshMinutes)
        XCTAssertEqual(problems.count, 3, "\(problems)")
    }

    func testStateFile_roundTripOfTrapValues_neverTraps() throws {
        let text =
            #"{"version":1,"locations":[{"id":"paris-fr","name":"Paris","latitude":1e300,"longitude":2}],"selected":"paris-fr","settings":{"units":"si","refreshMinutes":1000000000000}}"#
        let (state, problems) = try PersistentState(bytes: Array(text.utf8)).validated()
        XCTAssertTrue(state.places.locations.isEmpty)
        XCTAssertEqual(problems.count, 2)
    }

    /// A place's descriptive fields may be missing (a hand-written file, an
    /// early raind), not null; a field of the wrong kind is named with its place.
    func testStateFile_missingDescriptiveFieldsReadEmpty_butNullOrWrongOnesAreNamed() throws {
        let bare =
            #"{"version":1,"locations":[{"id":"paris-fr","name":"Paris","latitude":48.85,"longitude":2.35}],"settings":{"units":"si"}}"#
        let paris = try XCTUnwrap(PersistentState(bytes: Array(bare.utf8)).places.locations.first)
        XCTAssertEqual([paris.region, paris.country, paris.countryCode, paris.timeZone], ["", "", "", ""])
        XCTAssertEqual(paris.source, .coordinates)
        XCTAssertNil(paris.follows)
        for (text, field) in [
            (
                bare.replacingOccurrences(of: #""name":"Paris","#, with: #""name":"Paris","region":null,"#),
                "state.locations[0].region: missing"
            ),
            (
                bare.replacingOccurrences(of: #""latitude":48.85"#, with: #""latitude":"48.85""#),
                "state.locations[0].latitude: expected a number, got a string"
            ),
            (
                bare.replacingOccurrences(of: #""units":"si""#, with: #""units":"metric""#),
                "state.settings.units: unknown value 'metric'"
            ),
            (bare.replacingOccurrences(of: #""name":"Paris","#, with: ""), "state.locations[0].name: missing"),
        ] {
            XCTAssertThrowsError(try PersistentState(bytes: Array(text.utf8)), text) { error in
                XCTAssertTrue("\(error)".hasPrefix(field), "\(error)")
            }
        }
    }

    func testStateVersionZero_isInvalidNotNewer() {
        let text = #"{"version":0,"locations":[],"settings":{"units":"si"}}"#
        XCTAssertThrowsError(try PersistentState(bytes: Array(text.utf8))) { error in
            let description = "\(error)"
            XCTAssertTrue(description.contains("invalid"), description)
            XCTAssertFalse(description.contains("newer"), description)
        }
        let newer = #"{"version":9,"locations":[],"settings":{"units":"si"}}"#
        XCTAssertThrowsError(try PersistentState(bytes: Array(newer.utf8))) { error in
            XCTAssertTrue("\(error)".contains("newer"))
        }
    }

    // MARK: Forecasts

    func testForecastValidation_refusesImpossibleTimes() {
        XCTAssertNil(Forecast(provider: "open-meteo", fetchedAt: 1_790_000_000).validationProblem())
        for time in [1e308, -5, .infinity, .nan] {
            XCTAssertEqual(Forecast(provider: "x", fetchedAt: time).validationProblem()?.field, "fetchedAt", "\(time)")
        }
        var forecast = Forecast(provider: "x", fetchedAt: 1_790_000_000)
        forecast.hourly = [HourlyForecast(time: 1_790_000_000, temperature: .infinity)]
        XCTAssertNotNil(forecast.validationProblem())
        forecast = Forecast(provider: "x", fetchedAt: 1_790_000_000, utcOffsetSeconds: 1 << 40)
        XCTAssertEqual(forecast.validationProblem()?.field, "utcOffsetSeconds")
    }

    // MARK: Configuration

    func testForecastValidation_refusesSourcesRaindNeverWrites() {
        let good = ValueSource(
            values: ["temperature"], station: "Freiburg", distanceMetres: 21_000, heightDifferenceMetres: -1_254)
        var forecast = Forecast(provider: "brightsky", fetchedAt: 1_790_000_000)
        forecast.current = CurrentConditions(time: 1_790_000_000, sources: [good])
        XCTAssertNil(forecast.validationProblem())
        func damaged(_ change: (inout ValueSource) -> Void) -> ValueSource {
            var source = good
            change(&source)
            return source
        }
        let bad = [
            damaged { $0.values = ["temperature", "temperature"] }, damaged { $0.values = ["soil moisture"] },
            damaged { $0.station = "" }, damaged { $0.station = "Frei\u{1B}[31mburg" },
            damaged { $0.station = String(repeating: "x", count: 257) }, damaged { $0.distanceMetres = -1 },
            damaged { $0.distanceMetres = .infinity }, damaged { $0.heightDifferenceMetres = 12_000 },
            damaged { $0.heightDifferenceMetres = .nan },
        ]
        for source in bad {
            forecast.current?.sources = [source]
            XCTAssertNotNil(forecast.validationProblem(), "\(source)")
        }
        forecast.current?.sources = Array(repeating: good, count: 9)
        XCTAssertEqual(forecast.validationProblem()?.field, "current.sources")
    }

    func testConfiguration_acceptsCRLFAndByteOrderMark() {
        var parser = ConfigParser()
        parser.apply(text: "\u{FEFF}[Refresh]\r\nIntervalMinutes=45\r\nDailyBudget=77\r\n", file: "raind.conf")
        XCTAssertEqual(parser.diagnostics, [])
        XCTAssertEqual(parser.configuration.intervalMinutes, 45)
        XCTAssertEqual(parser.configuration.dailyBudget, 77)
    }

    // MARK: Provider delays

    func testMaxAgeAndExpires_areCappedAtSixHours() {
        let now = 1_790_000_000.0
        let years = HTTPCachePolicy(cacheControl: "max-age=2147483647", expires: nil, date: nil)
        XCTAssertEqual(years.freshUntil(now: now), now + 6 * 3600)
        let farExpires = HTTPCachePolicy(cacheControl: nil, expires: "Fri, 31 Dec 9999 23:59:59 GMT", date: nil)
        XCTAssertEqual(farExpires.freshUntil(now: now), now + 6 * 3600)
        XCTAssertEqual(
            HTTPCachePolicy(cacheControl: "max-age=60", expires: nil, date: nil).freshUntil(now: now), now + 60)
    }

    func testRetryAfter_isCappedAtSixHours() {
        let now = 1_790_000_000.0
        XCTAssertEqual(HTTPCachePolicy.retryAfter("251720000000", now: now), now + 6 * 3600)
        XCTAssertEqual(HTTPCachePolicy.retryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now: now), now + 6 * 3600)
        XCTAssertEqual(HTTPCachePolicy.retryAfter("120", now: now), now + 120)
    }

    // MARK: Secrets

    func testScrubber_removesKeyRawEncodedURLAndQuery() {
        let url = "https://api.example/forecast/k3y%2BS3kret/1,2?units=si&token=abc123"
        let redacted = "https://api.example/forecast/<redacted>/1,2?units=si&token=abc123"
        let scrubber = SecretScrubber(secret: "k3y+S3kret", url: url, redactedURL: redacted)
        let echoed = "bad request \(url) for k3y+S3kret (k3y%2bs3kret) units=si&token=abc123\u{1B}[2J"
        let clean = scrubber.scrub(echoed)
        for secret in ["k3y+S3kret", "k3y%2BS3kret", "k3y%2bs3kret", "S3kret", "token=abc123"] {
            XCTAssertFalse(clean.contains(secret), "\(secret) in \(clean)")
        }
        XCTAssertFalse(clean.containsControlCharacters)
        XCTAssertTrue(scrubber.reveals("\"k3y+S3kret\""))
        XCTAssertFalse(scrubber.reveals("\"abcdef\""))
    }

    // MARK: Wall-clock jumps

    func testWallClockWatch_reportsJumpsNotDrift() {
        var watch = WallClockWatch(wall: 1000, monotonic: 10)
        XCTAssertNil(watch.observe(wall: 1100, monotonic: 110))
        XCTAssertNil(watch.observe(wall: 1201, monotonic: 210), "a second of slewing is no jump")
        XCTAssertEqual(watch.observe(wall: 1201 - 86400 + 100, monotonic: 310), -86400)
        XCTAssertEqual(watch.observe(wall: 1301 - 86400 + 100 + 7 * 86400, monotonic: 410), 7 * 86400)
    }
}
