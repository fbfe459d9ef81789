import RainCore

/// `now`, `hourly` and `daily`: the app's three views, from the cached forecast.
struct ForecastView {
    enum Kind { case now, hourly(hours: Int), daily }

    let kind: Kind
    let place: String?
    let json: Bool
    /// `now --format`: one line (or one waybar object) instead of the view.
    var line: (format: BarFormat, icons: IconStyle)?

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        let reply = try client.call(GetForecastCall.self, .init(id: place))
        if json {
            guard case .now = kind, var object = reply.json.objectValue else { return Output.json(reply) }
            object["conditions"] = Self.conditions(of: reply.forecast, at: Output.now())
            Output.line(JSON.object(object).serialized())
            return
        }
        let location = reply.location
        guard let forecast = reply.forecast else {
            throw .failed(
                tr(
                    "no weather for {place} yet; raind fetches it as soon as it can ('raindctl refresh' to try now, 'raindctl status' for errors)",
                    ["place": location.localizedDisplayName]))
        }
        let status = try client.call(GetStatusCall.self, NoParameters()).status
        let units = status.units
        if let line {
            var view = SubscriberView(iconStyle: line.icons)
            view.units = units
            view.refreshMinutes = status.refreshMinutes
            view.online = status.online
            view.locations[location.id] = location
            view.selected = location.id
            view.forecasts[location.id] = forecast
            switch line.format {
            case .waybar(let text): Output.line(view.waybarJSON(text: text).serialized())
            case .template(let template): Output.line(view.line(template))
            case .bar, .people, .json: Output.line(view.barText())
            }
            return
        }
        // The daemon's texts are made plain here, so the view may carry raindctl's
        // own colour codes (which Output.line would strip with the rest).
        let presenter = ForecastPresenter(
            forecast: forecast.withPlainText(), placeName: location.localizedDisplayName.strippingControlCharacters(),
            units: units, now: Output.now(), isStale: reply.stale,
            zone: ZoneInfo.system.rules(named: forecast.timeZone.isEmpty ? location.timeZone : forecast.timeZone),
            coordinates: PlaceCoordinates(latitude: location.latitude, longitude: location.longitude))
        let graphics = Output.graphics
        let text: String
        switch kind {
        case .now:
            // What the place's station measured, beside the forecast (docs/OBSERVATIONS.md).
            let view = presenter.nowView()
            if let observed = reply.observed.flatMap({ ObservationWording.line($0, units: units, now: Output.now()) }) {
                let credit = reply.observed.flatMap(ObservationWording.credit).map { $0 + "\n" } ?? ""
                text = (view.hasSuffix("\n") ? view : view + "\n") + observed + "\n" + credit
            } else {
                text = view
            }
        case .hourly(let hours): text = presenter.hourlyView(hours: hours, graphics: graphics, width: Output.columns)
        case .daily: text = presenter.dailyView(graphics: graphics, width: Output.columns)
        }
        Output.viewLine(LineWrap.wrap(text.hasSuffix("\n") ? String(text.dropLast()) : text))
    }
}

extension ForecastView {
    /// What `now` shows as the conditions (`Forecast.conditions(at:)`), with
    /// `observed`: false when it is the forecast for the hour in progress.
    /// Null when nothing in the forecast is for now.
    static func conditions(of forecast: Forecast?, at now: Double) -> JSON {
        guard case let (conditions, observed)? = forecast?.conditions(at: now),
            var object = conditions.json.objectValue
        else { return .null }
        object["observed"] = .bool(observed)
        return .object(object)
    }
}

struct NowCommand: ClientCommand {
    static let jsonOption = OptionSpec(
        "--json",
        summary: Localization.marked(
            "print raind's reply (location, forecast, ageSeconds, stale) and the conditions shown"))
    static let formatOption = OptionSpec(
        "--format", value: "FORMAT", source: .words(BarFormat.linePresets),
        summary: Localization.marked("one line: bar, waybar or a template such as '{icon} {temp}'"),
        help: Localization.marked(
            """
            one line, for prompts and cron jobs: bar, waybar, or
            a template such as '{place} {temp} {icon}' (fields
            in raindctl(1))
            """))
    static let iconsOption = BarFormat.iconsOption()
    static let spec = CommandSpec(
        name: "now", summary: Localization.marked("current conditions: temperature, feels-like, wind, chance of rain"),
        // l10n: the synopsis is typed as it is
        synopses: ["[PLACE] [--json | --format FORMAT] [--icons STYLE]"],
        description: Localization.marked(
            """
            Shows the current conditions for PLACE (a saved place's id or name; the
            selected place by default) in the chosen units and the place's local
            time (by its zone's rules in /usr/share/zoneinfo), with today's sunrise
            and sunset, the length of the day and its change since yesterday,
            the moon's phase, rising and setting (computed by raindctl for the
            place's coordinates), active alerts and how old the data is.
            Unknown values show as – (an en dash).
            """),
        options: [jsonOption, formatOption, iconsOption], argument: PlaceArgument.spec)

