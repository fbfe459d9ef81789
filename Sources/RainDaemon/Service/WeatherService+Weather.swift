import RainCore
import RainDaemonCore

/// Weather: refresh now, read the cached forecast.
extension WeatherService {
    func refresh(_ parameters: RefreshCall.Parameters, _ responder: Responder<RefreshCall.Reply>) throws(MethodError) {
        let all = parameters.all ?? false
        if all, parameters.id != nil {
            throw MethodError.invalidParameter("all", "give either id or all=true, not both")
        }
        let ids = all ? state.places.locations.map(\.id) : [try resolve(parameters.id, selectedByDefault: true).id]
        guard !ids.isEmpty else {
            responder.reply(.init(updated: [], failed: []))
            return
        }
        refresher.refresh(ids) { [refresher] results in
            let updated = ids.filter { results[$0].map { $0 == nil } ?? false }
            let failed = ids.filter { !updated.contains($0) }
            if updated.isEmpty, let first = failed.first, let failure = results[first] ?? nil {
                responder.fail(
                    failure.error == .locationNotFound
                        ? MethodError.locationNotFound(first.rawValue)
                        : MethodError(failure, budget: refresher.budgetInQuestion))
                return
            }
            responder.reply(.init(updated: updated, failed: failed))
        }
    }

    func getForecast(
        _ parameters: GetForecastCall.Parameters, _ responder: Responder<GetForecastCall.Reply>
    ) throws(MethodError) {
        let location = try resolve(parameters.id, selectedByDefault: true)
        // Asked for by name: looked at, so refetched at once when the machine resumes.
        if parameters.id != nil { refresher.lookedAt(location.id) }
        let cached = refresher.forecast(for: location.id)
        responder.reply(
            .init(
                location: location, forecast: cached?.forecast, ageSeconds: cached?.age, stale: cached?.stale ?? true,
                observed: observations?.observed(at: location.id)))
    }
}
