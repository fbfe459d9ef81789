/// What `raindctl` prints for a forecast: the app's three views (`now`,
/// `hourly`, `daily`) and a one-line form for status bars and `subscribe`.
///
/// Pure formatting: every input is given, including the current time, so
/// the output is the same on every machine. Times are shown in the place's
/// local time by its zone's rules (`zone`, daylight-saving changes included),
/// or by the forecast's `utcOffsetSeconds` when the zone is unknown; words,
/// names, clock and numbers are the reader's locale's (po/README.md). Values
/// the provider did not give show as `–`. Multi-line views end with a
/// newline; the status line does not.
public struct ForecastPresenter: Sendable {
    public var forecast: Forecast
    /// The place's name as the person saved it (`Paris`).
    public var placeName: String
    public var units: UnitSystem
    /// Unix seconds, for "updated N min ago" and to skip past hours and days.
    public var now: Double
    /// Whether the daemon considers the forecast stale (shown as `(stale)`).
    public var isStale: Bool
    /// The rules of the forecast's time zone (`ZoneInfo.rules(named:)` of `forecast.timeZone`); nil when unknown.
    public var zone: TimeZoneRules?
    /// Where the place is, for the moon and the length of the day in `now`; nil leaves them out.
    public var coordinates: PlaceCoordinates?

    public init(
        forecast: Forecast, placeName: String, units: UnitSystem, now: Double, isStale: Bool = false,
        zone: TimeZoneRules? = nil, coordinates: PlaceCoordinates? = nil
    ) {
        self.coordinates = coordinates
        self.forecast = forecast
        self.placeName = placeName
        self.units = units
        self.now = now
        self.isStale = isStale
        self.zone = zone
    }

    private var formatter: UnitFormatter { UnitFormatter(system: units) }

    func local(_ unixSeconds: Double) -> CivilDateTime { forecast.local(unixSeconds, zone: zone) }

    /// Stale as the daemon says, or outdated by the forecast's own times.
    private var shownStale: Bool { isStale || forecast.outdated(now: now) }

    /// The provider's credit, one quiet line under every view; when another
    /// provider than the place's first choice answered, which one and why
    /// first: `from metno (open-meteo: HTTP 503) · Data from MET Norway …`;
    /// when the scores chose it, why: `metno: 24 h temperature error 1.1 °C
    /// against open-meteo's 1.9 °C over 212 h at Oslo-Blindern · Data from …`.
    private var attributionLine: String {
        let credit = forecast.attribution
        let text = Localization.translate(credit.text)
        let line = credit.url.isEmpty ? text : "\(text) \(credit.url)"
        guard let failover = forecast.failover else {
            guard let choice = forecast.choice, choice.provider == forecast.provider else { return line }
            return choice.text(units: units) + " · " + line
        }
        return tr(
            "from {provider} ({other}: {reason})",
            ["provider": forecast.provider, "other": failover.provider, "reason": failover.localizedReason]) + " · "
            + line
    }

    /// `Updated 4 min ago`, with ` (stale)` when stale; for an outdated
    /// forecast, however recently received, `Forecast ended 26 h ago (stale)`.
    private var updatedLine: String {
        if forecast.outdated(now: now) {
            guard let end = forecast.coverageEnd else { return tr("No times in this forecast (stale)") }
            return tr("Forecast ended {age} (stale)", ["age": AgeText.describe(ageSeconds: now - end)])
        }
        let age = AgeText.describe(ageSeconds: now - forecast.fetchedAt)
        return isStale ? tr("Updated {age} (stale)", ["age": age]) : tr("Updated {age}", ["age": age])
    }

    // MARK: - now

