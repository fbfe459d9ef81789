import Testing

@testable import RainCore
@testable import RainDaemonCore

/// A place's alert pace (`AlertPacing`, docs/ALERTS.md, "Polling that
/// follows the weather"): the service's own rate while an alert or a
/// severe forecast calls for it, the calm rate otherwise; with the clock
/// as a parameter.
@Suite struct AlertPacingTests {
    /// Wednesday 2025-09-17 08:00 UTC.
    let t0 = 1_758_096_000.0
    let hour = 3600.0
    let nws = NWSAlertSource().terms
    let place = LocationID("tillamook-or-us")

    /// 24 calm hours from `t0`: 12 °C, a breeze, a little rain.
    func calm() -> Forecast {
        Forecast(
            provider: "open-meteo", attribution: Attribution(text: "", url: ""), fetchedAt: t0,
            current: CurrentConditions(time: t0, icon: "cloudy", temperature: 12, windSpeed: 4, windGust: 9),
            hourly: (0..<24).map {
                HourlyForecast(
                    time: t0 + Double($0) * hour, icon: "rain", temperature: 12, windSpeed: 5, precipIntensity: 0.4)
            })
    }

    func pace(_ forecast: Forecast?, alerts: [WeatherAlert] = [], at now: Double? = nil) -> AlertPace {
        AlertPacing.pace(of: place, terms: nws, messages: alerts, forecast: forecast, now: now ?? t0)
    }

    @Test func aCalmPlace_isAskedEveryThirtyMinutes() {
        let calm = pace(calm())
        #expect(calm.pollingSeconds == 1800 && !calm.fast && calm.reason == .calm && calm.at == nil)
    }

    @Test func anAlertInEffectOrUpcoming_asksAtTheServicesOwnRate() {
        let upcoming = WeatherAlert(
            title: "High Wind Warning", severity: .severe, start: t0, end: t0 + 12 * hour, id: "A",
            onset: t0 + 6 * hour, messageType: .alert, source: "nws")
        let early = pace(calm(), alerts: [upcoming])
        #expect(early.pollingSeconds == 300 && early.fast && early.reason == .alertUpcoming)
        #expect(early.at == t0 + 6 * hour)
        #expect(pace(calm(), alerts: [upcoming], at: t0 + 7 * hour).reason == .alertInEffect)
        // Over at its end: calm again.
        #expect(pace(calm(), alerts: [upcoming], at: t0 + 12 * hour).reason == .calm)
        // A cancelled alert is no alert.
        let cancel = WeatherAlert(
            title: "Cancelled", severity: .minor, start: t0, end: t0 + 12 * hour, id: "B", messageType: .cancel,
            references: ["A"], source: "nws")
        #expect(pace(calm(), alerts: [upcoming, cancel]).reason == .calm)
    }

    @Test func noForecastYet_asksAtTheServicesOwnRate() {
        #expect(pace(nil).reason == .noForecast && pace(nil).pollingSeconds == 300)
    }

    /// Each signal, put in the tenth hour ahead, and each just below its threshold.
    @Test func eachSevereSignalWithinTwelveHours_asksAtTheServicesOwnRate() {
        let cases: [(AlertPace.Reason, (inout HourlyForecast) -> Void, (inout HourlyForecast) -> Void)] = [
            (.thunderstorm, { $0.icon = "thunderstorm" }, { $0.icon = "rain" }),
            (.wind, { $0.windSpeed = 13.9 }, { $0.windSpeed = 13.8 }),
            (.heavyRain, { $0.precipIntensity = 10 }, { $0.precipIntensity = 9.9 }),
            (
                .heavySnow, { ($0.icon, $0.precipIntensity) = ("snow", 1) },
                { ($0.icon, $0.precipIntensity) = ("snow", 0.9) }
            ),
            (.heavySnow, { ($0.icon, $0.precipIntensity) = ("sleet", 1.5) }, { $0.icon = "sleet" }),
            (.heat, { $0.apparentTemperature = 32 }, { $0.apparentTemperature = 31.9 }),
            (.heat, { $0.temperature = 33 }, { $0.temperature = 31 }),
            (.cold, { $0.apparentTemperature = -15 }, { $0.apparentTemperature = -14.9 }),
        ]
        for (reason, severe, below) in cases {
            var forecast = calm()
            severe(&forecast.hourly[10])
            let fast = pace(forecast)
            #expect(fast.fast && fast.pollingSeconds == 300 && fast.reason == reason, "\(reason)")
            #expect(fast.at == t0 + 10 * hour, "\(reason)")
            var quiet = calm()
            below(&quiet.hourly[10])
            #expect(pace(quiet).reason == .calm, "just below \(reason)")
        }
    }

    @Test func gustsNow_askAtTheServicesOwnRate() {
        var forecast = calm()
        forecast.current?.windGust = 17.2
        #expect(pace(forecast).reason == .gusts && pace(forecast).at == t0)
        forecast.current?.windGust = 17.1
        #expect(pace(forecast).reason == .calm)
    }

    @Test func aSignalBeyondTwelveHoursOrPast_isNotRead() {
        var forecast = calm()
        forecast.hourly[12].icon = "thunderstorm"
        #expect(pace(forecast).reason == .calm, "12 h ahead is beyond the look-ahead")
        #expect(pace(forecast, at: t0 + 1).reason == .thunderstorm, "within it a second later")
        forecast.hourly[12].icon = "rain"
        forecast.hourly[0].icon = "thunderstorm"
        #expect(pace(forecast, at: t0 + hour).reason == .calm, "an hour that is over")
    }

    @Test func impossibleValues_areNoSignal() {
        var forecast = calm()
        forecast.hourly[3].windSpeed = .infinity
        forecast.hourly[4].precipIntensity = .nan
        forecast.hourly[5].temperature = 400
        #expect(pace(forecast).reason == .calm)
    }

    /// The worst delay between the service publishing a warning and raind
    /// reading it, in each mode (docs/ALERTS.md): the interval and its
    /// jitter, and half the service's own interval for an answer shared
    /// with another place.
    @Test func theWorstDelays_areTheDocumentedOnes() {
        #expect(pace(nil).worstDelaySeconds == 480, "NWS fast: 5 min + 10 % + 2.5 min = 8 min")
        #expect(pace(calm()).worstDelaySeconds == 2130, "NWS calm: 30 min + 10 % + 2.5 min = 35.5 min")
        let meteoalarm = MeteoAlarmSource().terms
        #expect(
            AlertPacing.pace(of: place, terms: meteoalarm, messages: [], forecast: calm(), now: t0).worstDelaySeconds
                == 1800 * 1.25 + 450, "MeteoAlarm calm: 30 min + 25 % + 7.5 min = 45 min")
        for source in AlertSources.all {
            #expect(source.terms.calmPollingInterval <= 1800, "\(source.name): calm at most 30 min")
            #expect(source.terms.calmPollingInterval >= source.terms.pollingInterval, "\(source.name)")
        }
    }
}
