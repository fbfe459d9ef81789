import RainCore

struct StatusCommand: ClientCommand {
    static let name = "status"
    static let summary = "show the daemon's state: places, units, refresh times, upstream calls"
    static let help = """
        Usage: raindctl status [--json]

        Shows raind's version, uptime, provider, whether it is online, the
        selected place, the unit system, the last and next refresh, and the
        upstream calls used today against the daily budget.

          --json   print the status as one JSON object
        """

    let json: Bool

    init(arguments: ArgumentReader) throws(ClientError) {
        var arguments = arguments
        json = arguments.flag("--json")
        try arguments.noPositionals()
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let reply = try session.connect().call(.getStatus)
        let status = reply["status"] ?? .null
        if json {
            Output.line(status.serialized())
            return
        }
        for line in Self.describe(status) { Output.line(line) }
    }

    static func describe(_ status: JSON) -> [String] {
        let now = Output.now()
        var lines: [String] = []
        let version = status["version"]?.stringValue ?? "?"
        let uptime = status["uptimeSeconds"]?.doubleValue ?? 0
        let online = status["online"]?.boolValue ?? false
        lines.append("raind \(version), up \(Durations.span(uptime)), \(status["provider"]?.stringValue ?? "?"), \(online ? "online" : "offline")")
        var rows: [[String]] = []
        if let selected = status["selected"], selected != .null, let location = try? Location(json: selected) {
            rows.append(["Selected:", "\(location.displayName) (\(location.id))"])
        } else {
            rows.append(["Selected:", "none (add a place: raindctl add PLACE)"])
        }
        rows.append(["Places:", "\(status["locations"]?.intValue ?? 0)"])
        rows.append(["Units:", status["units"]?.stringValue ?? "?"])
        rows.append(["Refresh:", "every \(status["refreshMinutes"]?.intValue ?? 0) min"])
        if let last = status["lastRefresh"]?.doubleValue {
            rows.append(["Last refresh:", Durations.ago(now - last)])
        } else {
            rows.append(["Last refresh:", "never"])
        }
        if let next = status["nextRefresh"]?.doubleValue {
            rows.append(["Next refresh:", next <= now ? "due now" : "in " + Durations.span(next - now)])
        }
        if let failure = status["lastError"], failure != .null {
            rows.append(["Last error:", failure["message"]?.stringValue ?? failure.serialized()])
        }
        rows.append(["Upstream calls:", "\(status["callsToday"]?.intValue ?? 0) of \(status["dailyBudget"]?.intValue ?? 0) today"])
        rows.append(["Subscribers:", "\(status["subscribers"]?.intValue ?? 0)"])
        lines += Output.table(rows, separator: " ")
        return lines
    }
}

/// Human durations for the client's output.
enum Durations {
    static func span(_ seconds: Double) -> String {
        // The value came from the daemon: NaN or a huge number must not trap the conversion.
        let s = seconds.isFinite ? Int(min(max(0, seconds), 1e15)) : 0
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86400) days"
    }

    static func ago(_ seconds: Double) -> String {
        seconds < 60 ? "just now" : span(seconds) + " ago"
    }
}
