import RainCore

/// Settings and status.
extension WeatherService {
    func getStatus(_ parameters: NoParameters, _ responder: Responder<GetStatusCall.Reply>) throws(MethodError) {
        let status = status()
        let cache = StatusEncodingCache.current(
            &statusReplyCache, for: status, make: StatusEncodingCache.getStatusReply)
        responder.request.reply { cache.write(status, into: &$0) }
    }

    /// `joining`: a subscriber about to be added, counted in its own snapshot.
    func status(joining: Int = 0) -> WeatherStatus {
        WeatherStatus(
            version: RaindVersion.string,
            uptimeSeconds: context.uptime,
            provider: context.configuration.providerSetting,
            online: refresher.isOnline,
            units: state.settings.units,
            refreshMinutes: state.settings.refreshMinutes ?? context.configuration.intervalMinutes,
            locations: state.places.locations.count,
            selected: state.places.selected,
            lastRefresh: refresher.lastSuccess,
            lastError: refresher.lastFailure,
            nextRefresh: refresher.nextWake,
            usage: refresher.budgetUsage,
            dailyBudget: refresher.scheduler.policy.dailyBudget,
            monthlyBudget: refresher.scheduler.policy.monthlyBudget,
            subscribers: publisher.count + joining,
            nowcast: refresher.nowcastStatus, providers: refresher.providerStatuses)
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
