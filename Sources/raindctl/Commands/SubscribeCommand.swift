import RainCore
import RainSystem

struct SubscribeCommand: ClientCommand {
    static let jsonOption = OptionSpec(
        "--json", summary: Localization.marked("one JSON object per line, as raind sends them"))
    static let formatOption = OptionSpec(
        "--format", value: "FORMAT", source: .words(BarFormat.presets),
        summary: Localization.marked(
            "people (default), json, bar, waybar or a template such as '{icon} {temp}'"),
        help: Localization.marked(
            """
            people (default): a timestamped line per event
            json: the same as --json
            bar: one line with the selected place's weather,
              printed again whenever it changes (i3blocks,
              polybar)
            waybar: a waybar custom-module JSON object per
              line (text, tooltip, class, alt, percentage)
            TEMPLATE: one line from a template such as
              '{icon} {temp} {rain}' (fields in raindctl(1))
            """))
    static let textOption = OptionSpec(
        "--text", value: "TEMPLATE",
        summary: Localization.marked("with --format waybar: the template for its text"))
    static let iconsOption = BarFormat.iconsOption(
        help: Localization.marked(
            """
            {icon} as emoji (default), nerd (Nerd Font
            glyphs) or text; also $RAINDCTL_ICONS
            """))
    static let eventsOption = OptionSpec(
        "--events", value: "NAME,...", source: .list(EventName.allCases.map(\.rawValue)),
        summary: Localization.marked("only these events (people and json formats)"))
    static let spec = CommandSpec(
        name: "subscribe",
        summary: Localization.marked("print every change as it happens (for people, scripts and status bars)"),
        // l10n: the synopsis is typed as it is
        synopses: ["[--json | --format FORMAT] [--text TEMPLATE]\n[--icons STYLE] [--events NAME,...]"],
        description: Localization.marked(
            """
            Prints a snapshot, then one line per event until interrupted:
            LocationAdded, LocationRemoved, LocationSelected, LocationChanged,
            WeatherUpdated, SettingsChanged, ReachabilityChanged, RefreshStarted,
            RefreshFailed, AlertsChanged, NowcastChanged. When raind is not running
            or goes away, it waits for it and carries on (status bars show an
            offline line meanwhile).
            """),
        options: [jsonOption, formatOption, textOption, iconsOption, eventsOption], argument: nil)

    let format: BarFormat
    let events: [String]?
    let iconStyle: IconStyle

    init(arguments: ParsedArguments) throws(ClientError) {
        let json = arguments.flag(Self.jsonOption)
        let formatText = arguments.value(Self.formatOption)
        if json, formatText != nil, formatText != "json" {
            throw .usage(tr("subscribe: --json and --format {format} conflict", ["format": formatText ?? ""]))
        }
        var format =
            try formatText.map { text throws(ClientError) in try BarFormat.parse(text, command: Self.spec.name) }
            ?? (json ? .json : .people)
        if let text = arguments.value(Self.textOption) {
            guard format == .waybar(text: nil) else { throw .usage(tr("subscribe: --text goes with --format waybar")) }
            format = .waybar(text: try BarFormat.template(text, command: Self.spec.name))
        }
        self.format = format
        iconStyle = try BarFormat.iconStyle(arguments, option: Self.iconsOption, command: Self.spec.name)
        events = arguments.value(Self.eventsOption).map { text in
            text.split(separator: ",").map { String($0).trimmingSpaces() }
        }
        if let events {
            for name in events where EventName(rawValue: name) == nil {
                throw .usage(
                    tr(
                        "subscribe: unknown event '{event}'; known: {events}",
                        ["event": name, "events": EventName.allCases.map(\.rawValue).joined(separator: ", ")]))
            }
            if format.isBarLine {
                throw .usage(
                    tr("subscribe: --events does not go with a status-bar format, which needs every event"))
            }
        }
    }

    /// How often a bar line is redrawn without events ("updated 5 min ago", staleness).
    static let redrawSeconds = 30.0

    func run(_ session: ClientSession) throws(ClientError) {
        var view = SubscriberView(iconStyle: iconStyle)
        var printer = LinePrinter()
        var retry = RetryDelay()
        while true {
            do {
                try follow(session, view: &view, printer: &printer, retry: &retry)
            } catch .unreachable(let reason) {
                view.disconnected(because: reason)
                if format.isBarLine {
                    printer.replace(render(view))
                } else if retry.isFirst {
                    Output.error(
                        tr(
                            "{reason}; waiting for raind to come back",
                            ["reason": String(reason.split(separator: "\n").first ?? "")]))
                }
            }
            retry.wait()
        }
    }

    /// One connection: subscribes, then prints until the daemon goes away
    /// (thrown as `.unreachable`). Errors other than being too slow end the command.
    private func follow(
        _ session: ClientSession, view: inout SubscriberView, printer: inout LinePrinter, retry: inout RetryDelay
    ) throws(ClientError) {
        let client = try session.connect()
        let parameters = SubscribeCall.Parameters(events: events?.compactMap(EventName.init(rawValue:)))
        try client.send(
            VarlinkCall(
                method: SubscribeCall.method.qualifiedName, parameters: parameters.json.objectValue ?? JSONObject(),
                more: true))
        while true {
            guard let reply = try client.receive(timeout: format.isBarLine ? Self.redrawSeconds : 86_400) else {
                if format.isBarLine { printer.replace(render(view)) }
                continue
            }
            if let error = reply.error {
                if error == SubscriberTooSlow.error.qualifiedName {
                    throw .unreachable(tr("raind dropped this subscriber as too slow"))
                }
                throw .daemon(name: error, parameters: reply.parameters, instance: client.instance)
            }
            retry.reset()
            let message = try VarlinkClient.decode(SubscribeReply.self, reply.parameters)
            let event: Event?
            do {
                event = try message.decodedEvent()
            } catch {
                throw .failed(
                    tr(
                        "raind sent an event raindctl cannot read ({error}); are raind and raindctl the same version?",
                        ["error": "\(error)"]))
            }
            view.apply(message, event: event)
            switch format {
            case .json: printer.line(reply.parameters.serialized())
            case .people: printer.line("\(Output.localClock(Output.now())) \(view.describe(message, event: event))")
            case .bar, .waybar, .template: printer.replace(render(view))
            }
            if !reply.continues { throw .unreachable(tr("raind ended the subscription")) }
        }
    }

    func render(_ view: SubscriberView) -> String {
        switch format {
        case .people, .json, .bar: return view.barText()
        case .waybar(let text): return view.waybarJSON(text: text).serialized()
        case .template(let template): return view.line(template)
        }
    }
}

/// Prints lines at once; a bar line only when it differs from the last.
struct LinePrinter {
    private var last: String?

    mutating func line(_ text: String) {
        Output.line(text)
        Output.flush()
    }

    mutating func replace(_ text: String) {
        guard text != last else { return }
        last = text
        line(text)
    }
}

/// Waits between reconnection attempts: 0.5 s, doubling to 30 s.
struct RetryDelay {
    private var next = 0.5
    private(set) var isFirst = true

    mutating func reset() {
        next = 0.5
        isFirst = true
    }

    mutating func wait() {
        // Fails only for a time nanosleep(2) refuses, which `next` never is.
        try? SystemClock.sleep(seconds: next)
        next = min(next * 2, 30)
        isFirst = false
    }
}
