import RainCore

/// What the service reads: a place's forecast as served now, and its version.
extension Refresher {
    /// A place's cached forecast (its nowcast as of now), its age in seconds and whether it is stale.
    func forecast(for id: LocationID) -> (forecast: Forecast, age: Double, stale: Bool)? {
        let time = now  // first: reading the clock may move the forecasts' times
        guard let cached = store[id], let forecast = store.served(id, at: time) else { return nil }
        let age = max(0, time - cached.forecast.fetchedAt)
        // Data a proxy had kept (its Age) is stale by its age, however recently it
        // arrived; data whose every time has passed, by its own times.
        return (
            forecast, age,
            scheduler.isStale(id, now: time) || age >= scheduler.policy.staleAfter || forecast.outdated(now: time)
        )
    }

    /// Names what `forecast(for: id)` serves now: equal versions, equal forecasts.
    func forecastVersion(for id: LocationID) -> ForecastVersion? {
        let time = now  // first: reading the clock may move the forecasts' times
        return store.version(of: id, at: time)
    }
}
