import RainCore

/// What raind keeps of one place to judge its providers by
/// (docs/ACCURACY.md): what each provider's forecasts said for each hour
/// at the lead times of `leadHours`, and what the verifying station
/// observed in each hour. Pure: the time is a parameter. Bounded: hours
/// older than `keptSeconds` are dropped, and no record holds more than
/// `maximumSamples` samples or `maximumObservedHours` hours.
public struct AccuracyRecord: Codable, Sendable, Equatable {
    public var version = Self.currentVersion
    /// The verifying station's id (its source's), whose hours `observed` holds;
    /// another station's observation starts them anew.
    public var station: String?
    /// Ordered by provider, lead and hour.
    public var samples: [ForecastSample] = []
    /// Ordered by hour.
    public var observed: [ObservedHour] = []
    /// Which provider the scores put first under `Name=auto`, and the days towards a change.
    public var ranking: ProviderRanking?
    /// What was taken from history for the place's first scores; set once,
    /// so that raind does not ask again (`AccuracyKeeper+Backfill`).
    public var backfill: AccuracyBackfill?

    public static let currentVersion = 1
    /// The lead times judged, hours: a forecast's sample for an hour at lead
    /// L was fetched between L and L + `leadSpanHours` hours before it.
    public static let leadHours = [6, 24, 48]
    public static let leadSpanHours = 3
    /// The longest scoring window (30 days) and the longest lead beside it:
    /// a sample or an hour older than this can never be scored.
    public static let keptSeconds: Double = 32 * 86_400
    /// Three lead times of eight providers over the kept hours and the
    /// forecasts' own reach (51 h ahead): 3 × 8 × (768 + 51) < 20 000.
    public static let maximumSamples = 20_000
    /// One per hour of the kept span.
    public static let maximumObservedHours = 32 * 24 + 1
    /// The most raind writes is 20 000 samples of under 190 bytes and 769 hours of under 130.
    public static let maximumBytes = 4 << 20
    /// Precipitation at or above this in the hour counts as rain, mm.
    public static let rainMillimetres = 0.1
    /// A forecast's icons that say it rains (any precipitation, as the stations report it).
    public static let rainIcons: Set<String> = ["rain", "sleet", "snow", "thunderstorm"]

    public init(station: String? = nil, samples: [ForecastSample] = [], observed: [ObservedHour] = []) {
        self.station = station
        self.samples = samples
        self.observed = observed
    }

    /// Whether a forecast hour says it rains: ≥ 0.1 mm in the hour, or a
    /// rain icon; nil when it says neither amount nor icon.
    public static func wet(_ hour: HourlyForecast) -> Bool? {
        if let intensity = hour.precipIntensity, intensity >= rainMillimetres { return true }
        if rainIcons.contains(hour.icon) { return true }
        if hour.precipIntensity != nil || !hour.icon.isEmpty { return false }
        return nil
    }

    /// Keeps `forecast`'s samples: for each lead time L, the hours L to
    /// L + `leadSpanHours` after it was fetched; a sample already kept for
    /// the same provider, lead and hour is replaced by one fetched later
    /// (nearer the lead time). Hours past `keptSeconds` are dropped.
    public mutating func record(_ served: Forecast, now: Double) {
        // The provider's own temperatures are judged, never raind's correction of them.
        let forecast = served.uncorrected
        let issued = forecast.fetchedAt
        var fresh: [ForecastSample] = []
        for point in forecast.hourly where point.time.truncatingRemainder(dividingBy: 3600) == 0 {
            let ahead = point.time - issued
            for lead in Self.leadHours
            where ahead >= Double(lead * 3600) && ahead < Double((lead + Self.leadSpanHours) * 3600) {
                fresh.append(
                    ForecastSample(
                        provider: forecast.provider, lead: lead, hour: point.time, issuedAt: issued,
                        temperature: point.temperature, rain: Self.wet(point),
                        rainProbability: point.precipProbability, windSpeed: point.windSpeed))
            }
        }
        merge(fresh, now: now)
    }

