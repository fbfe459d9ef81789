import RainCore

/// Bright Sky sends hours only; raind's days are made from them, in the
/// place's time zone (`zone`; with nil the place's days cannot be known and
/// UTC days are made). A day's `time` is its local midnight. Its values come
/// from its own hours, and only when enough of them are known, so a day at
/// the end of the data does not claim a low or a high from a few hours:
///
/// - a day is listed when it has at least `minimumHours` hours;
/// - the low and the high, the highest chance of rain in an hour and the
///   highest hourly mean wind, each when at least `hoursForExtremes` of the
///   day's hours know that value (a day has 23 to 25);
/// - the total rain, when every hour of the day knows its rain;
/// - the icon and summary, from the hours between 06:00 and 22:00 local
///   (`daytime`), when at least `minimumHours` of them know theirs: rain,
///   sleet, snow or a thunderstorm for two hours or more makes the day's
///   icon (the most severe such), else the icon of most of those hours, by
///   day; else `unknown`.
///
/// Sunrise and sunset are not given by Bright Sky and stay unknown.
enum BrightSkyDays {
    static let minimumHours = 6
    static let hoursForExtremes = 20
    static let daytime = 6..<22

    /// Precipitation icons, most severe first: one of them for two hours
    /// makes the day's icon, since the day's rain is what people plan for.
    static let precipitationIcons = ["thunderstorm", "snow", "sleet", "rain"]
    /// The other icons, cloudiest first: a tie between them goes to the cloudier.
    static let skyIcons = ["fog", "wind", "cloudy", "partly-cloudy-day", "clear-day"]

    static let words = [
        "thunderstorm": "Thunderstorm", "snow": "Snow", "sleet": "Sleet", "rain": "Rain", "fog": "Fog",
        "wind": "Windy", "cloudy": "Cloudy", "partly-cloudy-day": "Partly cloudy", "clear-day": "Clear",
    ]

    /// The days of `hours` (in time order), each once.
    static func days(from hours: [HourlyForecast], zone: TimeZoneRules?) -> [DailyForecast] {
        func local(_ time: Double) -> CivilDateTime {
            zone?.local(time) ?? CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0)
        }
        func start(_ day: Int) -> Double { zone?.startOfDay(day) ?? Double(day) * 86_400 }

        var groups: [(day: Int, hours: [(hour: HourlyForecast, localHour: Int)])] = []
        for hour in hours {
            let time = local(hour.time)
            if groups.last?.day == time.daysSinceEpoch {
                groups[groups.count - 1].hours.append((hour, time.hour))
            } else {
                groups.append((time.daysSinceEpoch, [(hour, time.hour)]))
            }
        }
        return groups.compactMap { group in
            guard group.hours.count >= minimumHours else { return nil }
            let dayHours = group.hours.map(\.hour)
            let length = Int(((start(group.day + 1) - start(group.day)) / 3600).rounded())
            let temperatures = dayHours.compactMap(\.temperature)
            let rain = dayHours.compactMap(\.precipIntensity)
            let (icon, summary) = weather(group.hours.filter { daytime.contains($0.localHour) }.map(\.hour.icon))
            return DailyForecast(
                time: start(group.day), summary: summary, icon: icon,
                temperatureMin: enough(temperatures)?.min(), temperatureMax: enough(temperatures)?.max(),
                windSpeed: enough(dayHours.compactMap(\.windSpeed))?.max(),
                precipProbability: enough(dayHours.compactMap(\.precipProbability))?.max(),
                // An hour's rate in mm/h over its hour is its rain in mm.
                precipAccumulation: rain.count == dayHours.count && dayHours.count == length
                    ? rain.reduce(0, +) : nil,
                sunrise: nil, sunset: nil)
        }
    }

    /// `values` when there are enough of them for a low or a high.
    private static func enough(_ values: [Double]) -> [Double]? {
        values.count >= hoursForExtremes ? values : nil
    }

    /// The day's icon and summary from its daytime hours' icons.
    static func weather(_ icons: [String]) -> (icon: String, summary: String) {
        let known = icons.filter { $0 != BrightSkyRecord.unknownIcon }.map(dayVariant)
        guard known.count >= minimumHours else { return (BrightSkyRecord.unknownIcon, "") }
        for icon in precipitationIcons where known.filter({ $0 == icon }).count >= 2 {
            return (icon, words[icon] ?? "")
        }
        var best: (icon: String, count: Int)?
        for icon in precipitationIcons + skyIcons {
            let count = known.filter { $0 == icon }.count
            if count > (best?.count ?? 0) { best = (icon, count) }
        }
        guard let best else { return (BrightSkyRecord.unknownIcon, "") }
        return (best.icon, words[best.icon] ?? "")
    }

    private static func dayVariant(_ icon: String) -> String {
        switch icon {
        case "clear-night": return "clear-day"
        case "partly-cloudy-night": return "partly-cloudy-day"
        default: return icon
        }
    }
}
