import RainCore

/// What a subscriber knows from the snapshot and the events since: enough
/// to show the selected place's weather in the chosen units, and whether
/// what it shows is current.
struct SubscriberView {
    var iconStyle: IconStyle
    var units: UnitSystem = .si
    var locations: [LocationID: Location] = [:]
    var selected: LocationID?
    var forecasts: [LocationID: Forecast] = [:]
    /// Whether raind can reach the provider.
    var online = true
    /// Why raind cannot be reached; nil while connected.
    var disconnection: String?
    /// Each place's last refresh failure, until a later success.
    var failures: [LocationID: String] = [:]
    /// The selected place's last refresh failure, until a later success.
    var lastFailure: String? { selected.flatMap { failures[$0] } }
    var refreshMinutes = 30
    /// raind's `StaleAfterMinutes=` (its Status); 15, its default, from a raind that does not say.
    var staleAfterMinutes = 15

    init(iconStyle: IconStyle) {
        self.iconStyle = iconStyle
    }

    mutating func disconnected(because reason: String) {
        disconnection = reason
    }

    /// `event`: the reply's event, nil for the snapshot.
    mutating func apply(_ reply: SubscribeReply, event: Event?) {
        disconnection = nil
        guard let event else {
            // A snapshot replaces what an earlier connection left.
            if let status = reply.status {
                units = status.units
                online = status.online
                refreshMinutes = status.refreshMinutes
                staleAfterMinutes = status.staleAfterMinutes ?? 15
            }
            locations = [:]
            for location in reply.locations ?? [] { locations[location.id] = location }
            selected = reply.selected
            failures = [:]
            // The selected place's last failure, until a later success: a bar
            // started after a failure shows what one running before it shows.
            if let selected, let failure = reply.failure ?? (reply.forecast == nil ? reply.status?.lastError : nil) {
                failures[selected] = failure.localizedMessage
            }
            forecasts = [:]
            if let selected, let forecast = reply.forecast { forecasts[selected] = forecast }
            return
        }
        switch event {
        case .locationAdded(let location):
            locations[location.id] = location
        case .locationRemoved(let location):
            locations[location.id] = nil
            forecasts[location.id] = nil
            failures[location.id] = nil
        case .locationChanged(let location):
            locations[location.id] = location
        case .locationSelected(let location):
            locations[location.id] = location
            selected = location.id
            if let forecast = reply.forecast { forecasts[location.id] = forecast }
        case .settingsChanged(let settings):
            units = settings.units
            // The status sent with it: the interval and StaleAfterMinutes= in force after the change or a reload.
            if let status = reply.status {
                refreshMinutes = status.refreshMinutes
                staleAfterMinutes = status.staleAfterMinutes ?? staleAfterMinutes
            } else if let minutes = settings.refreshMinutes {
                refreshMinutes = minutes
            }
        case .weatherUpdated(let id, let forecast):
            forecasts[id] = forecast
            failures[id] = nil
        case .reachabilityChanged(let isOnline):
            online = isOnline
        case .refreshFailed(let id, let failure):
            failures[id] = failure.localizedMessage
        case .nowcastChanged(let id, let nowcast, _):
            forecasts[id]?.nowcast = nowcast
        case .alertsChanged(let id, let alerts):
            // The bar's alert fields and class follow the alerts between forecasts.
            forecasts[id]?.alerts = alerts
        case .refreshStarted, .providerChanged:
            break
        }
    }

    func presenter(for id: LocationID) -> ForecastPresenter? {
        guard let forecast = forecasts[id] else { return nil }
        let name = locations[id]?.name ?? id.rawValue
        return ForecastPresenter(
            forecast: forecast, placeName: name, units: units, now: Output.now(), isStale: isStale(forecast),
            zone: zone(of: forecast, at: id), coordinates: coordinates(of: id))
    }

    /// The rules of the forecast's zone, else of the place's.
    func zone(of forecast: Forecast, at id: LocationID) -> TimeZoneRules? {
        ZoneInfo.system.rules(named: forecast.timeZone.isEmpty ? locations[id]?.timeZone ?? "" : forecast.timeZone)
    }