    /// Adds `fresh` samples (a later issue wins for the same provider, lead and hour), then trims.
    public mutating func merge(_ fresh: [ForecastSample], now: Double) {
        guard !fresh.isEmpty else {
            trim(now: now)
            return
        }
        var byKey: [SampleKey: ForecastSample] = [:]
        for sample in samples { byKey[SampleKey(sample)] = sample }
        for sample in fresh {
            let key = SampleKey(sample)
            // What raind kept as it came outranks the archive; else the later issue wins.
            if let kept = byKey[key] {
                let keptReal = kept.backfilled != true
                let freshReal = sample.backfilled != true
                if keptReal && !freshReal { continue }
                if keptReal == freshReal && kept.issuedAt >= sample.issuedAt { continue }
            }
            byKey[key] = sample
        }
        samples = byKey.values.sorted { SampleKey($0) < SampleKey($1) }
        trim(now: now)
    }

    /// Keeps what the station observed in `observation`'s hour (the nearest
    /// hour's start); of two observations for one hour, the nearer one.
    public mutating func record(_ observation: Observation, now: Double) {
        if station != observation.station.id {
            station = observation.station.id
            observed = []
        }
        let hour = (observation.time / 3600).rounded() * 3600
        let rainCode = observation.weather.contains { $0.isPrecipitation }
        var rain: Bool? = rainCode
        if let amount = observation.precipitation, observation.precipitationHours == 1 {
            rain = rainCode || amount >= Self.rainMillimetres
        }
        // A value an observation may hold but no record keeps (a 94 °C the
        // station sent) is unknown here, so the file always reads back.
        let fresh = ObservedHour(
            hour: hour, observedAt: observation.time,
            temperature: observation.temperature.flatMap { Self.temperatures.contains($0) ? $0 : nil }, rain: rain,
            windSpeed: observation.windSpeed.flatMap { Self.windSpeeds.contains($0) ? $0 : nil })
        if let index = observed.firstIndex(where: { $0.hour == hour }) {
            if abs(observed[index].observedAt - hour) <= abs(observation.time - hour) { return }
            observed[index] = fresh
        } else {
            observed.append(fresh)
            observed.sort { $0.hour < $1.hour }
        }
        trim(now: now)
    }

    /// Takes a backfill: `samples` from a provider's past runs (merged
    /// under the ones kept as they came, `merge`) and the station's
    /// `observations` of the past days, noted in `backfill` with `at` and `provider`.
    public mutating func takeBackfill(
        samples: [ForecastSample], observations: [Observation], provider: String, at time: Double
    ) {
        let before = observed.count
        for observation in observations { record(observation, now: time) }
        merge(samples, now: time)
        let oldest = time - Self.keptSeconds
        backfill = AccuracyBackfill(
            at: time, provider: provider, samples: samples.filter { $0.hour >= oldest }.count,
            observedHours: max(0, observed.count - before))
    }

    /// Drops what is older than `keptSeconds`, then the oldest past the counts' bounds.
    public mutating func trim(now: Double) {
        let oldest = now - Self.keptSeconds
        samples.removeAll { $0.hour < oldest }
        observed.removeAll { $0.hour < oldest }
        if samples.count > Self.maximumSamples {
            let cut = samples.map(\.hour).sorted()[samples.count - Self.maximumSamples]
            samples.removeAll { $0.hour < cut }
            if samples.count > Self.maximumSamples { samples.removeFirst(samples.count - Self.maximumSamples) }
        }
        if observed.count > Self.maximumObservedHours {
            observed.removeFirst(observed.count - Self.maximumObservedHours)
        }
    }

    /// The providers with samples, sorted.
    public var providers: [String] { Array(Set(samples.map(\.provider))).sorted() }

    struct SampleKey: Hashable, Comparable {
        var provider: String
        var lead: Int
        var hour: Double
        init(_ sample: ForecastSample) {
            provider = sample.provider
            lead = sample.lead
            hour = sample.hour
        }
        static func < (a: SampleKey, b: SampleKey) -> Bool {
            (a.provider, a.lead, a.hour) < (b.provider, b.lead, b.hour)
        }
    }
}