    var view: ForecastView

    init(arguments: ParsedArguments) throws(ClientError) {
        let json = arguments.flag(Self.jsonOption)
        let format = try arguments.value(Self.formatOption).map { text throws(ClientError) in
            try BarFormat.parse(text, command: Self.spec.name)
        }
        let icons = try BarFormat.iconStyle(arguments, option: Self.iconsOption, command: Self.spec.name)
        if json, format != nil { throw .usage(tr("now: --json and --format conflict")) }
        if format == .people || format == .json {
            throw .usage(tr("now: --format takes bar, waybar or a template ('--json' prints raind's reply)"))
        }
        view = ForecastView(kind: .now, place: arguments.joinedPositionals, json: json)
        if let format { view.line = (format, icons) }
    }

    func run(_ session: ClientSession) throws(ClientError) { try view.run(session) }
}

struct HourlyCommand: ClientCommand {
    static let hoursOption = OptionSpec(
        "--hours", value: "N", summary: Localization.marked("how many hours (default 12, at most 48)"))
    static let jsonOption = OptionSpec("--json", summary: Localization.marked("print raind's reply"))
    static let spec = CommandSpec(
        name: "hourly", summary: Localization.marked("the coming hours: time, temperature, wind, rain"),
        synopses: ["[PLACE] [--hours N] [--json]"],
        description: Localization.marked(
            """
            Shows the forecast hour by hour for PLACE (the selected place by
            default), starting with the current hour. A row's rain is the chance
            of rain in the hour it starts. On a terminal a temperature curve and
            rain bars come first when they fit its width (coloured unless
            NO_COLOR is set).
            """),
        options: [hoursOption, jsonOption], argument: PlaceArgument.spec)

    let view: ForecastView

    init(arguments: ParsedArguments) throws(ClientError) {
        let json = arguments.flag(Self.jsonOption)
        var hours = 12
        if let text = arguments.value(Self.hoursOption) {
            guard let value = Int(text), (1...48).contains(value) else {
                throw .usage(tr("hourly: --hours takes a whole number from 1 to 48 (got '{value}')", ["value": text]))
            }
            hours = value
        }
        view = ForecastView(kind: .hourly(hours: hours), place: arguments.joinedPositionals, json: json)
    }

    func run(_ session: ClientSession) throws(ClientError) { try view.run(session) }
}

struct DailyCommand: ClientCommand {
    static let jsonOption = OptionSpec("--json", summary: Localization.marked("print raind's reply"))
    static let spec = CommandSpec(
        name: "daily", summary: Localization.marked("the coming days: weekday, date, min/max, wind, rain"),
        synopses: ["[PLACE] [--json]"],
        description: Localization.marked(
            """
            Shows the forecast day by day for PLACE (the selected place by default).
            On a terminal each day's low-high is drawn as a bar on one scale for
            the week (coloured unless NO_COLOR is set).
            """),
        options: [jsonOption],
        argument: PlaceArgument.spec)

    let view: ForecastView

    init(arguments: ParsedArguments) throws(ClientError) {
        let json = arguments.flag(Self.jsonOption)
        view = ForecastView(kind: .daily, place: arguments.joinedPositionals, json: json)
    }

    func run(_ session: ClientSession) throws(ClientError) { try view.run(session) }
}

struct RefreshCommand: ClientCommand {
    static let allOption = OptionSpec("--all", summary: Localization.marked("every saved place"), listed: false)
    static let spec = CommandSpec(
        name: "refresh", summary: Localization.marked("fetch the weather now (the selected place, PLACE, or --all)"),
        synopses: ["[PLACE | --all]"],
        description: Localization.marked(
            """
            Fetches the weather now and waits until it has arrived. A refresh
            already under way is joined, and data younger than a minute counts as
            fresh, so repeating the command costs no extra requests. Fails with
            a reason (offline, budget used up, provider error) when it cannot.
            """),
        options: [allOption],
        argument: PlaceArgument.spec)

    let place: String?
    let all: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        all = arguments.flag(Self.allOption)
        place = arguments.joinedPositionals
        if all, place != nil { throw .usage(tr("refresh: give PLACE or --all, not both")) }
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let reply = try session.connect().call(RefreshCall.self, .init(id: place, all: all ? true : nil))
        if !reply.updated.isEmpty {
            Output.line(tr("Updated: {places}", ["places": reply.updated.map(\.rawValue).joined(separator: ", ")]))
        }
        if !reply.failed.isEmpty {
            Output.error(
                tr(
                    "not updated: {places} (see 'raindctl status')",
                    ["places": reply.failed.map(\.rawValue).joined(separator: ", ")]))
            throw .daemonPartial
        }
    }
}
