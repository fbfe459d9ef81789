import RainCore

/// Settings and status.
extension WeatherService {
    func getStatus(_ parameters: NoParameters, _ responder: Responder<GetStatusCall.Reply>) throws(MethodError) {
        responder.request.reply { writeStatusReply(into: &$0) }
    }

    /// `joining`: a subscriber about to be added, counted in its own snapshot.
    /// `now`: the wall-clock time as the refresher reads it (`Refresher.now`).
    func status(joining: Int = 0, now: Double? = nil) -> WeatherStatus {
        let now = now ?? refresher.now
        return WeatherStatus(
            version: RaindVersion.string,
            uptimeSeconds: statusUptime,
            provider: context.configuration.providerSetting,
            online: refresher.isOnline,
            units: state.settings.units,
            refreshMinutes: state.settings.refreshMinutes ?? context.configuration.intervalMinutes,
            locations: state.places.locations.count,
            selected: state.places.selected,
            lastRefresh: refresher.lastSuccess,
            lastError: refresher.lastFailure,
            nextRefresh: refresher.nextWake,
            usage: refresher.budgetUsage(now: now),
            dailyBudget: refresher.scheduler.policy.dailyBudget,
            monthlyBudget: refresher.scheduler.policy.monthlyBudget,
            subscribers: publisher.count + joining,
            nowcast: refresher.nowcastStatus(now: now), providers: refresher.providerStatuses(now: now),
            alertSources: alerts?.sourceStatuses(now: now),
            backgroundRefreshMinutes: Int(refresher.scheduler.backgroundInterval / 60),
            backgroundStretched: refresher.scheduler.backgroundIntervalStretched,
            staleAfterMinutes: Int((refresher.scheduler.policy.staleAfter / 60).rounded()),
            totalAddsUp: refresher.totalAddsUp,
            placeAlertServices: state.places.locations.map { place in
                // As GetForecast serves it: with the forecast, so none before the first one.
                let store = refresher.store
                return PlaceAlertService(
                    id: place.id, service: store[place.id] == nil ? nil : store.officialAlerts(of: place.id)?.service)
            },
            observationSources: observations?.sourceStatuses(now: now),
            placeObservations: observations.map { watcher in
                state.places.locations.compactMap { watcher.observed(at: $0.id) }
            })
    }

    func listLocations(_ parameters: NoParameters, _ responder: Responder<ListLocationsCall.Reply>) throws(MethodError)
    {
        responder.reply(.init(locations: state.places.locations, selected: state.places.selectedID))
    }

    func setSettings(
        _ parameters: SetSettingsCall.Parameters, _ responder: Responder<SetSettingsCall.Reply>
    ) throws(MethodError) {
        var next = state
        if let unitsText = parameters.units {
            guard let units = UnitSystem(userInput: unitsText) else {
                throw MethodError.invalidParameter("units", "'\(unitsText)' is not a unit system; use us, si, ca or uk")
            }
            next.settings.units = units
        }
        if let minutes = parameters.refreshMinutes {
            let range = Settings.refreshMinutesRange
            guard range.contains(minutes) else {
                throw MethodError.invalidParameter(
                    "refreshMinutes", "\(minutes) is outside \(range.lowerBound)...\(range.upperBound) minutes")
            }
            next.settings.refreshMinutes = minutes
        }
        let events: [Event] = next.settings != state.settings ? [.settingsChanged(next.settings)] : []
        try commit(next, events: events)
        responder.reply(.init(settings: state.settings))
    }
}