    /// The saved place's coordinates, for the moon and the day's length.
    func coordinates(of id: LocationID) -> PlaceCoordinates? {
        locations[id].flatMap { PlaceCoordinates(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// raind's one rule (GetForecast's `stale`, `raindctl now`): older than
    /// `StaleAfterMinutes=`, or outdated, every time it holds past, however
    /// new it is.
    func isStale(_ forecast: Forecast) -> Bool {
        let now = Output.now()
        return now - forecast.fetchedAt >= Double(staleAfterMinutes * 60) || forecast.outdated(now: now)
    }

    var values: BarValues {
        let forecast = selected.flatMap { forecasts[$0] }
        let name = selected.map { locations[$0]?.name ?? $0.rawValue } ?? tr("no place")
        return BarValues(
            placeName: name, forecast: forecast, units: units, now: Output.now(), iconStyle: iconStyle,
            zone: selected.flatMap { id in forecast.flatMap { zone(of: $0, at: id) } },
            coordinates: selected.flatMap { coordinates(of: $0) })
    }

    /// The states a bar shows, each a fact of its own: `stale` (the data
    /// shown is old), `error` (the last refresh failed), `offline` (no
    /// network, or raind not running); `ok` when none holds. Stale first, so
    /// old data stays dimmed whatever else holds.
    var states: [String] {
        var states: [String] = []
        if let forecast = selected.flatMap({ forecasts[$0] }), isStale(forecast) { states.append("stale") }
        if lastFailure != nil { states.append("error") }
        if disconnection != nil || !online { states.append("offline") }
        return states.isEmpty ? ["ok"] : states
    }

    /// The first of `states`, for waybar's `alt`.
    var state: String { states[0] }

    /// The selected place's weather in one line, for status bars.
    func barText() -> String {
        guard disconnection == nil || !forecasts.isEmpty else { return tr("raind not running") }
        guard let selected else { return tr("no place (raindctl add PLACE)") }
        guard let presenter = presenter(for: selected) else {
            let name = locations[selected]?.name ?? selected.rawValue
            return lastFailure != nil ? tr("{place}: no weather yet (refresh failed)", ["place": name]) : name + " …"
        }
        var line = presenter.statusLine()
        if disconnection != nil {
            line += " " + tr("(raind not running)")
        } else if !online {
            line += " " + tr("(offline)")
        }
        return line
    }

    /// One line from a person's template; a marker follows when it is not current.
    func line(_ template: BarTemplate) -> String {
        if disconnection != nil, forecasts.isEmpty { return tr("raind not running") }
        if selected == nil { return tr("no place (raindctl add PLACE)") }
        var line = template.render(values)
        if lastFailure != nil, selected.flatMap({ forecasts[$0] }) == nil { return line + " " + tr("(refresh failed)") }
        if states.contains("stale") { line += " " + tr("(stale)") }
        if states.contains("offline") {
            line += " " + (disconnection != nil ? tr("(raind not running)") : tr("(offline)"))
        }
        return line
    }

    /// waybar's custom module: text, tooltip (the most severe alert in
    /// effect first, a failure, then `tooltipView`), class (states, condition, and
    /// with an alert in effect `alert` and its highest severity,
    /// `alert-severe`), alt (the condition) and percentage (the chance of
    /// rain). Text and tooltip are Pango markup.
    func waybarJSON(text template: BarTemplate?) -> JSON {
        let text = template.map(line) ?? barText()
        var tooltip: [String] = []
        let values = self.values
        if let alert = values.alert {
            tooltip.append("⚠ " + (alert.title.isEmpty ? alert.event ?? "" : alert.title).strippingControlCharacters())
        }
        if let disconnection {
            tooltip.append(ShortSentence.of(disconnection))
        } else if let lastFailure {
            tooltip.append(tr("Last refresh failed: {reason}", ["reason": ShortSentence.of(lastFailure)]))
        } else if !online {
            tooltip.append(tr("No network: showing cached data"))
        }
        if let selected, let presenter = presenter(for: selected) {
            tooltip.append(presenter.tooltipView())
        }
        var classes = states
        if let condition = values.condition { classes.append(condition) }
        if let alertClass = values.alertClass { classes += ["alert", alertClass] }
        if let airClass = values.airClass { classes.append(airClass) }
        var object = JSONObject()
        object["text"] = .string(text.escapingMarkup(quotes: true))
        object["tooltip"] = .string(tooltip.joined(separator: "\n\n").escapingMarkup(quotes: true))
        object["class"] = .array(classes.map(JSON.string))
        object["alt"] = .string(values.condition ?? state)
        if let chance = values.conditions?.precipProbability, chance.isFinite {
            object["percentage"] = .int(Int((min(max(chance, 0), 1) * 100).rounded()))
        }
        return .object(object)
    }

    /// The `people` format's line: the event's name as the protocol spells
    /// it (what `--events` takes and scripts match), then what happened in
    /// the reader's language.
    func describe(_ reply: SubscribeReply, event: Event?) -> String {
        reply.event + " " + detail(of: event, reply: reply)
    }

    private func detail(of event: Event?, reply: SubscribeReply) -> String {
        guard let event else {
            let count = reply.locations?.count ?? 0
            let values: KeyValuePairs<String, String> = ["selected": selected?.rawValue ?? tr("none")]
            var text =
                reply.status?.online == true
                ? trn(
                    "{count} place, selected {selected}, online", "{count} places, selected {selected}, online", count,
                    values)
                : trn(
                    "{count} place, selected {selected}, offline", "{count} places, selected {selected}, offline",
                    count,
                    values)
            if let selected = selected, let presenter = presenter(for: selected) {
                text = tr("{snapshot}: {weather}", ["snapshot": text, "weather": presenter.statusLine()])
            }
            return text
        }
        switch event {
        case .locationAdded(let location), .locationRemoved(let location), .locationSelected(let location),
            .locationChanged(let location):
            let values: KeyValuePairs<String, String> = [
                "id": location.id.rawValue, "name": location.localizedDisplayName,
            ]
            return location.isFollowing ? tr("{id} {name} (follows you)", values) : tr("{id} {name}", values)
        case .settingsChanged(let settings):
            let units = settings.units.rawValue
            guard let minutes = settings.refreshMinutes else { return tr("units {units}", ["units": units]) }
            return tr(
                "units {units}, refresh every {interval}",
                ["units": units, "interval": trn("{count} min", "{count} min", minutes)])
        case .reachabilityChanged(let online):
            return online ? tr("online") : tr("offline")
        case .refreshStarted(let ids):
            return ids.map(\.rawValue).joined(separator: " ")
        case .refreshFailed(let id, let failure):
            return tr("{id}: {problem}", ["id": id.rawValue, "problem": failure.localizedMessage])
        case .providerChanged(let id, let change):
            return tr(
                "{id}: {provider} ({reason})",
                ["id": id.rawValue, "provider": change.provider, "reason": change.localizedReason])
        case .alertsChanged(let id, let alerts):
            guard !alerts.isEmpty else { return tr("{id}: no alerts", ["id": id.rawValue]) }
            return tr("{id}: {alerts}", ["id": id.rawValue, "alerts": alerts.map(\.title).joined(separator: "; ")])
        case .weatherUpdated(let id, _):
            return presenter(for: id)?.statusLine() ?? id.rawValue
        case .nowcastChanged(let id, let nowcast, let change):
            let summary = nowcast?.at(Output.now())?.summary ?? tr("no nowcast")
            let reasons = change.reasons.map(\.rawValue).joined(separator: ",")
            return change.newEpisode
                ? tr(
                    "{id}: {summary} ({reasons}, new episode)",
                    ["id": id.rawValue, "summary": summary, "reasons": reasons])
                : tr("{id}: {summary} ({reasons})", ["id": id.rawValue, "summary": summary, "reasons": reasons])
        }
    }
}
