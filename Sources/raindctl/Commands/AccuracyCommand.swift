import RainCore
import RainSystem

/// `accuracy`: how each provider's forecasts compared with the verifying
/// station of a place, per lead time (docs/ACCURACY.md).
struct AccuracyCommand: ClientCommand {
    static let jsonOption = OptionSpec("--json", summary: Localization.marked("print raind's reply"))
    static let spec = CommandSpec(
        name: "accuracy", summary: Localization.marked("how each provider's forecasts compared with what was observed"),
        synopses: ["[PLACE] [--json]"],
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
        options: [jsonOption], argument: PlaceArgument.spec)

    let place: String?
    let json: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        json = arguments.flag(Self.jsonOption)
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
        let blocks = reply.places.map { Self.describe($0, units: units, now: Output.now()) }
        Output.viewLine(blocks.joined(separator: "\n\n"))
    }

    /// One place's block: the station, the serving provider, the table.
    static func describe(_ place: PlaceAccuracy, units: UnitSystem, now: Double) -> String {
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
        var rows: [[String]] = [
            [
                tr("provider"), tr("lead"), tr("error"), tr("bias"), tr("within 2°"), tr("rain hits"),
                tr("false alarms"), tr("Brier"), tr("wind error"), tr("pairs"),
            ]
        ]
        for score in place.scores {
            rows.append([
                score.provider, "+\(score.leadHours) h", difference(score.temperatureError, formatter),
                difference(score.temperatureBias, formatter, signed: true),
                UnitFormatter.percent(score.withinTwoDegrees), UnitFormatter.percent(score.rainHitRate),
                UnitFormatter.percent(score.rainFalseAlarmRate), decimal(score.brierScore),
                formatter.windSpeed(score.windError),
                score.backfilledPairs > 0
                    ? tr(
                        "{pairs} ({backfilled} backfilled)",
                        ["pairs": "\(score.pairs)", "backfilled": "\(score.backfilledPairs)"])
                    : "\(score.pairs)",
            ])
        }
        lines += [""] + Output.table(rows)
        return lines.joined(separator: "\n")
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
