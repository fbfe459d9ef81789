import RainCore

/// How much of a forecast raind keeps, whatever a provider sends: the hours,
/// days, nowcast steps and provider alerts it shows and needs, and the
/// length of each provider-written text. Everything past these bounds is
/// cut while parsing (a provider's JSON arrays are built only up to
/// `arrayElements`, the rest checked and dropped) and before the forecast
/// is kept, so a forecast's size in memory, in the cache file and on the
/// wire has a small fixed bound (docs/PROVIDERS.md, "What raind keeps").
/// The bounds are far above what any provider is asked for (Open-Meteo: 7
/// days, 49 hours; Bright Sky: 11 days) and only stop a broken or hostile
/// answer, such as one of 300,000 hourly rows, from filling memory, disk
/// and every subscriber's queue.
public enum ForecastHorizon {
    /// Days kept: 16, the longest forecast any provider offers.
    public static let days = 16
    /// Hours kept: the same 16 days.
    public static let hours = days * 24
    /// Nowcast steps kept: four hours of one-minute steps, twice what a
    /// nowcast looks at (`Nowcast.horizon`).
    public static let nowcastSteps = 240
    /// A provider's own alerts kept (official services have `AlertLimits`).
    public static let alerts = 64
    /// A summary or an icon name, in UTF-8 bytes; cut at a character boundary.
    public static let textBytes = 512
    /// Elements of one JSON array a forecast parser builds: enough for
    /// every hour, day or record asked for, with room to spare; the rest is
    /// checked as JSON but never made into values.
    public static let arrayElements = 2_048

    /// Why a forecast is larger than raind keeps (read back from a cache
    /// file, say); nil when it is within the bounds.
    public static func problem(_ forecast: Forecast) -> WireDecodingError? {
        if forecast.hourly.count > hours {
            return WireDecodingError(field: "hourly", reason: "holds more than \(hours) hours")
        }
        if forecast.daily.count > days + 1 {
            return WireDecodingError(field: "daily", reason: "holds more than \(days + 1) days")
        }
        if let nowcast = forecast.nowcast, nowcast.steps.count > nowcastSteps {
            return WireDecodingError(field: "nowcast.steps", reason: "holds more than \(nowcastSteps) steps")
        }
        if forecast.alerts.count > AlertLimits.alertsPerPlace {
            return WireDecodingError(field: "alerts", reason: "holds more than \(AlertLimits.alertsPerPlace) alerts")
        }
        return nil
    }
}

extension Forecast {
    /// Cuts what lies past `ForecastHorizon`: the first hours, days and
    /// steps are kept (providers send them in time order), texts are cut at
    /// a character boundary, and one-line texts (summaries, icons, alert
    /// titles) have control and invisible formatting characters replaced. Returns what was cut, one sentence for the
    /// log, or nil when nothing was.
    public mutating func cutToHorizon() -> String? {
        var cut: [String] = []
        if hourly.count > ForecastHorizon.hours {
            cut.append("\(hourly.count) hours (raind keeps \(ForecastHorizon.hours))")
            hourly.removeSubrange(ForecastHorizon.hours...)
        }
        // One day more than the horizon: a forecast fetched late in the day still shows 16 days ahead.
        if daily.count > ForecastHorizon.days + 1 {
            cut.append("\(daily.count) days (raind keeps \(ForecastHorizon.days + 1))")
            daily.removeSubrange((ForecastHorizon.days + 1)...)
        }
        if var kept = nowcast, kept.steps.count > ForecastHorizon.nowcastSteps {
            cut.append("\(kept.steps.count) nowcast steps (raind keeps \(ForecastHorizon.nowcastSteps))")
            kept.steps.removeSubrange(ForecastHorizon.nowcastSteps...)
            nowcast = kept
        }
        if alerts.count > ForecastHorizon.alerts {
            cut.append("\(alerts.count) alerts (raind keeps \(ForecastHorizon.alerts))")
            alerts.removeSubrange(ForecastHorizon.alerts...)
        }
        var textCut = false
        // One line each: control and invisible formatting characters are shown as U+FFFD, never obeyed.
        func bounded(_ text: String) -> String {
            let visible = text.replacingControlCharacters()
            guard visible.utf8.count > ForecastHorizon.textBytes else { return visible }
            textCut = true
            return AlertLimits.truncated(visible, toBytes: ForecastHorizon.textBytes)
        }
        if var now = current {
            now.summary = bounded(now.summary)
            now.icon = bounded(now.icon)
            current = now
        }
        for index in hourly.indices {
            hourly[index].summary = bounded(hourly[index].summary)
            hourly[index].icon = bounded(hourly[index].icon)
        }
        for index in daily.indices {
            daily[index].summary = bounded(daily[index].summary)
            daily[index].icon = bounded(daily[index].icon)
        }
        for index in alerts.indices {
            alerts[index].title = AlertLimits.truncated(
                alerts[index].title.replacingControlCharacters(), toBytes: AlertLimits.titleBytes)
            alerts[index].description = AlertLimits.truncated(
                alerts[index].description, toBytes: AlertLimits.descriptionBytes)
            if alerts[index].regions.count > AlertLimits.regions {
                alerts[index].regions.removeSubrange(AlertLimits.regions...)
            }
        }
        if textCut { cut.append("texts longer than \(ForecastHorizon.textBytes) bytes") }
        guard !cut.isEmpty else { return nil }
        return "\(provider) sent more than raind keeps: \(cut.joined(separator: ", ")); the rest was left out"
    }
}
