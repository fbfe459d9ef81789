import RainCore

/// The rules a forecast must meet before raind keeps or serves it, whether it
/// was just parsed from a provider or read back from the cache: every time a
/// real date, every number finite and within what its quantity can be on
/// Earth (`PlausibleRange`: a temperature of 1e308 °C is broken data, from
/// any provider), the UTC offset one a place can have, no more hours, days
/// or steps than `ForecastHorizon` keeps.
/// Presentation and scheduling do arithmetic on these values; a value that
/// breaks the rules is refused here instead of trapping there.
extension Forecast {
    /// What is wrong, naming the field; nil when the forecast is usable.
    public func validationProblem() -> WireDecodingError? {
        var checker = Checker()
        checker.time("fetchedAt", fetchedAt)
        checker.time("expiresAt", expiresAt)
        if let failover, failover.provider.utf8.count > 64 || failover.reason.utf8.count > 256 {
            checker.fail("failover", "names a provider or a reason longer than raind writes")
        }
        if let wording = failover?.wording, !wording.fitsCache {
            checker.fail("failover.wording", "has more or longer parameters than raind writes")
        }
        if abs(utcOffsetSeconds) > ProviderOffset.maximumSeconds {
            checker.fail("utcOffsetSeconds", "\(utcOffsetSeconds) is outside ±18 hours")
        }
        if let current {
            checker.time("current.time", current.time)
            checker.measures(
                "current",
                [
                    (current.temperature, .temperature), (current.apparentTemperature, .temperature),
                    (current.humidity, .fraction), (current.windSpeed, .windSpeed), (current.windGust, .windSpeed),
                    (current.windBearing, .bearing), (current.precipIntensity, .precipitationIntensity),
                    (current.precipProbability, .fraction), (current.pressure, .pressure),
                    (current.visibility, .visibility), (current.uvIndex, .uvIndex), (current.cloudCover, .fraction),
                ])
            if let sources = current.sources { checker.sources(sources) }
        }
        for (index, hour) in hourly.enumerated() {
            checker.time("hourly[\(index)].time", hour.time)
            checker.measures(
                "hourly[\(index)]",
                [
                    (hour.temperature, .temperature), (hour.apparentTemperature, .temperature),
                    (hour.windSpeed, .windSpeed), (hour.windBearing, .bearing),
                    (hour.precipIntensity, .precipitationIntensity), (hour.precipProbability, .fraction),
                ])
        }
        for (index, day) in daily.enumerated() {
            checker.time("daily[\(index)].time", day.time)
            checker.time("daily[\(index)].sunrise", day.sunrise)
            checker.time("daily[\(index)].sunset", day.sunset)
            checker.measures(
                "daily[\(index)]",
                [
                    (day.temperatureMin, .temperature), (day.temperatureMax, .temperature),
                    (day.windSpeed, .windSpeed), (day.precipProbability, .fraction),
                    (day.precipAccumulation, .precipitationAmount),
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
            checker.measures("nowcast", [(nowcast.peakIntensity, .precipitationIntensity)])
            if !(1...86_400).contains(nowcast.resolutionSeconds) {
                checker.fail("nowcast.resolutionSeconds", "\(nowcast.resolutionSeconds) is not between 1 s and a day")
            }
            for (index, step) in nowcast.steps.enumerated() {
                checker.time("nowcast.steps[\(index)].time", step.time)
                checker.measures(
                    "nowcast.steps[\(index)]",
                    [(step.precipIntensity, .precipitationIntensity), (step.precipProbability, .fraction)])
            }
        }
        if checker.problem == nil, let problem = ForecastHorizon.problem(self) { return problem }
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

        mutating func measures(_ field: String, _ values: [(Double?, PlausibleRange)]) {
            for case let (value?, range) in values where !value.isFinite || !range.values.contains(value) {
                fail(
                    field,
                    "holds \(value), which is no \(range.what) (expected \(Int(range.values.lowerBound)) to \(Int(range.values.upperBound))\(range.unit))"
                )
            }
        }

        /// At most `ValueSource.maximumCount` sources, each naming known
        /// values once, a station name of at most `maximumStationBytes`, a
        /// distance on Earth and a height difference a station can have.
        mutating func sources(_ sources: [ValueSource]) {
            if sources.count > ValueSource.maximumCount {
                fail("current.sources", "holds \(sources.count) stations, more than \(ValueSource.maximumCount)")
            }
            for (index, source) in sources.prefix(ValueSource.maximumCount).enumerated() {
                let field = "current.sources[\(index)]"
                if source.values.count > ValueSource.maximumValues || Set(source.values).count != source.values.count
                    || !source.values.allSatisfy({ ValueSource.Value(rawValue: $0) != nil })
                {
                    fail(field + ".values", "names values raind does not, or one twice")
                }
                if source.station.isEmpty || source.station.utf8.count > ValueSource.maximumStationBytes
                    || source.station.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                {
                    fail(field + ".station", "is empty, longer than raind writes or holds control characters")
                }
                if let distance = source.distanceMetres, !distance.isFinite || !(0...20_040_000).contains(distance) {
                    fail(field + ".distanceMetres", "\(distance) is no distance on Earth")
                }
                if let height = source.heightDifferenceMetres, !height.isFinite || abs(height) > 9_000 {
                    fail(field + ".heightDifferenceMetres", "\(height) is no height difference between stations")
                }
            }
        }
    }
}

/// What a value of each quantity can be, in the SI units a forecast holds.
/// Generous: records lie well inside (−89 °C to 57 °C, gusts of 113 m/s);
/// a value outside is a broken or hostile answer, refused for every
/// provider alike (docs/PROVIDERS.md, "What raind keeps").
enum PlausibleRange {
    case temperature, fraction, windSpeed, bearing, precipitationIntensity, precipitationAmount
    case pressure, visibility, uvIndex

    var values: ClosedRange<Double> {
        switch self {
        case .temperature: -150...150
        case .fraction: 0...1
        case .windSpeed: 0...200
        case .bearing: 0...360
        case .precipitationIntensity: Nowcast.plausibleIntensity
        case .precipitationAmount: 0...(Nowcast.plausibleIntensity.upperBound * 24)
        case .pressure: 0...2000
        case .visibility: 0...100_000
        case .uvIndex: 0...100
        }
    }

    var what: String {
        switch self {
        case .temperature: "temperature"
        case .fraction: "fraction"
        case .windSpeed: "wind speed"
        case .bearing: "bearing"
        case .precipitationIntensity: "rain rate"
        case .precipitationAmount: "day's rain"
        case .pressure: "pressure"
        case .visibility: "visibility"
        case .uvIndex: "UV index"
        }
    }

    var unit: String {
        switch self {
        case .temperature: " °C"
        case .fraction: ""
        case .windSpeed: " m/s"
        case .bearing: "°"
        case .precipitationIntensity: " mm/h"
        case .precipitationAmount: " mm"
        case .pressure: " hPa"
        case .visibility: " km"
        case .uvIndex: ""
        }
    }
}
