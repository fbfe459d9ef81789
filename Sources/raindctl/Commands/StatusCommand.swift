import RainCore

struct StatusCommand: ClientCommand {
    static let jsonOption = OptionSpec("--json", summary: Localization.marked("print the status as one JSON object"))
    static let spec = CommandSpec(
        name: "status",
        summary: Localization.marked("show the daemon's state: places, units, refresh times, upstream calls"),
        synopses: ["[--json]"],
        description: Localization.marked(
            """
            Shows raind's version, uptime, provider, whether it is online, the
            selected place, the unit system, the last and next refresh, the
            upstream requests and the calls the provider counts for them, today
            and (with a monthly budget) this month, against the budgets, and each
            place's official alert service (or none).
            """),
        options: [jsonOption],
        argument: nil)

    let json: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        json = arguments.flag(Self.jsonOption)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        let status = try client.call(GetStatusCall.self, NoParameters()).status
        if json {
            Output.json(status)
            return
        }
        // Each place's official alert service, as GetForecast gives it: in the status itself.
        let services: [(LocationID, AlertService?)]
        if let given = status.placeAlertServices {
            services = given.map { ($0.id, $0.service) }
        } else {
            // A raind without them in its status: each place's forecast, read for its service alone.
            let ids = try client.call(ListLocationsCall.self, NoParameters()).locations.map(\.id)
            let replies = try client.call(
                GetForecastCall.self, each: ids.map { .init(id: $0.rawValue) }, reading: ForecastAlertService.self)
            services = Array(zip(ids, replies.map { $0.forecast?.alertService }))
        }
        for line in Self.describe(status, alertServices: services) { Output.line(LineWrap.wrap(line)) }
    }

    /// "dwd, checked 4 min ago", "meteoalarm, checked 1 min ago; 2 warnings
    /// could not be read (HTTP 404)", "dwd, last check failed (HTTP 503)",
    /// "none (no official alert service for this place)", or "not checked
    /// yet" before raind has looked.
    static func describe(_ service: AlertService?, now: Double) -> String {
        guard let service else { return tr("not checked yet") }
        let problem = service.localizedProblem.map { ForecastPresenter.brief($0) } ?? ""
        guard let source = service.source, !source.isEmpty else {
            return problem.isEmpty
                ? tr("none (no official alert service for this place)") : tr("none ({problem})", ["problem": problem])
        }
        let unread = service.unread ?? 0
        if !problem.isEmpty, unread == 0 {
            return tr("{source}, last check failed ({problem})", ["source": source, "problem": problem])
        }
        let text =
            service.checkedAt.map { tr("{source}, checked {age}", ["source": source, "age": Durations.ago(now - $0)]) }
            ?? source
        // Answered, but some of the warnings it listed could not be read: never "checked" alone.
        if unread > 0 {
            return trn(
                "{text}; {count} warning could not be read ({reason})",
                "{text}; {count} warnings could not be read ({reason})", unread,
                ["text": text, "reason": ForecastPresenter.brief(service.unreadReason ?? "")])
        }
        guard let count = service.unplaced, count > 0 else { return text }
        return trn(
            "{text}; {count} warning names no area raind can place, not shown",
            "{text}; {count} warnings name no area raind can place, not shown", count, ["text": text])
    }

    /// The upstream calls of the day and month against the budget, when they are one provider's.
    private static func totalRows(_ status: WeatherStatus) -> [[String]] {
        var rows: [[String]] = []
        rows.append([
            tr("Upstream calls:"),
            tr(
                "{calls} of {budget} today ({requests})",
                [
                    "calls": Self.calls(status.callsToday),
                    "budget": Self.calls(status.dailyBudget),
                    "requests": trn("{count} request", "{count} requests", status.requestsToday),
                ]),
        ])
        if let monthly = status.monthlyBudget {
            rows.append([
                "",
                tr(
                    "{calls} of {budget} this month ({requests})",
                    [
                        "calls": Self.calls(status.callsThisMonth),
                        "budget": Self.calls(monthly),
                        "requests": trn("{count} request", "{count} requests", status.requestsThisMonth),
                    ]),
            ])
        }
        return rows
    }

    /// "every 15 min while in use (now), +48 requests = 148.8 calls a day at most".
    /// A number of calls (`BudgetUsage.text`) as the locale writes it: `3,1` and `1.500` in German.
    static func calls(_ calls: Double) -> String {
        LocaleConventions.current.number(BudgetUsage.text(calls: calls))
    }

    static func describe(_ nowcast: NowcastStatus) -> String {
        guard nowcast.enabled else { return tr("short refreshes off ([Nowcast] Enabled=no)") }
        let count = Int(nowcast.requestsPerDay.rounded())
        let values: KeyValuePairs<String, String> = [
            "interval": trn("{count} min", "{count} min", nowcast.intervalMinutes),
            "requests": trn("+{count} request", "+{count} requests", count),
            "calls": Self.calls(nowcast.callsPerDay),
        ]
        return nowcast.active
            ? tr("every {interval} while in use (now), {requests} = {calls} calls a day at most", values)
            : tr("every {interval} while in use (not now), {requests} = {calls} calls a day at most", values)
    }

    /// "nws: 2 places every 5 min, about 576 requests a day; 34 of 1152 today (20 unchanged, 3 CAP documents)",
    /// and "backing off for 20 min after 4 failures" among the details while it does.
    static func describe(_ source: AlertSourceStatus, now: Double) -> String {
        let places = source.places.count
        var today = trn("{count} today", "{count} today", source.requestsToday)
        if let daily = source.dailyBudget {
            today = trn(
                "{count} of {budget} today", "{count} of {budget} today", source.requestsToday,
                ["budget": Self.calls(daily)])
        }
        var text: String
        if places > 0 {
            let perDay = source.requestsPerDay.isFinite ? Int(min(max(0, source.requestsPerDay), 1e9).rounded()) : 0
            text = tr(
                "{places} every {interval}, about {requests} a day; {today}",
                [
                    "places": trn("{count} place", "{count} places", places),
                    "interval": Self.interval(source),
                    "requests": trn("{count} request", "{count} requests", perDay), "today": today,
                ])
        } else {
            text = tr("no places now; {today}", ["today": today])
        }
        var details: [String] = []
        if source.unchangedToday > 0 {
            details.append(trn("{count} unchanged", "{count} unchanged", source.unchangedToday))
        }
        if source.documentsToday > 0 {
            details.append(trn("{count} CAP document", "{count} CAP documents", source.documentsToday))
        }
        if let until = source.backoffUntil, until > now {
            let failures = trn("{count} failure", "{count} failures", source.failures ?? 0)
            details.append(
                tr(
                    "backing off for {span} after {failures}",
                    ["span": Durations.span(until - now), "failures": failures]))
        }
        if !details.isEmpty {
            text = tr("{text} ({details})", ["text": text, "details": Localization.list(details)])
        }
        return tr("{name}: {text}", ["name": source.name, "text": text])
    }

    /// "metno: ok, serves oslo-no; 12 of 96 calls today" or
    /// "open-meteo: backing off for 4 min after 2 failures (HTTP 503); 3 of 1500 calls today".
    static func describe(_ provider: ProviderStatus, now: Double) -> String {
        var text: String
        let failures = trn("{count} failure", "{count} failures", provider.failures)
        if provider.available {
            text = provider.failures == 0 ? tr("ok") : tr("ok again after {failures}", ["failures": failures])
        } else if let until = provider.backoffUntil {
            text = tr(
                "backing off for {span} after {failures}", ["span": Durations.span(until - now), "failures": failures])
        } else {
            text = tr("refused raind; fix the configuration and reload")
        }
        if let failure = provider.lastError {
            text = tr("{text} ({problem})", ["text": text, "problem": ProviderFailover.localizedBrief(failure)])
        }
        if !provider.places.isEmpty {
            let served = provider.places.map(\.rawValue).joined(separator: " ")
            text = tr("{text}, serves {places}", ["text": text, "places": served])
        }
        text = tr(
            "{text}; {calls} of {budget} calls today",
            [
                "text": text, "calls": Self.calls(provider.callsToday),
                "budget": Self.calls(provider.dailyBudget),
            ])
        if let monthly = provider.monthlyBudget {
            text = tr(
                "{text}, {calls} of {budget} this month",
                [
                    "text": text, "calls": Self.calls(provider.callsThisMonth),
                    "budget": Self.calls(monthly),
                ])
        }
        return tr("{name}: {text}", ["name": provider.name, "text": text])
    }

    /// The rows under `label` of what each place has: places with the same
    /// text share its row ("delhi-in, tokyo-jp: none (…)"), in the order each
    /// text first comes, so that ten places offline make one line, not ten.
    static func placeRows(_ label: String, _ places: [(id: LocationID, text: String)]) -> [[String]] {
        var groups: [(text: String, places: [LocationID])] = []
        var groupOf: [String: Int] = [:]  // a thousand places with as many texts: no search of the groups each
        for (id, text) in places {
            if let index = groupOf[text] {
                groups[index].places.append(id)
            } else {
                groupOf[text] = groups.count
                groups.append((text, [id]))
            }
        }
        return groups.enumerated().map { index, group in
            let names = group.places.map(\.rawValue).joined(separator: ", ")
            return [index == 0 ? label : "", tr("{name}: {text}", ["name": names, "text": group.text])]
        }
    }

    /// "every 2 h", "every 1 h 30 min", "every 45 min".
    static func every(minutes: Int) -> String {
        if minutes % 60 == 0 { return trn("{count} h", "{count} h", minutes / 60) }
        guard minutes > 60 else { return trn("{count} min", "{count} min", minutes) }
        return tr(
            "{hours} {minutes}",
            [
                "hours": trn("{count} h", "{count} h", minutes / 60),
                "minutes": trn("{count} min", "{count} min", minutes % 60),
            ])
    }

    static func describe(_ status: WeatherStatus, alertServices: [(LocationID, AlertService?)] = []) -> [String] {
        let now = Output.now()
        var lines: [String] = []
        let uptime = Durations.span(status.uptimeSeconds)
        lines.append(
            status.online
                ? tr(
                    "raind {version}, up {uptime}, {provider}, online",
                    ["version": status.version, "uptime": uptime, "provider": status.provider])
                : tr(
                    "raind {version}, up {uptime}, {provider}, offline",
                    ["version": status.version, "uptime": uptime, "provider": status.provider]))
        var rows: [[String]] = []
        if let location = status.selected {
            rows.append([tr("Selected:"), "\(location.localizedDisplayName) (\(location.id))"])
        } else {
            rows.append([tr("Selected:"), tr("none (add a place: raindctl add PLACE)")])
        }
        rows.append([tr("Places:"), LocaleConventions.current.integer(status.locations)])
        rows.append([tr("Units:"), status.units.rawValue])
        rows.append([tr("Refresh:"), trn("every {count} min", "every {count} min", status.refreshMinutes)])
        if let minutes = status.backgroundRefreshMinutes, status.locations > 1 {
            let every = Self.every(minutes: minutes)
            rows.append([
                tr("Other places:"),
                status.backgroundStretched == true
                    ? tr(
                        "every {interval}, stretched to fit the daily budget (fewer places or a larger [Refresh] DailyBudget= refresh them more often)",
                        ["interval": every])
                    : tr("every {interval}", ["interval": every]),
            ])
        }
        if let last = status.lastRefresh {
            rows.append([tr("Last refresh:"), Durations.ago(now - last)])
        } else {
            rows.append([tr("Last refresh:"), tr("never")])
        }
        if let next = status.nextRefresh {
            rows.append([
                tr("Next refresh:"),
                next <= now ? tr("due now") : tr("in {span}", ["span": Durations.span(next - now)]),
            ])
        }
        if let failure = status.lastError {
            let when = failure.time.map { Durations.ago(now - $0) + ": " } ?? ""
            rows.append([tr("Last error:"), when + failure.localizedMessage])
        }
        // A total of providers that count in different units means nothing: each shows its own below.
        if status.totalAddsUp != false { rows += Self.totalRows(status) }
        if let nowcast = status.nowcast {
            rows.append([tr("Nowcast:"), Self.describe(nowcast)])
        }
        for (index, provider) in (status.providers ?? []).enumerated() {
            rows.append([index == 0 ? tr("Providers:") : "", Self.describe(provider, now: now)])
            // Why the scores put it first for a place: one row each, under it.
            for choice in provider.chosen ?? [] {
                rows.append([
                    "",
                    tr("{name}: {text}", ["name": choice.place, "text": choice.text(units: status.units)]),
                ])
            }
        }
        rows += Self.placeRows(
            tr("Alert services:"), alertServices.map { id, service in (id, Self.describe(service, now: now)) })
        for (index, source) in (status.alertSources ?? []).enumerated() {
            rows.append([index == 0 ? tr("Alert polling:") : "", Self.describe(source, now: now)])
        }
        rows += Self.alertPaceRows(status, now: now)
        rows += Self.observationRows(status, now: now)
        rows.append([tr("Subscribers:"), LocaleConventions.current.integer(status.subscribers)])
        lines += Output.table(rows, separator: " ")
        return lines
    }
}

/// Human durations for the client's output.
enum Durations {
    static func span(_ seconds: Double) -> String {
        // The value came from the daemon: NaN or a huge number must not trap the conversion.
        let s = seconds.isFinite ? Int(min(max(0, seconds), 1e15)) : 0
        if s < 60 { return trn("{count} s", "{count} s", s) }
        if s < 3600 { return trn("{count} min", "{count} min", s / 60) }
        if s < 86400 {
            return tr(
                "{hours} {minutes}",
                [
                    "hours": trn("{count} h", "{count} h", s / 3600),
                    "minutes": trn("{count} min", "{count} min", s % 3600 / 60),
                ])
        }
        return trn("{count} day", "{count} days", s / 86400)
    }

    static func ago(_ seconds: Double) -> String {
        seconds < 60 ? tr("just now") : tr("{span} ago", ["span": span(seconds)])
    }
}
