import RainCore

/// A provider's air-quality service: the second kind of data a provider
/// may give for a place, beside its forecast (`WeatherProvider.airQuality`).
/// Like a provider, it says how to ask (`request`), what the answer means
/// (`parse`) and its terms: how often its model is renewed, the jitter, and
/// what a request costs in the provider's own units, counted against the
/// provider's budget. What every request shares (timeouts, statuses,
/// validation, caching) is the daemon's (`AirWatcher`).
public protocol AirQualityService: Sendable {
    /// The provider it belongs to: its budget counts these requests.
    var provider: ProviderName { get }
    /// Where requests go unless `[Air] BaseURL=` says otherwise, without a trailing slash.
    var defaultBaseURL: String { get }
    /// The credit the provider's licence asks for, shown with the data.
    var attribution: Attribution { get }
    /// How often the model behind it is renewed, in seconds: the selected
    /// place is asked no more often than this.
    var updateInterval: Double { get }
    /// Scheduled requests are delayed by a random 0...`jitterFraction` of their interval.
    var jitterFraction: Double { get }

    /// Whether the service has data for a place in this country (ISO 3166-1
    /// alpha-2, upper case; empty when unknown).
    func covers(countryCode: String) -> Bool

    /// The request for `place`'s air on `index`, and what it costs in the
    /// provider's units (`ProviderQuota.callsPerRequest`'s unit).
    func request(for place: Location, index: AirQualityIndex) -> (request: ProviderRequest, calls: Double)

    /// Reads a successful (200) answer. Throws on a body that is not the
    /// service's answer; values are checked again by the caller
    /// (`AirQuality.validationProblem()`).
    func parse(_ body: [UInt8], index: AirQualityIndex, fetchedAt: Double) throws(ProviderParseError) -> AirQuality
}

extension WeatherProvider {
    /// No air-quality service, unless the provider has one (Open-Meteo's).
    public var airQuality: (any AirQualityService)? { nil }
}

extension AirQuality {
    /// Indexes, concentrations and counts raind accepts: beyond these no
    /// instrument or model reports, so a value there is a broken answer.
    public static let plausibleIndex = 0...2000
    public static let plausibleConcentration: ClosedRange<Double> = 0...100_000
    public static let plausibleUV: ClosedRange<Double> = 0...40
    public static let plausibleGrains: ClosedRange<Double> = 0...1_000_000
    /// Hours of `hourly` kept at most.
    public static let maximumHours = 168

    /// What is wrong, naming the field; nil when the data is usable. Read
    /// back from the cache and fresh from the provider alike.
    // Not optimized: the optimizer's instruction order for this function
    // changed with where the tree was built (two checkouts of one commit gave
    // two packages, the difference only here), which a reproducible package
    // cannot have. It runs once per air update.
    @_optimize(none)
    public func validationProblem() -> WireDecodingError? {
        func fail(_ field: String, _ reason: String) -> WireDecodingError {
            WireDecodingError(field: field, reason: reason)
        }
        func isTime(_ value: Double) -> Bool { value.isFinite && Forecast.plausibleTimes.contains(value) }
        guard isTime(fetchedAt) else { return fail("fetchedAt", "\(fetchedAt) is not a time") }
        if let time, !isTime(time) { return fail("time", "\(time) is not a time") }
        if let aqi, !Self.plausibleIndex.contains(aqi) { return fail("aqi", "\(aqi) is outside 0–2000") }
        if category != aqi.map(index.category(of:)) || level != category?.level {
            return fail("category", "does not follow from the index")
        }
        for (name, value) in [("pm25", pm25), ("pm10", pm10), ("o3", o3), ("no2", no2)] {
            if let value, !(value.isFinite && Self.plausibleConcentration.contains(value)) {
                return fail(name, "\(value) µg/m³ is not a concentration")
            }
        }
        if let uvIndex, !(uvIndex.isFinite && Self.plausibleUV.contains(uvIndex)) {
            return fail("uvIndex", "\(uvIndex) is outside 0–40")
        }
        if uvCategory != uvIndex.map(UVCategory.init(index:)) {
            return fail("uvCategory", "does not follow from uvIndex")
        }
        for entry in pollen where !(entry.grains.isFinite && Self.plausibleGrains.contains(entry.grains)) {
            return fail("pollen.\(entry.kind.rawValue)", "\(entry.grains) grains/m³ is not a count")
        }
        if Set(pollen.map(\.kind)).count != pollen.count { return fail("pollen", "names a type twice") }
        if hourly.count > Self.maximumHours { return fail("hourly", "more than \(Self.maximumHours) hours") }
        for (position, hour) in hourly.enumerated() {
            if !isTime(hour.time) { return fail("hourly[\(position)].time", "\(hour.time) is not a time") }
            if let aqi = hour.aqi, !Self.plausibleIndex.contains(aqi) {
                return fail("hourly[\(position)].aqi", "\(aqi) is outside 0–2000")
            }
            if let uv = hour.uvIndex, !(uv.isFinite && Self.plausibleUV.contains(uv)) {
                return fail("hourly[\(position)].uvIndex", "\(uv) is outside 0–40")
            }
        }
        if provider.utf8.count > 64 || (problem?.utf8.count ?? 0) > 4 * Self.maximumProblemCharacters {
            return fail("provider", "a name or problem longer than raind writes")
        }
        if let wording, !wording.fitsCache { return fail("wording", "more or longer parameters than raind writes") }
        return nil
    }
}
