import RainCore

struct SubscribeCommand: ClientCommand {
    static let name = "subscribe"
    static let summary = "print every change as it happens (for people, --json for scripts)"
    static let help = """
        Usage: raindctl subscribe [--json] [--events NAME,...]

        Prints a snapshot, then one line per event until interrupted:
        LocationAdded, LocationRemoved, LocationSelected, WeatherUpdated,
        SettingsChanged, ReachabilityChanged, RefreshStarted, RefreshFailed,
        AlertsChanged.

          --json             one JSON object per line, as raind sends them
          --events A,B       only these events
        """

    let json: Bool
    let events: [String]?

    init(arguments: ArgumentReader) throws(ClientError) {
        var arguments = arguments
        json = arguments.flag("--json")
        events = try arguments.option("--events").map { text in
            text.split(separator: ",").map { String($0).trimmingSpaces() }
        }
        if let events {
            for name in events where EventName(rawValue: name) == nil {
                throw .usage("subscribe: unknown event '\(name)'; known: \(EventName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        try arguments.noPositionals()
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        var parameters = JSONObject()
        if let events { parameters["events"] = .array(events.map(JSON.string)) }
        try client.send(VarlinkCall(method: WeatherMethod.subscribe.qualifiedName, parameters: parameters, more: true))
        while true {
            let reply = try client.receive()
            if let error = reply.error { throw .daemon(name: error, parameters: reply.parameters) }
            if json {
                Output.line(reply.parameters.serialized())
            } else {
                Output.line("\(Output.localClock(Output.now())) \(Self.describe(reply.parameters))")
            }
            Output.flush()
            if !reply.continues { return }
        }
    }

    /// One readable line per event.
    static func describe(_ parameters: JSON) -> String {
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
            return "\(name) \(parameters["id"]?.stringValue ?? "?")"
        case nil:
            if name == "Snapshot" {
                let count = parameters["locations"]?.arrayValue?.count ?? 0
                let selected = parameters["selected"]?.stringValue ?? "none"
                let online = parameters["status"]?["online"]?.boolValue == true ? "online" : "offline"
                return "Snapshot \(count) place\(count == 1 ? "" : "s"), selected \(selected), \(online)"
            }
            return "\(name) \(parameters.serialized())"
        }
    }
}
