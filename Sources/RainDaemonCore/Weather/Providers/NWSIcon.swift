import RainCore

/// raind's icon for an api.weather.gov forecast period, read from the
/// period's icon URL: `https://api.weather.gov/icons/land/day/tsra,40?size=small`
/// is a thunderstorm by day (40 is the chance of rain). The API's icon
/// service lists the condition codes (https://api.weather.gov/icons) and is
/// to be replaced by a condition key (weather-gov/api discussion 733); until
/// then the URL is the only condition the periods give besides their text.
///
/// | NWS codes | raind icon |
/// | --- | --- |
/// | `skc` (fair), `few` (a few clouds) | `clear-day` / `clear-night` |
/// | `sct` (partly cloudy), `bkn` (mostly cloudy) | `partly-cloudy-day` / `partly-cloudy-night` |
/// | `ovc` (overcast) | `cloudy` |
/// | `wind_skc`, `wind_few`, `wind_sct`, `wind_bkn`, `wind_ovc` | `wind` |
/// | `rain`, `rain_showers`, `rain_showers_hi` | `rain` |
/// | `snow`, `blizzard` | `snow` |
/// | `rain_snow`, `rain_sleet`, `snow_sleet`, `sleet`, `fzra`, `rain_fzra`, `snow_fzra` | `sleet` |
/// | `tsra`, `tsra_sct`, `tsra_hi`, `tornado` | `thunderstorm` |
/// | `hurricane`, `tropical_storm` | `wind` |
/// | `fog`, `haze`, `smoke`, `dust` | `fog` |
/// | `hot`, `cold` | no sky of their own: the URL's other code, else `unknown` |
///
/// `bkn` (5 to 7 eighths of cloud) is partly cloudy as the Forecast API's
/// vocabulary draws it; only overcast is `cloudy`. A 12-hour period's URL
/// may hold two codes, one for each half (`/day/sct/tsra_hi,30`, "Mostly
/// Sunny then Chance Showers And Thunderstorms"): the more significant one
/// wins, in the order thunderstorm, storm wind, sleet, snow, rain, fog,
/// wind, overcast, partly cloudy, clear. A URL that is not of this form,
/// or holds a code not listed here, is `unknown`.
enum NWSIcon {
    /// What a code says, most significant first.
    enum Condition: Int, Comparable {
        case thunderstorm, stormWind, sleet, snow, rain, fog, wind, overcast, partlyCloudy, clear

        static func < (lhs: Condition, rhs: Condition) -> Bool { lhs.rawValue < rhs.rawValue }

        func icon(isDay: Bool) -> String {
            let drawn: WeatherCondition
            switch self {
            case .thunderstorm: drawn = .thunderstorm
            case .stormWind, .wind: drawn = .wind
            case .sleet: drawn = .sleet
            case .snow: drawn = .snow
            case .rain: drawn = .rain
            case .fog: drawn = .fog
            case .overcast: drawn = .cloudy
            case .partlyCloudy: drawn = .partlyCloudy
            case .clear: drawn = .clear
            }
            return drawn.icon(isDay: isDay)
        }
    }

    /// raind's word for a condition it cannot tell.
    static let unknown = WeatherIcon.unknown

    /// The condition of each code.
    static let conditions: [String: Condition] = [
        "skc": .clear, "few": .clear, "sct": .partlyCloudy, "bkn": .partlyCloudy, "ovc": .overcast,
        "wind_skc": .wind, "wind_few": .wind, "wind_sct": .wind, "wind_bkn": .wind, "wind_ovc": .wind,
        "rain": .rain, "rain_showers": .rain, "rain_showers_hi": .rain,
        "snow": .snow, "blizzard": .snow,
        "rain_snow": .sleet, "rain_sleet": .sleet, "snow_sleet": .sleet, "sleet": .sleet, "fzra": .sleet,
        "rain_fzra": .sleet, "snow_fzra": .sleet,
        "tsra": .thunderstorm, "tsra_sct": .thunderstorm, "tsra_hi": .thunderstorm, "tornado": .thunderstorm,
        "hurricane": .stormWind, "tropical_storm": .stormWind,
        "fog": .fog, "haze": .fog, "smoke": .fog, "dust": .fog,
    ]

    /// Codes that say only the temperature, not the sky.
    static let temperatureOnly: Set<String> = ["hot", "cold"]

    /// raind's icon for the URL `url`; `unknown` when it cannot be read.
    static func icon(url: String) -> String {
        // The path after `/icons/`, without a query or fragment.
        let bytes = Array(url.utf8)
        let marker = Array("/icons/".utf8)
        guard bytes.count <= 512, bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<$0 + marker.count].elementsEqual(marker)
            })
        else { return unknown }
        let rest = bytes[(start + marker.count)...]
        let path = rest.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard (3...4).contains(segments.count), segments[0] == "land" || segments[0] == "sea" else { return unknown }
        let isDay: Bool
        switch segments[1] {
        case "day": isDay = true
        case "night": isDay = false
        default: return unknown
        }
        var best: Condition?
        for segment in segments[2...] {
            guard let code = self.code(segment) else { return unknown }
            if temperatureOnly.contains(code) { continue }
            guard let condition = conditions[code] else { return unknown }
            if best.map({ condition < $0 }) ?? true { best = condition }
        }
        return best?.icon(isDay: isDay) ?? unknown
    }

    /// The code of a segment `code` or `code,NN` (NN the chance in percent, 0 to 100).
    private static func code(_ segment: String) -> String? {
        let parts = segment.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts[0].utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
            )
        else { return nil }
        if parts.count == 2 {
            let digits = parts[1].utf8
            guard (1...3).contains(digits.count),
                digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let chance = Int(parts[1]), chance <= 100
            else { return nil }
        }
        return String(parts[0])
    }
}
