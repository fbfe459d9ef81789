/// What `raindctl` prints for a forecast: the app's three views (`now`,
/// `hourly`, `daily`) and a one-line form for status bars and `subscribe`.
///
/// Pure formatting: every input is given, including the current time, so
/// the output is the same on every machine. Times are shown in the place's
/// local time using the forecast's `utcOffsetSeconds`; names are English.
/// Multi-line views end with a newline; the status line does not.
public struct ForecastPresenter: Sendable {
    public var forecast: Forecast
    /// The place's name as the person saved it (`Paris`).
    public var placeName: String
    public var units: UnitSystem
    /// Unix seconds, for "updated N min ago" and to skip past hours and days.
    public var now: Double
    /// Whether the daemon considers the forecast stale (shown as `(stale)`).
    public var isStale: Bool

    public init(forecast: Forecast, placeName: String, units: UnitSystem, now: Double, isStale: Bool = false) {
        self.forecast = forecast
        self.placeName = placeName
        self.units = units
        self.now = now
        self.isStale = isStale
    }

    private var formatter: UnitFormatter { UnitFormatter(system: units) }

    func local(_ unixSeconds: Double) -> CivilDateTime {
        CivilDateTime(unixSeconds: unixSeconds, utcOffsetSeconds: forecast.utcOffsetSeconds)
    }

    /// `Updated 4 min ago`, with ` (stale)` when stale.
    private var updatedLine: String {
        "Updated " + AgeText.describe(ageSeconds: now - forecast.fetchedAt) + (isStale ? " (stale)" : "")
    }

    // MARK: - now

    /// The app's main view:
    ///
    ///     Paris
    ///     Thursday 15 January 2026, 09:45
    ///     0°  Overcast
    ///     Feels like      -4°
    ///     Wind            3m/s SW
    ///     Chance of rain  5%
    ///     Updated 12 min ago
    ///
    /// The date and time are those of the conditions, in local time. Active
    /// alerts follow the rain chance, one line each.
    public func nowView() -> String {
        var lines = [placeName]
        if let current = forecast.current {
            let time = local(current.time)
            lines.append("\(time.weekdayName) \(time.day) \(time.monthName) \(time.year), \(time.hourMinute)")
            lines.append(
                current.summary.isEmpty
                    ? formatter.temperature(current.temperature)
                    : formatter.temperature(current.temperature) + "  " + current.summary)
            var table = TextTable([.left, .left])
            table.append(["Feels like", formatter.temperature(current.apparentTemperature)])
            var wind = formatter.windSpeed(current.windSpeed)
            if let bearing = current.windBearing, current.windSpeed != nil {
                wind += " " + Self.compassPoint(degrees: bearing)
            }
            table.append(["Wind", wind])
            table.append(["Chance of rain", UnitFormatter.percent(current.precipProbability)])
            lines += table.lines()
        } else {
            lines.append("No current conditions in this forecast.")
        }
        for alert in activeAlerts {
            var line = "Alert: " + alert.title
            if let end = alert.end {
                let until = local(end)
                line += " until \(until.shortWeekdayName) \(until.day) \(until.shortMonthName) \(until.hourMinute)"
            }
            lines.append(line)
        }
        lines.append(updatedLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Alerts not yet over at `now`.
    var activeAlerts: [WeatherAlert] {
        forecast.alerts.filter { alert in alert.end.map { $0 > now } ?? true }
    }

    // MARK: - hourly

    /// The app's hourly strip: up to `hours` hours starting with the hour in
    /// progress at `now`, as aligned columns. The weekday is shown on the
    /// first row and wherever the day changes.
    ///
    ///     Paris, next 3 hours
    ///     Day  Time   Temp  Wind  Rain
    ///     Thu  09:00   -2°  3m/s    0%
    ///          10:00   -1°  3m/s    5%
    public func hourlyView(hours: Int) -> String {
        let rows = forecast.hourly.filter { $0.time + 3600 > now }.prefix(max(hours, 0))
        var lines = [placeName + ", next " + (rows.count == 1 ? "hour" : "\(rows.count) hours")]
        if rows.isEmpty {
            lines = [placeName, "No hourly forecast from now on."]
        } else {
            var table = TextTable([.left, .left, .right, .right, .right])
            table.append(["Day", "Time", "Temp", "Wind", "Rain"])
            var previousDay: Int?
            for hour in rows {
                let time = local(hour.time)
                let dayNumber = time.daysSinceEpoch
                table.append([
                    dayNumber == previousDay ? "" : time.shortWeekdayName, time.hourMinute,
                    formatter.temperature(hour.temperature), formatter.windSpeed(hour.windSpeed),
                    UnitFormatter.percent(hour.precipProbability),
                ])
                previousDay = dayNumber
            }
            lines += table.lines()
        }
        lines.append(updatedLine)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - daily

    /// The app's daily list: up to `days` days starting with today (the
    /// local date at `now`), as aligned columns.
    ///
    ///     Paris, next 7 days
    ///     Day  Date     Low  High  Wind   Rain  Summary
    ///     Thu  15 Jan   -3°    2°  5m/s    80%  Snow
    public func dailyView(days: Int = 7) -> String {
        let today = local(now).daysSinceEpoch
        let rows = forecast.daily.filter { local($0.time).daysSinceEpoch >= today }.prefix(max(days, 0))
        var lines = [placeName + ", next " + (rows.count == 1 ? "day" : "\(rows.count) days")]
        if rows.isEmpty {
            lines = [placeName, "No daily forecast from today on."]
        } else {
            var table = TextTable([.left, .left, .right, .right, .right, .right, .left])
            table.append(["Day", "Date", "Low", "High", "Wind", "Rain", "Summary"])
            for day in rows {
                let date = local(day.time)
                table.append([
                    date.shortWeekdayName, "\(date.day) \(date.shortMonthName)",
                    formatter.temperature(day.temperatureMin), formatter.temperature(day.temperatureMax),
                    formatter.windSpeed(day.windSpeed), UnitFormatter.percent(day.precipProbability),
                    day.summary,
                ])
            }
            lines += table.lines()
        }
        lines.append(updatedLine)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - one line

    /// One line for status bars and `subscribe`: `Paris 12° Light rain, 5m/s, 30%`,
    /// with ` (stale)` when stale. Without current conditions, the hour in
    /// progress stands in; without either, the values read `--`.
    public func statusLine() -> String {
        let conditions: (temperature: Double?, summary: String, wind: Double?, rain: Double?)
        if let current = forecast.current {
            conditions = (current.temperature, current.summary, current.windSpeed, current.precipProbability)
        } else if let hour = forecast.hourly.last(where: { $0.time <= now && now < $0.time + 3600 }) {
            conditions = (hour.temperature, hour.summary, hour.windSpeed, hour.precipProbability)
        } else {
            conditions = (nil, "", nil, nil)
        }
        var line = placeName + " " + formatter.temperature(conditions.temperature)
        if !conditions.summary.isEmpty { line += " " + conditions.summary }
        line += ", " + formatter.windSpeed(conditions.wind) + ", " + UnitFormatter.percent(conditions.rain)
        if isStale { line += " (stale)" }
        return line
    }

    // MARK: - helpers

    /// `N`, `NE`, ... `NW` for a bearing in degrees (where the wind comes from).
    static func compassPoint(degrees: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        guard degrees.isFinite else { return "" }
        var normalized = degrees.truncatingRemainder(dividingBy: 360)
        if normalized < 0 { normalized += 360 }
        return points[Int((normalized / 45).rounded()) % 8]
    }
}
