/// The rules a forecast must meet before raind keeps or serves it, whether it
/// was just parsed from a provider or read back from the cache: every time a
/// real date, every number finite, the UTC offset one a place can have.
/// Presentation and scheduling do arithmetic on these values; a value that
/// breaks the rules is refused here instead of trapping there.
extension Forecast {
    /// Times raind accepts, in Unix seconds: 1970 to the year 3000.
    public static let plausibleTimes: ClosedRange<Double> = 0...32_503_680_000

    /// What is wrong, naming the field; nil when the forecast is usable.
    public func validationProblem() -> WireDecodingError? {
        var checker = Checker()
        checker.time("fetchedAt", fetchedAt)
        checker.time("expiresAt", expiresAt)
        if let failover, failover.provider.utf8.count > 64 || failover.reason.utf8.count > 256 {
            checker.fail("failover", "names a provider or a reason longer than raind writes")
        }
        if abs(utcOffsetSeconds) > ProviderOffset.maximumSeconds {
            checker.fail("utcOffsetSeconds", "\(utcOffsetSeconds) is outside ±18 hours")
        }
        if let current {
            checker.time("current.time", current.time)
            checker.numbers(
                "current",
                [
                    current.temperature, current.apparentTemperature, current.humidity, current.windSpeed,
                    current.windGust, current.windBearing, current.precipIntensity, current.precipProbability,
                    current.pressure, current.visibility, current.uvIndex, current.cloudCover,
                ])
        }
        for (index, hour) in hourly.enumerated() {
            checker.time("hourly[\(index)].time", hour.time)
            checker.numbers(
                "hourly[\(index)]",
                [
                    hour.temperature, hour.apparentTemperature, hour.windSpeed, hour.windBearing,
                    hour.precipIntensity, hour.precipProbability,
                ])
        }
        for (index, day) in daily.enumerated() {
            checker.time("daily[\(index)].time", day.time)
            checker.time("daily[\(index)].sunrise", day.sunrise)
            checker.time("daily[\(index)].sunset", day.sunset)
            checker.numbers(
                "daily[\(index)]",
                [
                    day.temperatureMin, day.temperatureMax, day.windSpeed, day.precipProbability,
                    day.precipAccumulation,
                ])
        }
        for (index, alert) in alerts.enumerated() {
            checker.time("alerts[\(index)].start", alert.start)
            checker.time("alerts[\(index)].end", alert.end)
        }
        if let nowcast {
            checker.time("nowcast.time", nowcast.time)
            checker.time("nowcast.coveredUntil", nowcast.coveredUntil)
            checker.time("nowcast.startsAt", nowcast.startsAt)
            checker.time("nowcast.stopsAt", nowcast.stopsAt)
            checker.numbers("nowcast", [nowcast.peakIntensity])
            if !(1...86_400).contains(nowcast.resolutionSeconds) {
                checker.fail("nowcast.resolutionSeconds", "\(nowcast.resolutionSeconds) is not between 1 s and a day")
            }
            for (index, step) in nowcast.steps.enumerated() {
                checker.time("nowcast.steps[\(index)].time", step.time)
                checker.numbers("nowcast.steps[\(index)]", [step.precipIntensity, step.precipProbability])
            }
        }
        return checker.problem
    }

    /// Collects the first problem found.
    private struct Checker {
        var problem: WireDecodingError?

        mutating func fail(_ field: String, _ reason: String) {
            if problem == nil { problem = WireDecodingError(field: field, reason: reason) }
        }

        mutating func time(_ field: String, _ value: Double?) {
            guard let value else { return }
            if !value.isFinite || !Forecast.plausibleTimes.contains(value) {
                fail(field, "\(value) is not a time between 1970 and 3000 in Unix seconds")
            }
        }

        mutating func numbers(_ field: String, _ values: [Double?]) {
            for case let value? in values where !value.isFinite {
                fail(field, "holds a number that is not finite")
            }
        }
    }
}