    /// The app's main view:
    ///
    ///     Paris
    ///     Alert (Severe): Storm warning until Thu 15 Jan 18:00 · meteoalarm (approximate area)
    ///     Alert (Moderate): Frost warning from Fri 16 Jan 02:00 until Fri 16 Jan 09:00 · meteoalarm
    ///     Thursday 15 January 2026, 09:45
    ///     0°  Overcast
    ///     Feels like      -4°
    ///     Wind            3m/s SW
    ///     Chance of rain  5%
    ///     Sun             rises 08:40, sets 17:15
    ///     Day length      8 h 35 min, 2 min shorter
    ///     Moon            Waxing gibbous, 78% illuminated
    ///                     rises 14:02, sets 03:41
    ///     Updated 12 min ago
    ///     Weather data by Open-Meteo.com (CC BY 4.0) https://open-meteo.com/
    ///
    /// The date and time are those of the conditions, in local time. Without
    /// a recent current block, the hour in progress stands in, and says so:
    /// `Forecast for Thursday 15 January 2026, 10:00–11:00` (`Forecast.conditions(at:)`).
    /// Today's sunrise and sunset follow (or `no sunrise (polar night)`, `no
    /// sunset (polar day)`), then the length of the day and the moon when
    /// the place's coordinates are known (`skyRows`). The alerts come
    /// first, under the name: those in effect (most severe first, "until"
    /// their end), then those that begin
    /// later (soonest first, "from" their onset), each with its source and
    /// whether it was matched by region only (`alertLines`). A place no
    /// official alert service covers says so before the age, and so does a
    /// failed poll of its service (`alertServiceLine`); the provider's
    /// credit is last.
    public func nowView() -> String {
        var lines = [placeName]
        lines += alertLines
        var table = TextTable([.left, .left])
        if case let (current, observed)? = forecast.conditions(at: now) {
            let time = local(current.time)
            let date = time.longDate
            if observed {
                lines.append(tr("{date}, {time}", ["date": date, "time": time.hourMinute]))
            } else if let hour = forecast.hourInProgress(at: now) {
                let end = local(forecast.stepEnd(ofHourAt: hour)).hourMinute
                lines.append(
                    tr("Forecast for {date}, {start}–{end}", ["date": date, "start": time.hourMinute, "end": end]))
            } else {
                lines.append(tr("Forecast for {date}, {time}", ["date": date, "time": time.hourMinute]))
            }
            let temperature = marked(
                formatter.spaced(current.temperature, .temperature), observed ? .current : .hour, at: current.time)
            let summary = Localization.translate(current.summary)
            lines.append(summary.isEmpty ? temperature : temperature + "  " + summary)
            table.append([tr("Feels like"), formatter.spaced(current.apparentTemperature, .temperature)])
            var wind = formatter.spaced(current.windSpeed, .windSpeed)
            if let bearing = current.windBearing, current.windSpeed != nil {
                wind += " " + Self.compassPoint(degrees: bearing)
            }
            if let gust = current.windGust, gust > (current.windSpeed ?? 0) {
                wind = tr("{wind}, gusts {gust}", ["wind": wind, "gust": formatter.spaced(gust, .windSpeed)])
            }
            table.append([tr("Wind"), wind])
            // What the provider sent and nothing it did not: no row of dashes.
            if let humidity = current.humidity { table.append([tr("Humidity"), UnitFormatter.percent(humidity)]) }
            if let pressure = current.pressure {
                table.append([tr("Pressure"), formatter.spaced(pressure, .pressure)])
            }
            if let uv = uvText(current) { table.append([tr("UV index"), uv]) }
            table.append([tr("Chance of rain"), UnitFormatter.percent(current.precipProbability)])
            if let rain = current.precipIntensity {
                // Translators: the label of the precipitation (the amount or the chance, a column header in hourly and daily),
                // not the weather "Rain": the word your weather service uses for precipitation (Polish "Opady").
                table.append([trc("column", "Rain"), formatter.spaced(rain, .precipitationIntensity)])
            }
        } else {
            lines.append(tr("Nothing in this forecast is for now."))
            if let uv = airOnlyUVText { table.append([tr("UV index"), uv]) }
        }
        for row in airRows { table.append(row) }
        // The rain outlook and today's sun stand without the conditions.
        if let nowcast = forecast.nowcast?.at(now) { table.append([tr("Next hour"), nowcast.summary]) }
        if let today = forecast.today(at: now, zone: zone), let sun = sunText(today) { table.append([tr("Sun"), sun]) }
        for row in skyRows() { table.append(row) }
        lines += table.lines()
        // Values that are not the place's own station's say where they are from.
        if case let (current, true)? = forecast.conditions(at: now) { lines += SourceWording.lines(current.sources) }
        if let service = alertServiceLine { lines.append(service) }
        if let note = correctionLine(shown: forecast.isCorrected(conditionsAt: now)) { lines.append(note) }
        lines.append(updatedLine)
        lines.append(attributionLine)
        lines += airLines
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per alert in effect at `now` (most severe first), then per
    /// alert that begins later (soonest first): `Alert (Severe): TITLE until
    /// Thu 15 Jan 18:00 · dwd`, `… from Fri 16 Jan 02:00 until …`, with
    /// `(approximate area)` when it was matched by region only. One without
    /// an end holds as long as it is reported.
    var alertLines: [String] {
        (forecast.alertsInEffect(at: now) + forecast.upcomingAlerts(at: now)).map { alert in
            let title = alert.title.isEmpty ? (alert.event ?? tr("Weather alert")) : alert.title
            let span = AlertWording.span(of: alert, at: now, local: local)
            return tr("Alert ({severity}): {title}", ["severity": AlertWording.name(alert.severity), "title": title])
                + (span.map { " " + $0 } ?? "") + AlertWording.origin(of: alert)
        }
    }

    /// "No official alert service for this place", or why the service's
    /// last poll failed ("Official alerts from dwd: last check failed (HTTP
    /// 503)"), so no alert listed is never taken for no alert issued; nil
    /// while the service answers, and before raind has looked.
    var alertServiceLine: String? {
        guard let service = forecast.alertService else { return nil }
        let english = service.problem.map { Self.brief($0) } ?? ""
        let problem = service.localizedProblem.map { Self.brief($0) } ?? ""
        guard let source = service.source, !source.isEmpty else {
            let usual = AlertService.none.problem ?? ""
            guard !english.isEmpty, english.lowercased() != usual else {
                return tr("No official alert service for this place")
            }
            return tr("No official alert service for this place ({problem})", ["problem": problem])
        }
        guard !problem.isEmpty else { return Self.unplacedLine(service) }
        if let unread = Self.unreadLine(service) { return unread }
        return tr(
            "Official alerts from {source}: last check failed ({problem})", ["source": source, "problem": problem])
    }

    /// "Official alerts from meteoalarm: 2 warnings could not be read (HTTP
    /// 404)": the service listed warnings raind could not read, so the
    /// alerts shown may not be all (`AlertService.unread`); nil otherwise.
    public static func unreadLine(_ service: AlertService) -> String? {
        guard let source = service.source, let count = service.unread, count > 0 else { return nil }
        return trn(
            "Official alerts from {source}: {count} warning could not be read ({reason})",
            "Official alerts from {source}: {count} warnings could not be read ({reason})", count,
            ["source": source, "reason": brief(service.unreadReason ?? "")])
    }

    /// "Official alerts from meteoalarm: 2 warnings for this region name no
    /// area raind can place, so they are not shown", or nil.
    static func unplacedLine(_ service: AlertService) -> String? {
        guard let source = service.source, let count = service.unplaced, count > 0 else { return nil }
        return trn(
            "Official alerts from {source}: {count} warning for this region names no area raind can place, so it is not shown",
            "Official alerts from {source}: {count} warnings for this region name no area raind can place, so they are not shown",
            count, ["source": source])
    }

    /// A problem's first clause, at most 60 columns (an alert service's
    /// failed poll, shown briefly).
    public static func brief(_ text: String) -> String {
        // ASCII text (most): its first clause's length found on the bytes in place, without
        // Unicode's newline property.
        let asciiClause = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.firstIndex { $0 == UInt8(ascii: ";") || (0x0A...0x0D).contains($0) } ?? bytes.count
        }
        let first =
            if let length = asciiClause ?? nil {
                text[..<text.utf8.index(text.utf8.startIndex, offsetBy: length)]
            } else {
                text.prefix { $0 != ";" && $0 != "；" && !$0.isNewline }
            }
        return DisplayWidth.fitting(String(first).trimmingSpaces(), columns: 60)
    }

