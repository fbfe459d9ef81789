import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// A simulated month through the real loop, libcurl and the fixture server
/// on loopback, with the tests' clock: a place near Los Angeles
/// International served by Open-Meteo, whose forecasts are 2 °C too warm,
/// and compared with MET Norway, unbiased and noisier. Open-Meteo's
/// refreshes are its samples; MET Norway is asked four times a day beside
/// the forecasts, counted in its own book. The station's hours come as the
/// observation watcher's events. The scores are checked against the same
/// month computed here from the generating functions, without the record.
final class AccuracyMonthTests: XCTestCase {
    /// 2026-07-29T14:00:00Z, minutes after the recorded METAR reports.
    static let start = 1_785_333_600.0
    static let step = 6 * 3600.0
    static let steps = 32 * 4
    static let klax = ObservationStation(
        id: "KLAX", name: "Los Angeles Intl, CA, US", latitude: 33.938, longitude: -118.387, heightMetres: 38)

    // The month's weather, by hour.
    static func truth(_ hour: Double) -> Double {
        let index = Int(hour / 3600)
        return 18 + 6 * sin(Double(index % 24) / 24 * 2 * .pi) + Double(index / 24 % 5)
    }
    static func noise(_ hour: Double) -> Double { Double(Int(hour / 3600) * 7919 % 7) - 3 }
    static func rains(_ hour: Double) -> Bool { Int(hour / 3600) % 5 == 0 }
    static func wind(_ hour: Double) -> Double { 3 + Double(Int(hour / 3600) % 4) }
    static func openMeteo(_ hour: Double, bias: Double = 2) -> Double { truth(hour) + bias }
    static func metNorway(_ hour: Double) -> Double { truth(hour) + noise(hour) }

    private var directory: URL!
    private var server: FixtureServer?

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-accuracy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private struct Rig {
        let harness: ClientHarness
        let server: FixtureServer
        let clock: FakeClock
        let refresher: Refresher
        let watcher: ObservationWatcher
        let keeper: AccuracyKeeper
        let events: DaemonEvents
        let paths: DaemonPaths
        let id: LocationID
        let location: Location
    }

