import RainCore
import RainSystem

/// `accuracy`: how each provider's forecasts compared with the verifying
/// station of a place, per lead time (docs/ACCURACY.md).
struct AccuracyCommand: ClientCommand {
    static let jsonOption = OptionSpec("--json", summary: Localization.marked("print raind's reply"))
    static let chartOption = OptionSpec(
        "--chart",
        summary: Localization.marked("draw each provider's daily 24 h temperature error instead of the table"))
    static let spec = CommandSpec(
        name: "accuracy", summary: Localization.marked("how each provider's forecasts compared with what was observed"),
        synopses: ["[PLACE] [--chart | --json]"],
        description: Localization.marked(
            """
            Shows, for PLACE (every saved place by default), how each provider's
            forecasts at +6 h, +24 h and +48 h compared with what the place's
            verifying station observed over the last 30 days: temperature error
            and bias, the share within 2 degrees, the share of rainy hours
            forecast (hits) and of dry hours forecast wet (false alarms), the
            Brier score of the chance of rain, the wind speed error, and the
            pairs behind them. A measure needs a minimum of pairs; below it, -
            is shown. Also which provider serves the place, and since when. A
            place without a verifying station says why.
            """),
        options: [jsonOption, chartOption], argument: PlaceArgument.spec)

    let place: String?
    let json: Bool
    let chart: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        json = arguments.flag(Self.jsonOption)
        chart = arguments.flag(Self.chartOption)
        if json, chart { throw .usage(tr("accuracy: --json and --chart conflict")) }
        place = arguments.joinedPositionals
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        let reply = try client.call(GetAccuracyCall.self, .init(id: place))
        if json { return Output.json(reply) }
        if reply.places.isEmpty {
            Output.line(tr("No saved places. Add one: raindctl add PLACE (or --coords LAT,LON --name NAME)"))
            return
        }
        let units = try client.call(GetStatusCall.self, NoParameters()).status.units
        // Asked for, the chart is drawn on a pipe too, without colour.
        let graphics = Output.graphics == .none ? TerminalGraphics.blocks(color: false) : Output.graphics
        let blocks = reply.places.map {
            Self.describe($0, units: units, now: Output.now(), chart: chart ? graphics : nil)
        }
        // A long station name or translation continues under itself, within 80 columns.
        Output.viewLine(LineWrap.wrap(blocks.joined(separator: "\n\n")))
    }

    /// One place's block: the station, the serving provider, the table.
    static func describe(
        _ place: PlaceAccuracy, units: UnitSystem, now: Double, chart: TerminalGraphics? = nil
    ) -> String {
        var lines: [String] = []
        let name = place.name.strippingControlCharacters()
        if let station = place.station {
            var text = tr(
                "{place}: judged against {station} ({source}), {distance} away",
                [
                    "place": name, "station": station.name.strippingControlCharacters(),
                    "source": place.source ?? "", "distance": distance(place.distanceMetres),
                ])
            if let height = place.heightDifferenceMetres, height.isFinite, abs(height) >= 1 {
                let metres = LocaleConventions.current.integer(Int(min(abs(height), 1e5).rounded()))
                text +=
                    ", "
                    + (height > 0
                        ? tr("{metres} m higher", ["metres": metres]) : tr("{metres} m lower", ["metres": metres]))
            }
            lines.append(text)
        } else {
            let why = place.problem.map { ForecastPresenter.brief($0) } ?? tr("still looking for one")
            lines.append(
                tr(
                    "{place}: no verifying station ({why}); nothing to judge the forecasts against",
                    ["place": name, "why": why]))
        }
        if let serving = place.serving {
            lines.append(
                place.servingSince.map {
                    tr("Served by {provider} since {time}", ["provider": serving, "time": dateTime($0)])
                } ?? tr("Served by {provider}", ["provider": serving]))
        }
        if let backfill = place.backfill {
            let provider = backfill.provider.strippingControlCharacters()
            lines.append(
                backfill.problem.map {
                    tr(
                        "Not backfilled from {provider}'s past runs: {problem}",
                        // Whole, not brief: the field it names is what to look at.
                        ["provider": provider, "problem": $0.strippingControlCharacters()])
                }
                    ?? tr(
                        "Backfilled on {time} from {provider}'s past runs (+24 h and +48 h)",
                        ["time": dateTime(backfill.at), "provider": provider]))
        }
        if let problem = place.fileProblem { lines.append(ForecastPresenter.brief(problem)) }
        let days = Int(((place.until - place.from) / 86_400).rounded())
        lines.append(
            tr(
                "Over the last {days}; a measure needs {pairs}",
                [
                    "days": trn("{count} day", "{count} days", days),
                    "pairs": trn("{count} pair", "{count} pairs", place.minimumPairs),
                ]))
        guard !place.scores.isEmpty else {
            if place.station != nil { lines.append(tr("No forecast and observation to compare yet.")) }
            return lines.joined(separator: "\n")
        }
        let formatter = UnitFormatter(system: units)
        if let chart { return (lines + [""] + Self.chart(place, formatter, graphics: chart)).joined(separator: "\n") }
        return (lines + [""] + Self.table(place.scores, formatter)).joined(separator: "\n")
    }

    /// The scores, a block per provider: a row per measure, a column per
    /// lead time, so the table stays narrow in every language.
    ///
    ///     open-meteo     +6 h   +24 h  +48 h
    ///       error        1.2°   1.5°   2.1°
    ///       bias         +1.0°  +1.2°  +1.9°
    ///       …
    ///       pairs        212    208    200
    static func table(_ scores: [AccuracyScore], _ formatter: UnitFormatter) -> [String] {
        let leads = Array(Set(scores.map(\.leadHours))).sorted()
        var providers: [String] = []
        for score in scores where !providers.contains(score.provider) { providers.append(score.provider) }
        let measures: [(label: String, value: (AccuracyScore) -> String)] = [
            (tr("error"), { difference($0.temperatureError, formatter) }),
            (tr("bias"), { difference($0.temperatureBias, formatter, signed: true) }),
            (tr("within 2°"), { UnitFormatter.percent($0.withinTwoDegrees) }),
            (tr("rain hits"), { UnitFormatter.percent($0.rainHitRate) }),
            (tr("false alarms"), { UnitFormatter.percent($0.rainFalseAlarmRate) }),
            (tr("Brier"), { decimal($0.brierScore) }),
            (tr("wind error"), { formatter.windSpeed($0.windError) }),
            (tr("pairs"), { "\($0.pairs)" }),
        ]
        var rows: [[String]] = []
        for provider in providers {
            let byLead = leads.map { lead in scores.first { $0.provider == provider && $0.leadHours == lead } }
            if !rows.isEmpty { rows.append([]) }
            rows.append([provider] + leads.map { "+\($0) h" })
            for measure in measures {
                rows.append(["  " + measure.label] + byLead.map { $0.map(measure.value) ?? UnitFormatter.missing })
            }
            if byLead.contains(where: { ($0?.backfilledPairs ?? 0) > 0 }) {
                rows.append(["  " + tr("backfilled")] + byLead.map { $0.map { "\($0.backfilledPairs)" } ?? "" })
            }
        }
        return Output.table(rows)
    }

    /// Each provider's mean 24 h temperature error day by day over the
    /// window, oldest first, on one scale from 0 to the largest: a space
    /// is a day with too few pairs.
    ///
    ///     24 h temperature error by day, 6 Nov to 5 Dec, 0 to 3.4°
    ///     metno       ▂▃▂▁▂▃▂▂▃▂▂▁▂▃▂▂▁▂▃▂▂▃▂▁▂▃▂▂▃▂  0.8° to 1.9°
    ///     open-meteo  ▆▇▆▅▆▇▆▆▇▆▆▅▆▇▆▆▅▆▇▆▆▇▆▅▆▇▆▆▇▆  2.4° to 3.4°
    static func chart(_ place: PlaceAccuracy, _ formatter: UnitFormatter, graphics: TerminalGraphics) -> [String] {
        let errors = place.days.compactMap(\.temperatureError).filter(\.isFinite)
        guard let worst = errors.max(), let first = place.days.map(\.from).min(),
            let last = place.days.map(\.from).max()
        else { return [tr("No day with enough pairs to draw yet.")] }
        var providers: [String] = []
        for day in place.days where !providers.contains(day.provider) { providers.append(day.provider) }
        let lines = providers.map { provider -> BlockDrawing.Line in
            let days = place.days.filter { $0.provider == provider }.sorted { $0.from < $1.from }
            let known = days.compactMap(\.temperatureError).filter(\.isFinite)
            let caption =
                known.isEmpty
                ? UnitFormatter.missing
                : tr(
                    "{low} to {high}",
                    ["low": difference(known.min(), formatter), "high": difference(known.max(), formatter)])
            return BlockDrawing.Line(
                label: provider, values: days.map(\.temperatureError), lower: 0, upper: worst, color: .yellow,
                caption: caption)
        }
        let heading = tr(
            "24 h temperature error by day, {from} to {until}, 0 to {most}",
            ["from": shortDate(first), "until": shortDate(last), "most": difference(worst, formatter)])
        return [heading] + BlockDrawing.chart(lines, graphics: graphics)
    }

    /// "6 Nov", the local date of `unixSeconds`.
    static func shortDate(_ unixSeconds: Double) -> String {
        let time = unixSeconds.isFinite ? min(max(unixSeconds, 0), 253_402_300_799).rounded(.down) : 0
        return CivilDateTime(unixSeconds: time, utcOffsetSeconds: SystemClock.localUTCOffset(at: Int(time))).shortDate
    }

    /// A temperature difference in the reader's units (°F differences are 1.8 times °C's).
    static func difference(_ celsius: Double?, _ formatter: UnitFormatter, signed: Bool = false) -> String {
        guard let celsius, celsius.isFinite else { return UnitFormatter.missing }
        let value = formatter.convert(celsius, .temperature) - formatter.convert(0, .temperature)
        let text = LocaleConventions.current.decimal(
            DecimalText.format(abs(value), fractionDigits: 1, trimmingZeros: false) ?? UnitFormatter.missing)
        let sign = !signed || (value * 10).rounded() == 0 ? "" : value > 0 ? "+" : "−"
        return sign + text + "°"
    }

    static func decimal(_ value: Double?) -> String {
        guard let value, value.isFinite else { return UnitFormatter.missing }
        return LocaleConventions.current.decimal(
            DecimalText.format(value, fractionDigits: 2, trimmingZeros: false) ?? UnitFormatter.missing)
    }

    static func distance(_ metres: Double?) -> String {
        guard let metres, metres.isFinite else { return UnitFormatter.missing }
        // Rounded as `status` rounds it.
        let kilometres = LocaleConventions.current.integer(Int((min(max(0, metres), 1e8) / 1000).rounded()))
        return metres < 500 ? tr("under 1 km") : tr("{km} km", ["km": kilometres])
    }

    /// "2026-07-29 14:00", local time.
    static func dateTime(_ unixSeconds: Double) -> String {
        let time = unixSeconds.isFinite ? min(max(unixSeconds, 0), 253_402_300_799).rounded(.down) : 0
        let local = CivilDateTime(unixSeconds: time, utcOffsetSeconds: SystemClock.localUTCOffset(at: Int(time)))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(local.year)-\(two(local.month))-\(two(local.day)) \(two(local.hour)):\(two(local.minute))"
    }
}
