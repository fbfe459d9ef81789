import Testing

@testable import RainCore

/// The alerts in `now`, in bar templates and in waybar's class, with a fixed clock.
@Suite struct AlertPresentationTests {
    /// 2026-01-15T10:00 in Paris (UTC+1), a Thursday.
    let now = 1_768_467_600.0
    let hour = 3600.0

    var flood: WeatherAlert {
        WeatherAlert(title: "Flood warning", severity: .extreme, start: now - hour, source: "dwd")
    }
    var storm: WeatherAlert {
        WeatherAlert(
            title: "Storm warning", severity: .severe, start: now - hour, end: now + 8 * hour, id: "s1",
            source: "meteoalarm", approximate: true)
    }
    var frost: WeatherAlert {
        WeatherAlert(
            title: "Frost warning", severity: .moderate, start: now - hour, end: now + 23 * hour, id: "f1",
            onset: now + 16 * hour, source: "meteoalarm")
    }
    var ended: WeatherAlert {
        WeatherAlert(title: "Fog warning", severity: .minor, start: now - 5 * hour, end: now - hour)
    }
    var cancel: WeatherAlert {
        WeatherAlert(title: "Storm cancelled", severity: .severe, start: now - 60, messageType: .cancel)
    }

    func forecast(_ alerts: [WeatherAlert], service: AlertService? = nil) -> Forecast {
        var forecast = Forecast(
            provider: "test", fetchedAt: now - 240, timeZone: "Europe/Paris", utcOffsetSeconds: 3600,
            current: CurrentConditions(time: now, summary: "Rain", temperature: 4), alerts: alerts)
        forecast.alertService = service
        return forecast
    }

    func nowView(_ forecast: Forecast) -> [String] {
        ForecastPresenter(forecast: forecast, placeName: "Paris", units: .si, now: now).nowView()
            .split(separator: "\n").map(String.init)
    }

    @Test func now_listsTheAlertsInEffectThenTheUpcomingOnes_first() {
        let lines = nowView(forecast([frost, ended, storm, cancel, flood]))
        #expect(
            Array(lines.prefix(5)) == [
                "Paris",
                "Alert (Extreme): Flood warning · dwd",
                "Alert (Severe): Storm warning until Thu 15 Jan 18:00 · meteoalarm (approximate area)",
                "Alert (Moderate): Frost warning from Fri 16 Jan 02:00 until Fri 16 Jan 09:00 · meteoalarm",
                "Thursday 15 January 2026, 10:00",
            ])
        #expect(!lines.contains { $0.contains("Fog") || $0.contains("cancelled") })
        // At its onset the frost warning is in effect, and runs until its end.
        let later = ForecastPresenter(
            forecast: forecast([frost]), placeName: "Paris", units: .si, now: now + 16 * hour
        ).nowView()
        #expect(later.contains("Alert (Moderate): Frost warning until Fri 16 Jan 09:00 · meteoalarm\n"), "\(later)")
    }

    @Test func now_saysWhenNoOfficialServiceCoversThePlace_andWhenItsPollFailed() {
        let none = nowView(forecast([], service: AlertService.none))
        #expect(none.suffix(3).first == "No official alert service for this place")
        let unknown = nowView(
            forecast([], service: AlertService(source: nil, problem: "the place's country is unknown")))
        #expect(unknown.contains("No official alert service for this place (the place's country is unknown)"))
        let failed = nowView(
            forecast([storm], service: AlertService(source: "dwd", problem: "HTTP 503; retrying in 10 min")))
        #expect(failed.contains("Official alerts from dwd: last check failed (HTTP 503)"))
        let fine = nowView(forecast([], service: AlertService(source: "dwd", checkedAt: now - 60)))
        #expect(!fine.contains { $0.contains("alert") || $0.contains("Alert") })
        #expect(!nowView(forecast([])).contains { $0.contains("alert") }, "not looked yet: nothing said")
    }

    /// MeteoAlarm's French warnings name départements by code only: `now`
    /// says they exist rather than implying there are none.
    @Test func now_saysWhenTheRegionsWarningsCannotBePlaced() {
        let two = nowView(
            forecast([], service: AlertService(source: "meteoalarm", checkedAt: now - 60, unplaced: 2)))
        #expect(
            two.contains(
                "Official alerts from meteoalarm: 2 warnings for this region name no area raind can place, so they are not shown"
            ))
        let one = nowView(forecast([], service: AlertService(source: "meteoalarm", unplaced: 1)))
        #expect(
            one.contains { $0.hasSuffix("1 warning for this region names no area raind can place, so it is not shown") }
        )
    }

    func render(_ template: String, _ alerts: [WeatherAlert], at time: Double? = nil) throws -> String {
        let values = BarValues(
            placeName: "Paris", forecast: forecast(alerts), units: .si, now: time ?? now, iconStyle: .text)
        return try BarTemplate(parsing: template).render(values)
    }

    @Test func templates_countTheAlertsInEffect_andTellTheHighestSeverityAndItsEnd() throws {
        let fields = "{alert_count}|{alert_severity}|{alert_until}|{alert}"
        #expect(try render(fields, [frost, storm, ended]) == "1|severe|18:00|Storm warning")
        #expect(try render(fields, [flood, storm]) == "2|extreme||Flood warning", "the flood has no end")
        #expect(try render(fields, [frost]) == "0|||", "upcoming is not in effect")
        #expect(try render(fields, []) == "0|||")
        // Ending tomorrow, and next week.
        #expect(try render("{alert_until}", [frost], at: now + 16 * hour) == "09:00")
        #expect(try render("{alert_until}", [frost], at: now + 10 * hour) == "", "not yet in effect")
        var long = storm
        long.end = now + 47 * hour
        #expect(try render("{alert_until}", [long]) == "Sat 09:00")
        long.end = now + 8 * 24 * hour
        #expect(try render("{alert_until}", [long]) == "Fri 23 Jan 10:00")
    }

    @Test func theBarsClass_carriesTheHighestSeverityInEffect() {
        func alertClass(_ alerts: [WeatherAlert]) -> String? {
            BarValues(placeName: "Paris", forecast: forecast(alerts), units: .si, now: now, iconStyle: .text)
                .alertClass
        }
        #expect(alertClass([storm, flood]) == "alert-extreme")
        #expect(alertClass([storm]) == "alert-severe")
        #expect(alertClass([WeatherAlert(title: "m", severity: .moderate)]) == "alert-moderate")
        #expect(alertClass([WeatherAlert(title: "m", severity: .minor)]) == "alert-minor")
        #expect(alertClass([frost, ended]) == nil)
    }
}
