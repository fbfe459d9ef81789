import RainCore

struct SubscribeCommand: ClientCommand {
    static let name = "subscribe"
    static let summary = "print every change as it happens (for people, scripts and status bars)"
    static let help = """
        Usage: raindctl subscribe [--json | --format FORMAT] [--events NAME,...]

        Prints a snapshot, then one line per event until interrupted:
        LocationAdded, LocationRemoved, LocationSelected, WeatherUpdated,
        SettingsChanged, ReachabilityChanged, RefreshStarted, RefreshFailed,
        AlertsChanged.

          --json             one JSON object per line, as raind sends them
          --format FORMAT    people (default): a timestamped line per event
                             json: the same as --json
                             bar: one line with the selected place's weather,
                               printed again whenever it changes (i3blocks, polybar)
                             waybar: the same as a waybar JSON object
                               ({"text", "tooltip", "class"})
          --events A,B       only these events (people and json formats)
        """

    enum Format: String { case people, json, bar, waybar }

    let format: Format
    let events: [String]?

    init(arguments: ArgumentReader) throws(ClientError) {
        var arguments = arguments
        let json = arguments.flag("--json")
        let formatText = try arguments.option("--format")
        if json, formatText != nil, formatText != "json" { throw .usage("subscribe: --json and --format \(formatText ?? "") conflict") }
        if let formatText {
            guard let format = Format(rawValue: formatText) else {
                throw .usage("subscribe: unknown format '\(formatText)'; use people, json, bar or waybar")
            }
            self.format = format
        } else {
            format = json ? .json : .people
        }
        events = try arguments.option("--events").map { text in
            text.split(separator: ",").map { String($0).trimmingSpaces() }
        }
        if let events {
            for name in events where EventName(rawValue: name) == nil {
                throw .usage("subscribe: unknown event '\(name)'; known: \(EventName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if format == .bar || format == .waybar {
                throw .usage("subscribe: --events does not go with --format \(format.rawValue), which needs every event")
            }
        }
        try arguments.noPositionals()
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        let parameters = SubscribeCall.Parameters(events: events?.compactMap(EventName.init(rawValue:)))
        try client.send(
            VarlinkCall(
                method: SubscribeCall.method.qualifiedName, parameters: parameters.json.objectValue ?? JSONObject(),
                more: true))
        var view = SubscriberView()
        var lastBarLine: String?
        while true {
            let reply = try client.receive()
            if let error = reply.error { throw .daemon(name: error, parameters: reply.parameters, instance: client.instance) }
            let message = try VarlinkClient.decode(SubscribeReply.self, reply.parameters)
            let event: Event?
            do {
                event = try message.decodedEvent()
            } catch {
                throw .failed("raind sent an event raindctl cannot read (\(error)); are raind and raindctl the same version?")
            }
            view.apply(message, event: event)
            switch format {
            case .json:
                Output.line(reply.parameters.serialized())
            case .people:
                Output.line("\(Output.localClock(Output.now())) \(view.describe(message, event: event))")
            case .bar, .waybar:
                let line = format == .bar ? view.barText() : view.waybarJSON().serialized()
                if line != lastBarLine {
                    Output.line(line)
                    lastBarLine = line
                }
            }
            Output.flush()
            if !reply.continues { return }
        }
    }
}

/// What a subscriber knows from the snapshot and the events since: enough
/// to show the selected place's weather in the chosen units.
struct SubscriberView {
    var units: UnitSystem = .si
    var locations: [LocationID: Location] = [:]
    var selected: LocationID?
    var forecasts: [LocationID: Forecast] = [:]
    var online = true
    var lastFailure: String?

    /// `event`: the reply's event, nil for the snapshot.
    mutating func apply(_ reply: SubscribeReply, event: Event?) {
        guard let event else {
            if let status = reply.status {
                units = status.units
                online = status.online
            }
            for location in reply.locations ?? [] { locations[location.id] = location }
            selected = reply.selected
            if let selected, let forecast = reply.forecast { forecasts[selected] = forecast }
            return
        }
        switch event {
        case .locationAdded(let location):
            locations[location.id] = location
        case .locationRemoved(let location):
            locations[location.id] = nil
            forecasts[location.id] = nil
        case .locationSelected(let location):
            selected = location.id
        case .settingsChanged(let settings):
            units = settings.units
        case .weatherUpdated(let id, let forecast):
            forecasts[id] = forecast
            if id == selected { lastFailure = nil }
        case .reachabilityChanged(let isOnline):
            online = isOnline
        case .refreshFailed(let id, let failure):
            if id == selected { lastFailure = failure.message }
        case .refreshStarted, .alertsChanged:
            break
        }
    }

    func presenter(for id: LocationID) -> ForecastPresenter? {
        guard let forecast = forecasts[id] else { return nil }
        let name = locations[id]?.name ?? id.rawValue
        return ForecastPresenter(forecast: forecast, placeName: name, units: units, now: Output.now())
    }

    /// The selected place's weather in one line, for status bars.
    func barText() -> String {
        guard let selected else { return "no place (raindctl add PLACE)" }
        guard let presenter = presenter(for: selected) else {
            return (locations[selected]?.name ?? selected.rawValue) + " …"
        }
        return presenter.statusLine() + (online ? "" : " (offline)")
    }

    /// waybar's custom module format.
    func waybarJSON() -> JSON {
        var tooltip = ""
        if let selected, let presenter = presenter(for: selected) { tooltip = presenter.nowView() }
        if let lastFailure { tooltip += (tooltip.isEmpty ? "" : "\n") + lastFailure }
        let cssClass = !online ? "offline" : (lastFailure != nil ? "error" : "ok")
        return .object(["text": .string(barText()), "tooltip": .string(tooltip), "class": .string(cssClass)])
    }

    /// One readable line per event.
    func describe(_ reply: SubscribeReply, event: Event?) -> String {
        let name = reply.event
        guard let event else {
            let count = reply.locations?.count ?? 0
            let online = reply.status?.online == true ? "online" : "offline"
            var text = "Snapshot \(count) place\(count == 1 ? "" : "s"), selected \(selected?.rawValue ?? "none"), \(online)"
            if let selected, let presenter = presenter(for: selected) { text += ": " + presenter.statusLine() }
            return text
        }
        switch event {
        case .locationAdded(let location), .locationRemoved(let location), .locationSelected(let location):
            return "\(name) \(location.id) \(location.displayName)"
        case .settingsChanged(let settings):
            var text = "\(name) units=\(settings.units.rawValue)"
            if let minutes = settings.refreshMinutes { text += " refresh=\(minutes)min" }
            return text
        case .reachabilityChanged(let online):
            return "\(name) \(online ? "online" : "offline")"
        case .refreshStarted(let ids):
            return "\(name) \(ids.map(\.rawValue).joined(separator: " "))"
        case .refreshFailed(let id, let failure):
            return "\(name) \(id): \(failure.message)"
        case .alertsChanged(let id, let alerts):
            return "\(name) \(id): " + (alerts.isEmpty ? "no alerts" : alerts.map(\.title).joined(separator: "; "))
        case .weatherUpdated(let id, _):
            return "\(name) \(presenter(for: id)?.statusLine() ?? id.rawValue)"
        }
    }
}