    /// A day's local date (`Forecast.date(of:zone:)`).
    private func date(of day: DailyForecast) -> CivilDateTime { forecast.date(of: day, zone: zone) }

    /// `rises 07:58, sets 17:12`, `no sunset (polar day)`, `no sunrise (polar
    /// night)`; nil when the provider gave neither time.
    private func sunText(_ day: DailyForecast) -> String? {
        switch day.polar {
        case .day: return tr("no sunset (polar day)")
        case .night: return tr("no sunrise (polar night)")
        case nil:
            if day.sunrise == nil && day.sunset == nil { return nil }
            let rise = day.sunrise.map { local($0).hourMinute } ?? UnitFormatter.missing
            let set = day.sunset.map { local($0).hourMinute } ?? UnitFormatter.missing
            return tr("rises {sunrise}, sets {sunset}", ["sunrise": rise, "sunset": set])
        }
    }

    // MARK: - hourly

    /// The app's hourly strip: up to `hours` hours starting with the hour in
    /// progress at `now`, as aligned columns. The weekday is shown on the
    /// first row and wherever the day changes. A row's rain is the chance of
    /// rain in the hour it starts; `–` when the provider does not know it.
    ///
    ///     Paris, next 3 hours
    ///     Day  Time   Temp  Wind  Rain
    ///     Thu  09:00   -2°  3m/s    0%
    ///          10:00   -1°  3m/s    5%
    ///
    /// With block graphics (a terminal), a temperature curve and rain bars
    /// across the hours come first:
    ///
    ///     Temp  ▁▂▃▅▆▇▇▆▅▄▃▂  -2 °C to 4 °C
    ///     Rain  ▁▁▁▂▄█▆▃▁▁▁▁  up to 80%
    ///
    /// With `width` (the terminal's columns), the view fits it: a drawing
    /// wider than the terminal (48 hours on a narrow one) is left out, as
    /// daily leaves out its bars, so no line wraps; the table says the same.
    ///
    /// The rows are those of the `hours` hours from the hour in progress,
    /// whatever the data's step: 48 hours of 6-hour data are 8 rows.
    public func hourlyView(hours: Int, graphics: TerminalGraphics = .none, width: Int? = nil) -> String {
        let rows = Self.rows(forecast.hourly, hours: hours, now: now)
        // The hours the rows cover: one a row for hourly data, six for a row of 6-hour data.
        let covered = rows.first.map { first in
            let last = rows[rows.endIndex - 1]
            let step = rows.dropLast().last.map { last.time - $0.time } ?? 3600
            return min(max(hours, 0), Int(((last.time + step - first.time) / 3600).rounded()))
        }
        var lines = [
            trn("{place}, next hour", "{place}, next {count} hours", covered ?? 0, ["place": placeName])
        ]
        var airCredit: String?
        if rows.isEmpty {
            lines = [placeName, tr("No hourly forecast from now on.")]
        } else {
            if graphics.drawsBlocks {
                let drawing = hourlyGraphics(Array(rows), graphics)
                if width.map({ width in drawing.allSatisfy { TextTable.width($0) <= width } }) ?? true {
                    lines += drawing
                }
            }
            // The air quality index, when the air has these hours.
            let air = airColumn(Array(rows))
            var table = TextTable([.left, .left, .right, .right, .right] + (air == nil ? [] : [.right]))
            table.append(
                [tr("Day"), tr("Time"), tr("Temp"), tr("Wind"), trc("column", "Rain")] + (air == nil ? [] : [tr("AQI")])
            )
            var previousDay: Int?
            for (position, hour) in rows.enumerated() {
                let time = local(hour.time)
                let dayNumber = time.daysSinceEpoch
                table.append(
                    [
                        dayNumber == previousDay ? "" : time.shortWeekdayName, time.hourMinute,
                        marked(formatter.temperature(hour.temperature), .hour, at: hour.time, aligned: true),
                        formatter.windSpeed(hour.windSpeed),
                        UnitFormatter.percent(hour.precipProbability),
                    ] + (air.map { [$0[position]] } ?? []))
                previousDay = dayNumber
            }
            lines += table.lines()
            if air != nil, let shown = recentAir { airCredit = Self.creditLine(shown) }
            if let note = correctionLine(shown: rows.contains { forecast.isCorrected(.hour, at: $0.time) }) {
                lines.append(note)
            }
        }
        lines.append(updatedLine)
        lines.append(attributionLine)
        if let airCredit { lines.append(airCredit) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The temperature curve and the rain bars over `rows`.
    /// The rows of `hourly` that start within `hours` hours of the one in progress at `now`.
    static func rows(_ hourly: [HourlyForecast], hours: Int, now: Double) -> ArraySlice<HourlyForecast> {
        let upcoming = hourly.drop { $0.time + 3600 <= now }
        guard let first = upcoming.first else { return [] }
        let end = first.time + Double(max(hours, 0)) * 3600
        return upcoming.prefix { $0.time < end && $0.time + 3600 > now }
    }

    private func hourlyGraphics(_ rows: [HourlyForecast], _ graphics: TerminalGraphics) -> [String] {
        var lines: [BlockDrawing.Line] = []
        let temperatures = rows.map(\.temperature)
        let known = temperatures.compactMap { $0 }.filter(\.isFinite)
        if let low = known.min(), let high = known.max() {
            let span = tr(
                "{low} to {high}",
                ["low": formatter.spaced(low, .temperature), "high": formatter.spaced(high, .temperature)])
            lines.append(
                .init(label: tr("Temp"), values: temperatures, lower: low, upper: high, color: .yellow, caption: span))
        }
        let chances = rows.map(\.precipProbability)
        if let most = chances.compactMap({ $0 }).max() {
            lines.append(
                .init(
                    label: trc("column", "Rain"), values: chances, lower: 0, upper: 1, color: .blue,
                    caption: tr("up to {chance}", ["chance": UnitFormatter.percent(most)])))
        }
        return BlockDrawing.chart(lines, graphics: graphics)
    }

    // MARK: - daily

    /// The app's daily list: up to `days` days starting with today (the
    /// local date at `now`), as aligned columns.
    ///
    ///     Paris, next 7 days
    ///     Day  Date     Low  High  Wind   Rain  Summary
    ///     Thu  15 Jan   -3°    2°  5m/s    80%  Snow
    ///
    /// With block graphics (a terminal), each day's low–high is drawn as a
    /// bar between Low and High on one scale for the whole week, the way
    /// GNOME Weather draws it.
    ///
    /// With `width` (the terminal's columns), the table fits it: the bars go
    /// first, then the summaries are cut with `…`, so no row wraps.
    public func dailyView(days: Int = 7, graphics: TerminalGraphics = .none, width: Int? = nil) -> String {
        let today = local(now).daysSinceEpoch
        let rows = Array(forecast.daily.filter { date(of: $0).daysSinceEpoch >= today }.prefix(max(days, 0)))
        var lines = [trn("{place}, next day", "{place}, next {count} days", rows.count, ["place": placeName])]
        if rows.isEmpty {
            lines = [placeName, tr("No daily forecast from today on.")]
        } else {
            let extremes = rows.flatMap { [$0.temperatureMin, $0.temperatureMax] }.compactMap { $0 }.filter(\.isFinite)
            let scale = (extremes.min() ?? 0, extremes.max() ?? 0)
            var table = dailyTable(rows, graphics: graphics, bars: graphics.drawsBlocks && scale.1 > scale.0, scale)
            if let width, table.widest > width {
                table = dailyTable(rows, graphics: graphics, bars: false, scale)
                table.fitLastColumn(to: width)
            }
            lines += table.lines()
            let corrected = rows.contains {
                forecast.isCorrected(.low, at: $0.time) || forecast.isCorrected(.high, at: $0.time)
            }
            if let note = correctionLine(shown: corrected) { lines.append(note) }
        }
        lines.append(updatedLine)
        lines.append(attributionLine)
        return lines.joined(separator: "\n") + "\n"
    }

    private func dailyTable(
        _ rows: [DailyForecast], graphics: TerminalGraphics, bars: Bool, _ scale: (Double, Double)
    ) -> TextTable {
        var table = TextTable(
            bars
                ? [.left, .left, .right, .left, .left, .right, .right, .left]
                : [.left, .left, .right, .right, .right, .right, .left])
        table.append(
            bars
                ? [tr("Day"), tr("Date"), tr("Low"), "", tr("High"), tr("Wind"), trc("column", "Rain"), tr("Summary")]
                : [tr("Day"), tr("Date"), tr("Low"), tr("High"), tr("Wind"), trc("column", "Rain"), tr("Summary")])
        for day in rows {
            let shown = date(of: day)
            var row = [
                shown.shortWeekdayName, shown.shortDate,
                marked(formatter.temperature(day.temperatureMin), .low, at: day.time, aligned: true),
                marked(formatter.temperature(day.temperatureMax), .high, at: day.time, aligned: true),
                formatter.windSpeed(day.windSpeed), UnitFormatter.percent(day.precipProbability),
                Localization.translate(day.summary),
            ]
            if bars {
                let bar = BlockDrawing.range(
                    day.temperatureMin, day.temperatureMax, lower: scale.0, upper: scale.1, width: 20)
                row.insert(graphics.paint(bar, .cyan), at: 3)
            }
            table.append(row)
        }
        return table
    }

    // MARK: - tooltip

    /// A status bar's tooltip: short, and without columns (a bar's tooltip
    /// font is usually proportional, where padded columns drift), the
    /// credit once, last:
    ///
    ///     Paris: 12 °C  Light rain
    ///     Feels like 10 °C · wind 5 m/s SW · rain 30%
    ///     Next hours: 14:00 12°, 20% · 15:00 13°, 40% · 16:00 11°, 10%
    ///     Today: 8° to 13°, Light rain, rain 80%
    ///     Tomorrow: 6° to 11°, Overcast, rain 20%
    ///     Updated 3 h ago (stale)
    ///     Weather data by Open-Meteo.com (CC BY 4.0) https://open-meteo.com/
    ///
    /// The credit line says which provider answered and why when it is not
    /// the place's first choice, as under every view.
    public func tooltipView(hours: Int = 3, days: Int = 2) -> String {
        var lines: [String] = []
        if case let (current, observed)? = forecast.conditions(at: now) {
            let temperature = marked(
                formatter.spaced(current.temperature, .temperature), observed ? .current : .hour, at: current.time)
            let summary = Localization.translate(current.summary)
            lines.append(
                summary.isEmpty
                    ? tr("{place}: {temp}", ["place": placeName, "temp": temperature])
                    : tr("{place}: {temp}  {summary}", ["place": placeName, "temp": temperature, "summary": summary]))
            // Without a recent current block, the hour in progress stands in, and says so.
            if !observed {
                let start = local(current.time).hourMinute
                if let hour = forecast.hourInProgress(at: now) {
                    let end = local(forecast.stepEnd(ofHourAt: hour)).hourMinute
                    lines.append(tr("Forecast for {start}–{end}", ["start": start, "end": end]))
                } else {
                    lines.append(tr("Forecast for {start}", ["start": start]))
                }
            }
            let feels = formatter.spaced(current.apparentTemperature, .temperature)
            let speed = formatter.spaced(current.windSpeed, .windSpeed)
            let rain = UnitFormatter.percent(current.precipProbability)
            if let bearing = current.windBearing, current.windSpeed != nil {
                lines.append(
                    tr(
                        "Feels like {temp} · wind {speed} {dir} · rain {pct}",
                        ["temp": feels, "speed": speed, "dir": Self.compassPoint(degrees: bearing), "pct": rain]))
            } else {
                lines.append(
                    tr("Feels like {temp} · wind {speed} · rain {pct}", ["temp": feels, "speed": speed, "pct": rain]))
            }
            if observed { lines += SourceWording.lines(current.sources) }
        } else {
            lines.append(tr("{place}: nothing in this forecast is for now.", ["place": placeName]))
        }
        if let nowcast = forecast.nowcast?.at(now) { lines.append(nowcast.summary) }
        let hourly = forecast.hourly.filter { $0.time > now }.prefix(max(hours, 0)).map { hour in
            tr(
                "{time} {temp}, {pct}",
                [
                    "time": local(hour.time).hourMinute,
                    "temp": marked(formatter.temperature(hour.temperature), .hour, at: hour.time),
                    "pct": UnitFormatter.percent(hour.precipProbability),
                ])
        }
        // Translators: the hours' items, each "{time} {temp}, {pct}", joined with " · ".
        if !hourly.isEmpty { lines.append(tr("Next hours: {hours}", ["hours": hourly.joined(separator: " · ")])) }
        let today = local(now).daysSinceEpoch
        let upcoming = forecast.daily.filter { date(of: $0).daysSinceEpoch >= today }.prefix(max(days, 0))
        for day in upcoming { lines.append(tooltipDay(day, today: today)) }
        // Warnings the service listed and raind could not read: the alerts shown may not be all.
        if let unread = forecast.alertService.flatMap(Self.unreadLine) { lines.append(unread) }
        // Every value the tooltip shows may be corrected: the note whenever the forecast is.
        if let note = correctionLine(shown: true) { lines.append(note) }
        lines.append(updatedLine)
        lines.append(attributionLine)
        return lines.joined(separator: "\n")
    }

    /// A day in the tooltip: `Today: 8° to 13°, Light rain, rain 80%`,
    /// `Tomorrow: …`, `Sat: …` for later days; without a summary, none.
    private func tooltipDay(_ day: DailyForecast, today: Int) -> String {
        let shown = date(of: day)
        let summary = Localization.translate(day.summary)
        let values: KeyValuePairs<String, String> = [
            "low": marked(formatter.temperature(day.temperatureMin), .low, at: day.time),
            "high": marked(formatter.temperature(day.temperatureMax), .high, at: day.time),
            "summary": summary, "pct": UnitFormatter.percent(day.precipProbability),
            "weekday": shown.shortWeekdayName,
        ]
        switch (shown.daysSinceEpoch - today, summary.isEmpty) {
        case (0, false): return tr("Today: {low} to {high}, {summary}, rain {pct}", values)
        case (0, true): return tr("Today: {low} to {high}, rain {pct}", values)
        case (1, false): return tr("Tomorrow: {low} to {high}, {summary}, rain {pct}", values)
        case (1, true): return tr("Tomorrow: {low} to {high}, rain {pct}", values)
        case (_, false): return tr("{weekday}: {low} to {high}, {summary}, rain {pct}", values)
        case (_, true): return tr("{weekday}: {low} to {high}, rain {pct}", values)
        }
    }

    // MARK: - one line

    /// One line for status bars and `subscribe`: `Paris 12° Light rain, 5m/s, 30%`,
    /// with ` (stale)` when stale or outdated. The conditions are those of
    /// `Forecast.conditions(at:)` (the hour in progress without a recent
    /// current block); without any, the values read `–`.
    public func statusLine() -> String {
        let conditions = forecast.conditions(at: now)?.conditions
        var line =
            placeName + " " + formatter.temperature(conditions?.temperature)
            + (forecast.isCorrected(conditionsAt: now) ? Self.correctedMark : "")
        if let summary = conditions?.summary, !summary.isEmpty { line += " " + Localization.translate(summary) }
        line = Localization.list([
            line, formatter.windSpeed(conditions?.windSpeed), UnitFormatter.percent(conditions?.precipProbability),
        ])
        return shownStale ? tr("{line} (stale)", ["line": line]) : line
    }

    // MARK: - helpers

    /// `N`, `NE`, ... `NW` for a bearing in degrees (where the wind comes from).
    static func compassPoint(degrees: Double) -> String {
        // Translators: the eight compass points a wind comes from, abbreviated.
        let points = [tr("N"), tr("NE"), tr("E"), tr("SE"), tr("S"), tr("SW"), tr("W"), tr("NW")]
        guard degrees.isFinite else { return "" }
        var normalized = degrees.truncatingRemainder(dividingBy: 360)
        if normalized < 0 { normalized += 360 }
        return points[Int((normalized / 45).rounded()) % 8]
    }
}
