import Foundation
import RainCore
import RainDaemonCore

@testable import RainDaemon

/// What an alert test runs on, as `Daemon.init` makes it: a user instance's
/// paths in a directory of its own, the official alerts asked of the
/// fixture server (`[Alerts] BaseURL=`), the tests' clock, the forecast
/// store, the refresher keeping the ledger (no forecast is asked for unless
/// a test asks) and the alert watcher reading English. Nothing is restored:
/// a test keeps its forecasts and lookups first, then restores.
final class AlertParts {
    let directory: URL
    let clock: FakeClock
    let context: DaemonContext
    let store: ForecastStore
    /// What the refresher and the watcher tell.
    let events = DaemonEvents()
    let refresher: Refresher
    let watcher: AlertWatcher

    /// In `directory` when given (a restart's second parts, the same files), else a new one.
    init(
        harness: ClientHarness, server: FixtureServer, places: LocationList, start: Double, name: String,
        directory given: URL? = nil, configure: (inout Configuration) -> Void = { _ in }
    ) throws {
        directory =
            given
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.officialAlerts = true
        configuration.alertsBaseURL = server.url("")
        configure(&configuration)
        let paths = DaemonPaths.userInstance(under: directory.path)
        let logger = Logger(subsystem: "\(name)-test", threshold: .error)
        clock = FakeClock(wall: start)
        context = DaemonContext(
            loop: harness.loop, configuration: configuration, paths: paths, logger: logger, clock: clock)
        (store, refresher) = try Refresher.withStore(
            context: context, http: harness.http, events: events, places: places)
        watcher = try AlertWatcher(
            context: context, http: harness.http, store: store, events: events, books: refresher, languages: ["en"])
    }

    /// Removes the directory.
    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Paris (selected; MeteoAlarm), Portland, Oregon (the NWS) and Berlin
    /// (the DWD through Bright Sky), added to `places`.
    @discardableResult
    static func threeCities(_ places: inout LocationList) -> [Location] {
        [
            ("Paris", "FR", 48.8534, 2.3488, "Europe/Paris", 2_988_507),
            ("Portland", "US", 45.5234, -122.6762, "America/Los_Angeles", 5_746_545),
            ("Berlin", "DE", 52.5244, 13.4105, "Europe/Berlin", 2_950_159),
        ].map { name, country, latitude, longitude, zone, id in
            places.add(
                PlaceCandidate(
                    name: name, countryCode: country, latitude: latitude, longitude: longitude, timeZone: zone,
                    source: .geonames(id: id))
            ).location
        }
    }

    /// Tillamook, Oregon, on the coast (the NWS's zone ORZ004), added to `places`.
    @discardableResult
    static func tillamook(_ places: inout LocationList) -> Location {
        places.add(
            PlaceCandidate(
                name: "Tillamook", region: "Oregon", country: "United States", countryCode: "US", latitude: 45.4562,
                longitude: -123.844, timeZone: "America/Los_Angeles", source: .geonames(id: 5_756_758))
        ).location
    }

    /// A fixture server whose NWS, Bright Sky and MeteoAlarm answers hold no
    /// alert, with `more` files and routes beside them.
    static func quietServices(
        files more: [String: [UInt8]] = [:], routes moreRoutes: [String: String] = [:]
    ) throws -> FixtureServer {
        let atom = #"<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>"#
        let files: [String: [UInt8]] = [
            "nws.json": AlertLifeTests.collection([]), "alerts.json": Array(#"{"alerts": []}"#.utf8),
            "france.xml": Array(atom.utf8),
        ]
        let routes = ["/alerts/active": "nws.json", "/alerts": "alerts.json", "/feeds/": "france.xml"]
        return try FixtureServer(
            files: files.merging(more) { $1 }, routes: routes.merging(moreRoutes) { $1 })
    }

    /// Keeps for each place two days of hours from `start`, cloudy and calm
    /// but where `icon` says otherwise (hour index → icon), as if fetched at `start`.
    func keepForecasts(for places: [Location], from start: Double, icon: (Int) -> String = { _ in "cloudy" }) {
        for place in places {
            let hours = (0..<48).map {
                HourlyForecast(
                    time: start + Double($0) * 3600, icon: icon($0), temperature: 8, windSpeed: 3, precipIntensity: 0)
            }
            store.store(
                CachedForecast(
                    forecast: Forecast(
                        provider: "open-meteo", fetchedAt: start, timeZone: place.timeZone, hourly: hours),
                    latitude: place.latitude, longitude: place.longitude, etag: nil, lastModified: nil),
                for: place.id)
        }
    }
}
