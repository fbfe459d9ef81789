import RainCore
import RainDaemonCore

/// Every saved place's forecast: in memory, in the cache files
/// (`ForecastCache`), and as served to readers (with their alerts, air,
/// the scores' choice and, when asked for, the temperatures corrected by
/// the measured bias; the provider's own are what is kept). Readers within one minute
/// share one derived nowcast; a version names what is served, so the
/// Subscribe snapshot can tell it is unchanged without comparing forecasts.
/// All on the loop.
public final class ForecastStore {
    /// The files behind the forecasts (and the refresher's budget counter).
    let cache: ForecastCache

    public private(set) var forecasts: [LocationID: CachedForecast] = [:] {
        didSet {
            revision &+= 1
            served.removeAll(keepingCapacity: true)
        }
    }
    /// Changes with every change to `forecasts`; with the minute, it names what `served(_:at:)` gives.
    private var revision = 0
    /// What `served(_:at:)` gave, by place, for the minute it was derived in.
    private var served: [LocationID: (minute: Double, forecast: Forecast)] = [:]

    /// The official alert service's messages for each place (`AlertWatcher`),
    /// served with the place's forecast.
    private var official: [LocationID: OfficialAlerts] = [:] {
        didSet {
            revision &+= 1
            served.removeAll(keepingCapacity: true)
        }
    }

    /// Each place's air quality (`AirWatcher`), served with its forecast.
    private var air: [LocationID: AirQuality] = [:] {
        didSet {
            revision &+= 1
            served.removeAll(keepingCapacity: true)
        }
    }

    /// Why the scores put each place's serving provider first (`AccuracyKeeper`), served with its forecast.
    private var choices: [LocationID: ProviderChoice] = [:] {
        didSet {
            guard oldValue != choices else { return }
            revision &+= 1
            served.removeAll(keepingCapacity: true)
        }
    }

    /// Each place's measured temperature bias by provider (`AccuracyKeeper`,
    /// `[Accuracy] CorrectTemperature=yes`), applied to its forecast as served.
    private var biases: [LocationID: [String: TemperatureBias]] = [:] {
        didSet {
            guard oldValue != biases else { return }
            revision &+= 1
            served.removeAll(keepingCapacity: true)
        }
    }

    init(cache: ForecastCache) { self.cache = cache }

    /// Keeps the place's measured biases by provider (empty: correct nothing).
    func setBiases(_ value: [String: TemperatureBias], for id: LocationID) {
        biases[id] = value.isEmpty ? nil : value
    }

    /// Keeps why the scores put the place's provider first (nil: they did not).
    func setChoice(_ value: ProviderChoice?, for id: LocationID) {
        choices[id] = value
    }

    /// Every place's choice by the scores, by place.
    var allChoices: [LocationID: ProviderChoice] { choices }

    /// Keeps the place's air quality (nil: forget it).
    func setAir(_ value: AirQuality?, for id: LocationID) {
        air[id] = value
    }

    /// The place's air quality, as last kept.
    func air(of id: LocationID) -> AirQuality? { air[id] }

    /// Keeps what the place's official alert service last said (nil: forget
    /// it), in memory, and in the cache when its messages changed.
    func setOfficialAlerts(_ alerts: OfficialAlerts?, for id: LocationID) {
        let previous = official[id]
        official[id] = alerts
        if alerts?.service.source == nil {
            // Nothing to keep: a file left from before goes.
            if previous == nil || previous?.service.source != nil { cache.storeOfficialAlerts(nil, for: id) }
        } else if (alerts?.messages ?? []) != (previous?.messages ?? []) {
            cache.storeOfficialAlerts(alerts, for: id)
        }
    }

    /// Writes what the place's service said with when it last answered,
    /// when the file holds an older answer (at shutdown: so a restart asks
    /// the service when its interval says, not at once).
    func keepOfficialAlertsChecked(_ id: LocationID) {
        guard let alerts = official[id], alerts.service.source != nil, alerts.service.checkedAt != nil else { return }
        if cache.loadOfficialAlerts(of: id)?.service.checkedAt != alerts.service.checkedAt {
            cache.storeOfficialAlerts(alerts, for: id)
        }
    }

    /// Loads what the place's official alert service said before a restart,
    /// when `source` is still the place's service; nil otherwise.
    func restoreOfficialAlerts(of id: LocationID, source: String) -> OfficialAlerts? {
        guard let saved = cache.loadOfficialAlerts(of: id) else { return nil }
        guard saved.service.source == source else {
            cache.storeOfficialAlerts(nil, for: id)
            return nil
        }
        official[id] = saved
        return saved
    }

    /// What the place's official alert service last said.
    func officialAlerts(of id: LocationID) -> OfficialAlerts? { official[id] }

    subscript(id: LocationID) -> CachedForecast? { forecasts[id] }

    /// What providers' lookups found, by place and provider name; written
    /// with the place's forecast.
    private var lookups: [LocationID: [String: ProviderLookup]] = [:]

    /// Keeps `cached` as the place's forecast, in memory and on disk, with
    /// the place's lookups.
    func store(_ cached: CachedForecast, for id: LocationID) {
        var kept = cached
        kept.lookups = lookups[id]
        forecasts[id] = kept
        cache.store(kept, for: id)
    }

