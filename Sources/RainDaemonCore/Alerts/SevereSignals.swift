import RainCore

/// What in a forecast makes a warning likely soon, so that a place's
/// official alerts are asked for at the service's own rate
/// (`AlertPacing`). The thresholds sit at or a little below where the
/// national services begin to warn, because a model's hourly mean smooths
/// the peaks warnings are about; a signal only makes raind ask more often,
/// it warns nobody. docs/ALERTS.md, "Polling that follows the weather",
/// gives the services' own levels.
public enum SevereSignals {
    /// How far ahead the forecast is read.
    public static let lookAhead: Double = 12 * 3600
    /// Gusts (m/s), from the current conditions (raind's hours carry no
    /// gusts): 17.2 m/s is Beaufort 8, the DWD's storm gusts
    /// ("Sturmböen", a level-2 warning); the NWS's wind advisories begin at
    /// gusts of 46 mph (20.6 m/s).
    public static let gust: Double = 17.2
    /// Mean wind (m/s) in any hour: the NWS's wind advisories begin at a
    /// sustained 31 mph (13.9 m/s); Beaufort 7 begins at 13.9 m/s.
    public static let wind: Double = 13.9
    /// Rain (mm/h) in any hour: the DWD warns of heavy rain from 15 mm in
    /// an hour; an hourly model mean of 10 mm/h holds downpours above it.
    public static let heavyRain: Double = 10
    /// Snow or sleet (mm/h of water, about 1 cm of snow an hour): 5 to 6 cm
    /// in six hours is where the DWD's snowfall warnings turn to level 2,
    /// and the NWS's winter weather advisories begin at a few inches a day.
    public static let heavySnow: Double = 1
    /// Felt temperature (°C, the apparent one, else the air's) at or above:
    /// the DWD's heat warning begins at a felt 32 °C ("starke
    /// Wärmebelastung"); the NWS's heat advisories at a heat index of
    /// 100 to 105 °F (38 to 41 °C) in most offices.
    public static let heat: Double = 32
    /// Felt temperature (°C) at or below: between the DWD's severe frost
    /// (−10 °C in the air) and the NWS's cold weather advisories, which
    /// begin at a wind chill of 0 °F (−18 °C) in the South and lower in the North.
    public static let cold: Double = -15

    /// The first severe signal in `forecast` between `now` and
    /// `lookAhead` later, with when it begins; nil for a calm forecast.
    /// Signals are looked for in this order in each hour: thunderstorm,
    /// wind, heavy snow, heavy rain, heat, cold; the current conditions'
    /// gusts count from now.
    public static func first(in forecast: Forecast, now: Double) -> (reason: AlertPace.Reason, at: Double)? {
        if let current = forecast.current {
            if let gust = current.windGust, gust >= Self.gust { return (.gusts, max(now, current.time)) }
            if let reason = signal(
                icon: current.icon, wind: current.windSpeed, precipitation: current.precipIntensity,
                felt: current.apparentTemperature ?? current.temperature)
            {
                return (reason, max(now, current.time))
            }
        }
        for hour in forecast.hourly where hour.time + 3600 > now && hour.time < now + lookAhead {
            if let reason = signal(
                icon: hour.icon, wind: hour.windSpeed, precipitation: hour.precipIntensity,
                felt: hour.apparentTemperature ?? hour.temperature)
            {
                return (reason, max(now, hour.time))
            }
        }
        return nil
    }

    /// One hour's (or now's) signal. Values outside what weather can be
    /// (a fault in an answer that passed its checks) count as nothing.
    static func signal(icon: String, wind: Double?, precipitation: Double?, felt: Double?) -> AlertPace.Reason? {
        if icon == "thunderstorm" { return .thunderstorm }
        if let wind, wind.isFinite, wind >= Self.wind, wind < 150 { return .wind }
        if let precipitation, precipitation.isFinite, precipitation < 1000 {
            if icon == "snow" || icon == "sleet" {
                if precipitation >= heavySnow { return .heavySnow }
            } else if precipitation >= heavyRain {
                return .heavyRain
            }
        }
        if let felt, felt.isFinite, felt >= heat, felt < 80 { return .heat }
        if let felt, felt.isFinite, felt <= cold, felt > -100 { return .cold }
        return nil
    }
}
