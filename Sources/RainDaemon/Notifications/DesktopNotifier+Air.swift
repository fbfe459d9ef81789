import RainCore
import RainDaemonCore
import RainSystem

/// Air quality and UV notifications: each place's air as served is decided
/// anew when it changes (`AirNotices`), and what is shown follows it.
extension DesktopNotifier {
    /// A place's air (or the rest of its data) changed: its air and UV
    /// episodes are decided anew (`AirNotices`).
    public func airChanged(at place: Location, air: AirQuality?) {
        reportedAir[place.id] = (place, air)
        decideAir(at: place)
    }

    /// A place's air arrived with no forecast to carry it (`airKept`), or
    /// was read from the cache at start: decided at once, not at the next
    /// `WeatherUpdated`.
    func airKept(_ id: LocationID, air: AirQuality?) {
        if let place = places[id] { airChanged(at: place, air: air) }
    }

    /// Decides every place's air anew: after a reload (the thresholds may
    /// have changed) and when the selection moves.
    public func reconsiderAir() {
        for id in reportedAir.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let place = places[id] ?? reportedAir[id]?.place { decideAir(at: place) }
        }
    }

    func decideAir(at place: Location) {
        let settings = configuration()
        let time = now()
        var air = reportedAir[place.id]?.air
        // Data older than the views show it is no reading of now; another
        // place than the selected one notifies only with AirQualityPlaces=all.
        if let fetched = air?.fetchedAt, time - fetched >= ForecastPresenter.airShownFor { air = nil }
        if !settings.notifyAirEveryPlace, place.id != places.selectedID { air = nil }
        let episodes = record.air ?? []
        let decision = AirNotices.decide(
            place: place.id, placeName: place.name, air: air, episodes: episodes,
            airLevel: settings.notifyAirQualityLevel, uv: settings.notifyUVCategory)
        var next = record
        next.air = decision.episodes
        guard availability == .usable else {
            // Not shown, so not remembered as shown.
            next.air = decision.episodes.filter { $0.place != place.id || $0.notification != 0 }
            update(next)
            return
        }
        update(next)
        // In the session's language when sent (the log lines stay raind's):
        // the same pure decision, worded in that locale.
        let words = { (position: Int, notice: AirNotices.Notice) -> DesktopNotification in
            let worded = AirNotices.decide(
                place: place.id, placeName: place.name, air: air, episodes: episodes,
                airLevel: settings.notifyAirQualityLevel, uv: settings.notifyUVCategory
            ).actions
            var shown = notice
            if position < worded.count, case .show(let spoken) = worded[position] { shown = spoken }
            return .air(shown, credit: air.map(ForecastPresenter.creditLine))
        }
        for (position, action) in decision.actions.enumerated() {
            switch action {
            case .close(_, let kind, let id):
                logger.info("closing the \(kind.rawValue) notification of \(place.id): the episode ended")
                if id != 0 { send(.close(id)) }
            case .show(let notice):
                logger.info("notifying \(notice.title)" + (notice.replaces != 0 ? " (in place of the one shown)" : ""))
                send(.notify({ words(position, notice) }, .air(place: place.id, kind: notice.kind)))
            }
        }
    }
}