    /// Loads the place's cached file, when there is a usable one for its position.
    func restore(_ location: Location) -> CachedForecast? {
        guard let cached = cache.load(location) else { return nil }
        forecasts[location.id] = cached
        lookups[location.id] = cached.lookups
        return cached
    }

    /// Forgets the forecast of a place no longer saved, and its file.
    func remove(_ id: LocationID) {
        forecasts[id] = nil
        lookups[id] = nil
        official[id] = nil
        air[id] = nil
        choices[id] = nil
        biases[id] = nil
        cache.remove(id)
    }

    /// What `provider`'s lookup found for the place, if it has not expired by `now`.
    func lookup(of id: LocationID, by provider: ProviderName, now: Double) -> ProviderLookup? {
        guard let lookup = lookups[id]?[provider.rawValue], lookup.expiresAt > now else { return nil }
        return lookup
    }

    /// Every provider's lookup for the place that has not expired by `now`
    /// and is well formed, by provider name (so in one order each time).
    func lookups(of id: LocationID, now: Double) -> [ProviderLookup] {
        (lookups[id] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
            .filter { $0.expiresAt > now && $0.validationProblem == nil }
    }

    /// Keeps what `provider`'s lookup found for the place; it is written
    /// with the next forecast (the one it is made for follows at once).
    func keep(_ lookup: ProviderLookup, of id: LocationID, by provider: ProviderName) {
        lookups[id, default: [:]][provider.rawValue] = lookup
    }

    /// Forgets what `provider`'s lookup found for the place.
    func dropLookup(of id: LocationID, by provider: ProviderName) {
        lookups[id]?[provider.rawValue] = nil
    }

    /// Forgets the place's lookups (it moved: they are for the old position).
    func dropLookups(of id: LocationID) {
        lookups[id] = nil
    }

    /// The ids of the places with a forecast.
    var ids: Dictionary<LocationID, CachedForecast>.Keys { forecasts.keys }

    /// Serves the place's data until new data arrives, but never offers it as
    /// a validator: a 304 would confirm the old town's forecast for a new position.
    func dropValidators(of id: LocationID) {
        forecasts[id]?.etag = nil
        forecasts[id]?.lastModified = nil
    }

    /// Moves the fetch and expiry times in memory by a jump of the wall
    /// clock, so ages stay what really passed. Files catch up at the next write.
    func clockJumped(by jump: Double) {
        for (id, var cached) in forecasts {
            cached.forecast.fetchedAt += jump
            cached.forecast.expiresAt = cached.forecast.expiresAt.map { $0 + jump }
            forecasts[id] = cached
        }
    }

    /// The place's forecast with its nowcast as of the minute containing `time`.
    func served(_ id: LocationID, at time: Double) -> Forecast? {
        guard let cached = forecasts[id] else { return nil }
        let minute = Self.minute(of: time)
        if let reuse = served[id], reuse.minute == minute { return reuse.forecast }
        var forecast = Self.withAlerts(Self.withNowcast(cached.forecast, at: time), official[id], at: time)
        forecast.air = air[id]
        if let choice = choices[id], choice.provider == forecast.provider { forecast.choice = choice }
        if let bias = biases[id]?[forecast.provider] { forecast = bias.correct(forecast) }
        served[id] = (minute, forecast)
        return forecast
    }

    /// `forecast` with the alerts in effect or upcoming at `time`: the
    /// provider's own and the official service's (plain text), as one list
    /// (`AlertLifecycle.current`: updates replace, cancellations withdraw,
    /// ended alerts go, the same warning twice is one), and the service.
    static func withAlerts(_ forecast: Forecast, _ official: OfficialAlerts?, at time: Double) -> Forecast {
        var result = forecast
        // The provider's own alerts keep source nil: they come with its forecast and its credit.
        result.alerts = AlertLifecycle.current(forecast.alerts + (official?.messages ?? []), now: time)
        result.alertService = official?.service
        return result
    }

    /// Names what `served(id, at: time)` gives: equal versions, equal forecasts.
    func version(of id: LocationID, at time: Double) -> ForecastVersion? {
        forecasts[id] == nil ? nil : ForecastVersion(revision: revision, minute: Self.minute(of: time))
    }

    /// `forecast` with its nowcast derived as of the minute containing
    /// `time`: its texts speak in minutes, and a forecast that stays the
    /// same within a minute keeps the Subscribe snapshot's encoding reusable.
    static func withNowcast(_ forecast: Forecast, at time: Double) -> Forecast {
        var result = forecast
        result.nowcast = forecast.nowcast?.at(minute(of: time))
        return result
    }

    static func minute(of time: Double) -> Double { (time / 60).rounded(.down) * 60 }
}

/// What `ForecastStore.served(_:at:)` gives: a revision of the forecasts and
/// the minute the nowcast was derived for.
struct ForecastVersion: Equatable {
    let revision: Int
    let minute: Double
}

/// What a place's official alert service said at its last answer: every
/// message it holds for the place (alerts, updates, cancellations, as
/// `AlertLifecycle` reads them) and the service with how the last poll went.
struct OfficialAlerts: Equatable, Codable {
    var messages: [WeatherAlert]
    var service: AlertService
}