    /// `userOrder` nil: `Name=auto`, whose list follows the scores.
    private func rig(
        latitude: Double = 33.96, longitude: Double = -118.35, countryCode: String = "US",
        userOrder: [ProviderName]? = [.openMeteo, .metNorway], openMeteoBias: Double = 2, at time: Double = start,
        correctTemperature: Bool = false
    ) throws -> Rig {
        let harness = try ClientHarness()
        let server = try FixtureServer(
            files: [
                "metar.json": try Fixtures.bytes("observations/aviationweather-metar-json-klax-kjfk-kord.json"),
                "om.json": Self.openMeteoBody(at: Self.start, bias: openMeteoBias),
                "metno.json": Self.metNorwayBody(at: Self.start),
            ],
            routes: [
                "/api/data/metar": "metar.json", "/v1/forecast": "om.json", "/weatherapi/": "metno.json",
            ])
        self.server = server
        var configuration = Configuration()
        configuration.providerOrder = userOrder
        configuration.baseURL = server.url("")
        configuration.observationsBaseURL = server.url("")
        configuration.correctTemperature = correctTemperature
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "accuracy-test", threshold: .error)
        let clock = FakeClock(wall: time)
        let context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        var list = LocationList()
        let added = list.add(
            PlaceCandidate(
                name: "Inglewood", region: "California", country: "United States", countryCode: countryCode,
                latitude: latitude, longitude: longitude, timeZone: "America/Los_Angeles", source: .coordinates))
        let parts = try AccuracyParts(context: context, http: harness.http, places: list)
        let (events, refresher, watcher, keeper) = (parts.events, parts.refresher, parts.watcher, parts.keeper)
        return Rig(
            harness: harness, server: server, clock: clock, refresher: refresher, watcher: watcher, keeper: keeper,
            events: events, paths: paths, id: added.location.id, location: added.location)
    }

    /// Open-Meteo's answer at `time`: 60 hours from its hour, 2 °C too warm,
    /// rain forecast exactly when it rains, with its chance (Open-Meteo
    /// reports an hour's rain at the end of the hour), the wind 1 m/s too strong.
    static func openMeteoBody(at time: Double, bias: Double = 2) -> [UInt8] {
        let hours = (0..<60).map { time + Double($0) * 3600 }
        func list(_ value: (Double) -> String) -> String { hours.map(value).joined(separator: ",") }
        return Array(
            """
            {"utc_offset_seconds":0,"timezone":"GMT","hourly_units":{"time":"unixtime","temperature_2m":"°C",
            "precipitation":"mm","precipitation_probability":"%","wind_speed_10m":"m/s"},
            "hourly":{"time":[\(list { String(Int($0)) })],
            "temperature_2m":[\(list { String(openMeteo($0, bias: bias)) })],
            "precipitation":[\(list { rains($0 - 3600) ? "0.6" : "0" })],
            "precipitation_probability":[\(list { rains($0 - 3600) ? "80" : "10" })],
            "wind_speed_10m":[\(list { String(wind($0) + 1) })]}}
            """.utf8)
    }

    /// MET Norway's answer at `time`: unbiased, noisier, rain every fourth hour, the wind right.
    static func metNorwayBody(at time: Double) -> [UInt8] {
        let formatter = ISO8601DateFormatter()
        let series = (0..<60).map { index -> String in
            let hour = time + Double(index) * 3600
            let stamp = formatter.string(from: Date(timeIntervalSince1970: hour))
            return """
                {"time":"\(stamp)","data":{"instant":{"details":{"air_temperature":\(metNorway(hour)),\
                "wind_speed":\(wind(hour))}},"next_1_hours":{"summary":{"symbol_code":"cloudy"},\
                "details":{"precipitation_amount":\(Int(hour / 3600) % 4 == 0 ? 1.0 : 0.0)}}}}
                """
        }
        let updated = formatter.string(from: Date(timeIntervalSince1970: time))
        return Array(
            """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-118.35,33.96,30]},
            "properties":{"meta":{"updated_at":"\(updated)","units":{"air_temperature":"celsius",
            "precipitation_amount":"mm","wind_speed":"m/s"}},"timeseries":[\(series.joined(separator: ","))]}}
            """.utf8)
    }

    /// What the station saw in the six hours before `time`, as the watcher's events carry it.
    private func observe(_ rig: Rig, until time: Double) {
        for offset in stride(from: 5.0, through: 0, by: -1) {
            let hour = time - offset * 3600
            let observation = Observation(
                source: "metar", station: Self.klax, time: hour - 420, temperature: Self.truth(hour),
                windSpeed: Self.wind(hour), weather: Self.rains(hour) ? [ObservedWeather(.rain)] : [])
            rig.events.emit(.observed([rig.id], observation))
        }
    }

    /// Runs the month: the station found, then every six hours the
    /// forecasts rewritten, the serving provider refreshed, the other one
    /// compared, and the station's hours reported.
    private func runMonth(_ rig: Rig, openMeteoBias bias: Double = 2) throws {
        var index = 0
        func next() {
            guard index < Self.steps else { return rig.harness.finish() }
            if index > 0 { rig.clock.advance(Self.step) }
            let time = rig.clock.wallNow
            index += 1
            do {
                try Data(Self.openMeteoBody(at: time, bias: bias)).write(
                    to: rig.server.directory.appendingPathComponent("om.json"))
                try Data(Self.metNorwayBody(at: time)).write(
                    to: rig.server.directory.appendingPathComponent("metno.json"))
            } catch {
                XCTFail("\(error)")
                return rig.harness.finish()
            }
            observe(rig, until: time)
            rig.refresher.refresh([rig.id]) { results in
                XCTAssertNil(results[rig.id] ?? nil, "refresh at \(time)")
                rig.keeper.nextComparison[rig.id] = time
                rig.keeper.compared = { _ in rig.harness.loop.later { next() } }
                rig.keeper.timerFired()
                // The steps compare, not the keeper's own timer (its six hours are the steps').
                rig.keeper.nextComparison[rig.id] = .infinity
            }
        }
        rig.watcher.settled = {
            guard rig.watcher.isIdle else { return }
            rig.watcher.settled = {}
            rig.harness.loop.later { next() }
        }
        rig.watcher.timerFired()
        XCTAssertTrue(try rig.harness.run(timeout: 300), "the month never ended")
    }

    /// The expected scores of `forecast` at `lead`, from the generating
    /// functions: each six-hourly issue judged on the hours L to L + 3 h
    /// after it, observed within the window ending at `end`.
    private func expected(
        _ forecast: (Double) -> Double, lead: Int, end: Double
    ) -> (pairs: Int, mae: Double, bias: Double, within: Double) {
        var errors: [Double] = []
        for step in 0..<Self.steps {
            let issued = Self.start + Double(step) * Self.step
            for offset in 0..<3 {
                let hour = issued + Double(lead + offset) * 3600
                guard hour <= end, hour >= end - 30 * 86_400 else { continue }
                errors.append(forecast(hour) - Self.truth(hour))
            }
        }
        let count = Double(errors.count)
        return (
            errors.count, errors.map(abs).reduce(0, +) / count, errors.reduce(0, +) / count,
            Double(errors.filter { abs($0) <= 2 }.count) / count
        )
    }

    func testSimulatedMonth_scoresTheBiasedAndTheNoisyProviderAsComputedIndependently() throws {
        let rig = try rig()
        try runMonth(rig)
        let end = rig.clock.wallNow
        let accuracy = rig.keeper.accuracy(of: rig.location)
        XCTAssertEqual(accuracy.station?.id, "KLAX")
        XCTAssertEqual(accuracy.serving, "open-meteo")
        XCTAssertNil(accuracy.fileProblem)
        XCTAssertEqual(Set(accuracy.scores.map(\.provider)), ["open-meteo", "metno"])
        for lead in AccuracyRecord.leadHours {
            let biased = try XCTUnwrap(accuracy.scores.first { $0.provider == "open-meteo" && $0.leadHours == lead })
            let want = expected({ Self.openMeteo($0) }, lead: lead, end: end)
            XCTAssertEqual(biased.temperaturePairs, want.pairs, "lead \(lead)")
            XCTAssertGreaterThan(want.pairs, 300)
            XCTAssertEqual(try XCTUnwrap(biased.temperatureError), 2, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(biased.temperatureBias), 2, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(biased.withinTwoDegrees), want.within, accuracy: 1e-9)
            XCTAssertEqual(biased.rainHitRate, 1, "rain forecast exactly when it rains")
            XCTAssertEqual(biased.rainFalseAlarmRate, 0)
            XCTAssertEqual(try XCTUnwrap(biased.windError), 1, accuracy: 1e-9)
            let rainy = Double(biased.rainHits)
            let brier = (rainy * 0.04 + Double(biased.rainPairs - biased.rainHits) * 0.01) / Double(biased.rainPairs)
            XCTAssertEqual(try XCTUnwrap(biased.brierScore), brier, accuracy: 1e-9)

            let noisy = try XCTUnwrap(accuracy.scores.first { $0.provider == "metno" && $0.leadHours == lead })
            let wantNoisy = expected(Self.metNorway, lead: lead, end: end)
            XCTAssertEqual(noisy.temperaturePairs, wantNoisy.pairs, "lead \(lead)")
            XCTAssertEqual(try XCTUnwrap(noisy.temperatureError), wantNoisy.mae, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(noisy.temperatureBias), wantNoisy.bias, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(noisy.withinTwoDegrees), wantNoisy.within, accuracy: 1e-9)
            XCTAssertLessThan(abs(try XCTUnwrap(noisy.temperatureBias)), 0.5, "unbiased")
            XCTAssertNil(noisy.brierScore, "MET Norway gives no chance of rain")
            XCTAssertEqual(try XCTUnwrap(noisy.windError), 0, accuracy: 1e-9)
            XCTAssertEqual(noisy.backfilledPairs, 0)
        }
        // Four comparisons a day, each one request in MET Norway's own book.
        XCTAssertEqual(try rig.server.countTargets("/weatherapi/"), Self.steps)
        XCTAssertEqual(try rig.server.countTargets("/v1/forecast"), Self.steps)

        // What was kept is on disk when raind stops, and reads back the same.
        rig.keeper.cancelAll()
        let files = AccuracyFiles(stateDirectory: rig.paths.stateDirectory)
        guard case .loaded(let record) = files.load(rig.id, now: end) else {
            return XCTFail("the accuracy file does not read back")
        }
        XCTAssertEqual(record, rig.keeper.records[rig.id])
        // The sizes docs/ACCURACY.md and docs/PERFORMANCE.md bound a file by.
        let file = try XCTUnwrap(files.path(for: rig.id))
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertLessThan(size, record.samples.count * 190 + record.observed.count * 130 + 100)
        XCTAssertLessThanOrEqual(record.observed.count, AccuracyRecord.maximumObservedHours)
    }

    /// A month with Open-Meteo 3 °C too warm under `Name=auto` (the place
    /// given as Mexican, so that its list is the rest of the world's:
    /// Open-Meteo, then MET Norway): once both have 72 pairs at +24 h and
    /// MET Norway's error is lower by the margin on three daily decisions
    /// in a row, MET Norway serves, with one `ProviderChanged` saying why,
    /// and stays for the rest of the month; the forecast and the status say why it serves.
    func testBetterProvider_takesOver_afterThreeDaysOfEnoughPairs_andDoesNotFlapBack() throws {
        let rig = try rig(countryCode: "MX", userOrder: nil, openMeteoBias: 3)
        var changes: [(time: Double, change: ProviderChange)] = []
        let recorder = EventRecorder(rig.events) { event in
            if case .providerChanged(_, let change) = event { changes.append((rig.clock.wallNow, change)) }
        }
        try runMonth(rig, openMeteoBias: 3)
        withExtendedLifetime(recorder) {}
        let end = rig.clock.wallNow

        XCTAssertEqual(changes.count, 1, "one move, no flapping: \(changes.map(\.change.reason))")
        let (movedAt, change) = try XCTUnwrap(changes.first)
        XCTAssertEqual(change.provider, "metno")
        XCTAssertEqual(change.previous, "open-meteo")
        let choice = try XCTUnwrap(change.choice)
        XCTAssertEqual(choice.other, "open-meteo")
        XCTAssertEqual(choice.station, "Los Angeles Intl, CA, US")
        XCTAssertEqual(choice.otherError, 3, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(choice.hours, ProviderRanking.minimumPairs)
        XCTAssertLessThanOrEqual(choice.error, 3 - ProviderRanking.marginDegrees)
        XCTAssertEqual(change.reason, Localization.english { choice.text(units: .si) })
        XCTAssertTrue(change.reason.hasPrefix("metno: 24 h temperature error "), change.reason)
        // 72 pairs at +24 h take six days (twelve a day from each), then three decisions a day apart.
        XCTAssertGreaterThan(movedAt, Self.start + 6 * 86_400 + 2 * ProviderRanking.decisionSpacing)
        XCTAssertLessThan(movedAt, Self.start + 12 * 86_400)

        let accuracy = rig.keeper.accuracy(of: rig.location)
        XCTAssertEqual(accuracy.serving, "metno")
        XCTAssertEqual(rig.refresher.chain(for: rig.location), [.metNorway, .openMeteo])
        let served = try XCTUnwrap(rig.refresher.store.served(rig.id, at: end))
        XCTAssertEqual(served.provider, "metno")
        XCTAssertEqual(served.choice?.provider, "metno")
        let line = ForecastPresenter(forecast: served, placeName: "Inglewood", units: .si, now: end).nowView()
        XCTAssertTrue(line.contains("metno: 24 h temperature error "), line)
        let status = try XCTUnwrap(rig.refresher.providerStatuses.first { $0.name == "metno" })
        XCTAssertEqual(status.chosen?.map(\.place), [rig.id.rawValue])
        XCTAssertNil(rig.refresher.providerStatuses.first { $0.name == "open-meteo" }?.chosen)
        // Open-Meteo is still compared, and still judged worse.
        let compared = try XCTUnwrap(accuracy.scores.first { $0.provider == "open-meteo" && $0.leadHours == 24 })
        XCTAssertEqual(try XCTUnwrap(compared.temperatureError), 3, accuracy: 1e-9)

        // The order is kept with the record, and read back when raind starts again.
        rig.keeper.cancelAll()
        let files = AccuracyFiles(stateDirectory: rig.paths.stateDirectory)
        guard case .loaded(let record) = files.load(rig.id, now: end) else {
            return XCTFail("the accuracy file does not read back")
        }
        XCTAssertEqual(record.ranking?.leader, "metno")

        // raind starts again: the place is MET Norway's at once, and says why.
        rig.server.stop()
        let again = try self.rig(countryCode: "MX", userOrder: nil, openMeteoBias: 3, at: end)
        XCTAssertEqual(again.id, rig.id)
        XCTAssertEqual(again.refresher.chain(for: again.location), [.metNorway, .openMeteo])
        XCTAssertEqual(again.refresher.choices[again.id]?.provider, "metno")
        XCTAssertEqual(again.refresher.choices[again.id]?.otherError ?? 0, 3, accuracy: 1e-9)
        XCTAssertEqual(again.refresher.choices[again.id]?.station, "KLAX", "the station as the record keeps it")

        // The user sets their own order and reloads: theirs is kept, and nothing says the scores chose.
        again.refresher.context.configuration.providerOrder = [.openMeteo, .metNorway]
        again.refresher.configurationReloaded()
        XCTAssertEqual(again.refresher.chain(for: again.location), [.openMeteo, .metNorway])
        XCTAssertEqual(again.refresher.choices, [:])
    }

    /// The same month with the user's `Providers=open-meteo metno`: their
    /// order is kept, and the scores are still there to see.
    func testUserOrder_isKept_whateverTheScores() throws {
        let rig = try rig(countryCode: "MX", openMeteoBias: 3)
        var changes: [ProviderChange] = []
        let recorder = EventRecorder(rig.events) { event in
            if case .providerChanged(_, let change) = event { changes.append(change) }
        }
        try runMonth(rig, openMeteoBias: 3)
        withExtendedLifetime(recorder) {}
        XCTAssertEqual(changes, [])
        let accuracy = rig.keeper.accuracy(of: rig.location)
        XCTAssertEqual(accuracy.serving, "open-meteo")
        XCTAssertEqual(rig.refresher.chain(for: rig.location), [.openMeteo, .metNorway])
        XCTAssertNil(rig.refresher.store.served(rig.id, at: rig.clock.wallNow)?.choice)
        let better = try XCTUnwrap(accuracy.scores.first { $0.provider == "metno" && $0.leadHours == 24 })
        XCTAssertLessThan(try XCTUnwrap(better.temperatureError), 2)
        XCTAssertNil(rig.keeper.records[rig.id]?.ranking, "no decisions under the user's order")
    }

    /// `[Accuracy] CorrectTemperature=yes`: after the month, Open-Meteo's
    /// forecast is served 2 °C cooler where its bias is measured (every
    /// hour it was sampled at, its warmth worked out here from the month's
    /// functions), the provider's own beside it and marked in the views;
    /// the record keeps sampling the provider's own. Off (the default), the
    /// same month serves the provider's own.
    func testCorrectTemperature_servesTheBiasedProviderLessItsMeasuredBias_andOffServesItsOwn() throws {
        let rig = try rig(correctTemperature: true)
        try runMonth(rig)
        let end = rig.clock.wallNow
        let served = try XCTUnwrap(rig.refresher.store.served(rig.id, at: end))
        let own = try XCTUnwrap(rig.refresher.store[rig.id]?.forecast)
        let correction = try XCTUnwrap(served.correction, "nothing corrected")
        XCTAssertEqual(correction.station, "Los Angeles Intl, CA, US")
        var corrected = 0
        for (hour, ownHour) in zip(served.hourly, own.hourly) {
            let provider = try XCTUnwrap(ownHour.temperature)
            XCTAssertEqual(provider, Self.openMeteo(hour.time), accuracy: 1e-9)
            guard let value = correction.value(.hour, at: hour.time) else {
                XCTAssertEqual(hour.temperature, provider, "not corrected: the provider's own")
                continue
            }
            corrected += 1
            // Open-Meteo is 2 °C too warm at every hour and lead: it is served as it was observed.
            XCTAssertEqual(try XCTUnwrap(hour.temperature), Self.truth(hour.time), accuracy: 1e-9)
            XCTAssertEqual(value.bias, 2, accuracy: 1e-9)
            XCTAssertEqual(value.provider, provider)
            XCTAssertGreaterThanOrEqual(value.pairs, AccuracyScorer.minimumPairs)
        }
        XCTAssertGreaterThanOrEqual(corrected, 36, "the hours of +6 h and +24 h")
        XCTAssertEqual(served.uncorrected.hourly, own.hourly)
        XCTAssertEqual(served.uncorrected.daily, own.daily)
        // Marked in the views, and on the wire with the provider's own.
        let view = ForecastPresenter(forecast: served, placeName: "Inglewood", units: .si, now: end)
        XCTAssertTrue(view.hourlyView(hours: 3).contains("°*"), view.hourlyView(hours: 3))
        XCTAssertTrue(
            view.hourlyView(hours: 3).contains(
                "* open-meteo: temperatures corrected by its measured bias at Los Angeles Intl, CA, US"))
        let wire = served.json.serialized()
        XCTAssertTrue(wire.contains("\"correction\":{\"station\":\"Los Angeles Intl, CA, US\""), wire)
        // The record keeps the provider's own, so its bias stays measured.
        let score = try XCTUnwrap(
            rig.keeper.accuracy(of: rig.location).scores.first { $0.provider == "open-meteo" && $0.leadHours == 6 })
        XCTAssertEqual(try XCTUnwrap(score.temperatureBias), 2, accuracy: 1e-9)

        // Turned off and reloaded: the provider's own again.
        rig.refresher.context.configuration.correctTemperature = false
        rig.events.emit(.configurationReloaded)
        XCTAssertNil(rig.refresher.store.served(rig.id, at: end)?.correction)
    }

    func testCorrectTemperature_isOffByDefault() throws {
        let rig = try rig()
        try runMonth(rig)
        let served = try XCTUnwrap(rig.refresher.store.served(rig.id, at: rig.clock.wallNow))
        XCTAssertNil(served.correction)
        XCTAssertEqual(served.hourly.first?.temperature, served.hourly.first.map { Self.openMeteo($0.time) })
    }

    /// Finds the place's station (or not) and ends.
    private func findStation(_ rig: Rig) throws {
        rig.watcher.settled = {
            guard rig.watcher.isIdle else { return }
            rig.watcher.settled = {}
            rig.harness.loop.later { rig.harness.finish() }
        }
        rig.harness.loop.later { rig.watcher.timerFired() }
        XCTAssertTrue(try rig.harness.run(timeout: 60), "the station search never ended")
    }

    func testPlaceWithNoStation_saysWhy_andItsOtherProvidersAreNotAsked() throws {
        // San Diego: the box's answer holds Los Angeles, New York and Chicago only.
        let rig = try rig(latitude: 32.72, longitude: -117.16)
        try findStation(rig)
        let accuracy = rig.keeper.accuracy(of: rig.location)
        XCTAssertNil(accuracy.station)
        XCTAssertEqual(accuracy.problem?.hasPrefix("the nearest station, Los Angeles Intl, CA, US, is "), true)
        XCTAssertEqual(accuracy.scores, [])
        rig.keeper.nextComparison[rig.id] = rig.clock.wallNow
        rig.keeper.timerFired()
        XCTAssertNil(rig.keeper.comparing[rig.id], "nothing to judge against: no comparison")
        XCTAssertEqual(try rig.server.countTargets("/weatherapi/"), 0)
    }

    func testDamagedAccuracyFile_isRefusedKeptAsideAndSaidWhy_andThePlaceStartsAnew() throws {
        let paths = DaemonPaths.userInstance(under: directory.path)
        let files = AccuracyFiles(stateDirectory: paths.stateDirectory)
        var record = AccuracyRecord()
        record.record(
            Observation(source: "metar", station: Self.klax, time: Self.start, temperature: 20), now: Self.start)
        record.observed[0].temperature = 900
        try FileManager.default.createDirectory(atPath: files.directory, withIntermediateDirectories: true)
        let rigForID = try rig()
        let file = try XCTUnwrap(files.path(for: rigForID.id))
        try Data(record.jsonBytes).write(to: URL(fileURLWithPath: file))
        rigForID.server.stop()
        server = nil

        let rig = try rig()
        let accuracy = rig.keeper.accuracy(of: rig.location)
        let problem = try XCTUnwrap(accuracy.fileProblem)
        XCTAssertTrue(problem.contains("observed[0].temperature: 900.0 °C is no temperature"), problem)
        XCTAssertTrue(problem.contains("\(file).corrupt-20260729T140000Z"), problem)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(file).corrupt-20260729T140000Z"), "kept aside")
        XCTAssertEqual(rig.keeper.records[rig.id], AccuracyRecord())

        // Not JSON at all: refused the same way.
        try Data("{\"version\":1,".utf8).write(to: URL(fileURLWithPath: file))
        guard case .refused(let reason, _) = files.load(rig.id, now: Self.start + 1) else {
            return XCTFail("a cut-off file was read")
        }
        XCTAssertTrue(reason.hasPrefix("accuracy"), reason)
    }
}
