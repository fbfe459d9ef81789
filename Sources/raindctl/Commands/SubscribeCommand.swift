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
        var parameters = JSONObject()
        if let events { parameters["events"] = .array(events.map(JSON.string)) }
        try client.send(VarlinkCall(method: WeatherMethod.subscribe.qualifiedName, parameters: parameters, more: true))
        var view = SubscriberView()
        var lastBarLine: String?
        while true {
            let reply = try client.receive()
            if let error = reply.error { throw .daemon(name: error, parameters: reply.parameters) }
            view.apply(reply.parameters)
            switch format {
            case .json:
                Output.line(reply.parameters.serialized())
            case .people:
                Output.line("\(Output.localClock(Output.now())) \(view.describe(reply.parameters))")
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
    var locations: [String: Location] = [:]
    var selected: String?
    var forecasts: [String: Forecast] = [:]
    var online = true
    var lastFailure: String?

    mutating func apply(_ parameters: JSON) {
        switch parameters["event"]?.stringValue {
        case "Snapshot":
            units = parameters["status"]?["units"]?.stringValue.flatMap(UnitSystem.init(rawValue:)) ?? units
            online = parameters["status"]?["online"]?.boolValue ?? online
            for value in parameters["locations"]?.arrayValue ?? [] {
                if let location = try? Location(json: value) { locations[location.id.rawValue] = location }
            }
            selected = parameters["selected"]?.stringValue
            if let selected, let value = parameters["forecast"], let forecast = try? Forecast(json: value) {
                forecasts[selected] = forecast
            }
        case "LocationAdded":
            if let value = parameters["location"], let location = try? Location(json: value) {
                locations[location.id.rawValue] = location
            }
        case "LocationRemoved":
            if let id = parameters["location"]?["id"]?.stringValue {
                locations[id] = nil
                forecasts[id] = nil
            }
        case "LocationSelected":
            selected = parameters["location"]?["id"]?.stringValue
        case "SettingsChanged":
            units = parameters["settings"]?["units"]?.stringValue.flatMap(UnitSystem.init(rawValue:)) ?? units
        case "WeatherUpdated":
            if let id = parameters["id"]?.stringValue, let value = parameters["forecast"],
                let forecast = try? Forecast(json: value)
            {
                forecasts[id] = forecast
                if id == selected { lastFailure = nil }
            }
        case "ReachabilityChanged":
            online = parameters["online"]?.boolValue ?? online
        case "RefreshFailed":
            if parameters["id"]?.stringValue == selected {
                lastFailure = parameters["failure"]?["message"]?.stringValue
            }
        default:
            break
        }
    }

    func presenter(for id: String) -> ForecastPresenter? {
        guard let forecast = forecasts[id] else { return nil }
        let name = locations[id]?.name ?? id
        return ForecastPresenter(forecast: forecast, placeName: name, units: units, now: Output.now())
    }

    /// The selected place's weather in one line, for status bars.
    func barText() -> String {
        guard let selected else { return "no place (raindctl add PLACE)" }
        guard let presenter = presenter(for: selected) else {
            return (locations[selected]?.name ?? selected) + " …"
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
    func describe(_ parameters: JSON) -> String {
        let name = parameters["event"]?.stringValue ?? "?"
        func place(_ key: String = "location") -> String {
            guard let value = parameters[key], let location = try? Location(json: value) else { return "" }
            return "\(location.id) \(location.displayName)"
        }
        switch EventName(rawValue: name) {
        case .locationAdded, .locationRemoved, .locationSelected:
            return "\(name) \(place())"
        case .settingsChanged:
            let settings = parameters["settings"]
            var text = "\(name) units=\(settings?["units"]?.stringValue ?? "?")"
            if let minutes = settings?["refreshMinutes"]?.intValue { text += " refresh=\(minutes)min" }
            return text
        case .reachabilityChanged:
            return "\(name) \(parameters["online"]?.boolValue == true ? "online" : "offline")"
        case .refreshStarted:
            let ids = parameters["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return "\(name) \(ids.joined(separator: " "))"
        case .refreshFailed:
            let id = parameters["id"]?.stringValue ?? "?"
            return "\(name) \(id): \(parameters["failure"]?["message"]?.stringValue ?? "")"
        case .alertsChanged:
            let id = parameters["id"]?.stringValue ?? "?"
            let titles = parameters["alerts"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            return "\(name) \(id): " + (titles.isEmpty ? "no alerts" : titles.joined(separator: "; "))
        case .weatherUpdated:
            let id = parameters["id"]?.stringValue ?? "?"
            return "\(name) \(presenter(for: id)?.statusLine() ?? id)"
        case nil:
            if name == "Snapshot" {
                let count = parameters["locations"]?.arrayValue?.count ?? 0
                let online = parameters["status"]?["online"]?.boolValue == true ? "online" : "offline"
                var text = "Snapshot \(count) place\(count == 1 ? "" : "s"), selected \(selected ?? "none"), \(online)"
                if let selected, let presenter = presenter(for: selected) { text += ": " + presenter.statusLine() }
                return text
            }
            return "\(name) \(parameters.serialized())"
        }
    }
}
