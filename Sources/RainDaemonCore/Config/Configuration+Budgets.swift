import RainCore

/// What the configuration makes of the places and the providers: each
/// place's providers and air, and the budgets (docs/SCHEDULING.md shows
/// the arithmetic).
extension Configuration {
    /// The calls per month the configured provider's free plan allows, when
    /// its quota is counted by the month (`ProviderQuota`); nil otherwise.
    public var defaultMonthlyBudget: Int? {
        let quota = providerTerms.quota
        return quota.period == .month ? quota.freeCalls : nil
    }

    /// The configured provider's rules (with `Name=auto`, the default provider's).
    public var providerTerms: ProviderTerms { WeatherProviders.provider(provider ?? standardProvider).terms }

    /// The provider a place falls back on last, and whose rules apply where one provider's must.
    var standardProvider: ProviderName { providerOrder?.first ?? WeatherProviders.standard.name }

    /// Whether each place's order follows the providers' scores
    /// (docs/ACCURACY.md): `Name=auto` with no `Providers=` of the user's.
    public var followsScores: Bool { provider == nil && providerOrder == nil }

    /// The providers that may answer for `place`, best first: `Name=`'s
    /// alone; else `Providers=`'s, or the region's (`ProviderRegions`), each
    /// only where it has data (`ProviderCoverage`; a place of unknown country
    /// is left to the provider, which says when it has none).
    public func providers(for place: Location) -> [ProviderName] {
        if let provider { return [provider] }
        let order = providerOrder ?? ProviderRegions.preferred(for: place)
        let covered = order.filter { name in
            place.countryCode.isEmpty
                || WeatherProviders.provider(name).terms.coverage.covers(countryCode: place.countryCode)
        }
        return covered.isEmpty ? Array(order.prefix(1)) : covered
    }

    /// The air-quality service asked for `place`: that of the first provider
    /// of its list that has one and covers it; nil when `[Air] Enabled=no` or none does.
    public func airService(for place: Location) -> (any AirQualityService)? {
        guard airEnabled else { return nil }
        return providers(for: place).lazy.compactMap { WeatherProviders.provider($0).airQuality }.first {
            $0.covers(countryCode: place.countryCode.uppercased())
        }
    }

    /// The index shown for `place`: `[Air] Index=`, else the one customary in its country.
    public func airIndex(for place: Location) -> AirQualityIndex {
        airIndex ?? AirQualityIndex.defaultIndex(forCountry: place.countryCode)
    }

    /// What `Name=` says, as `GetStatus` reports it: a provider's name or `auto`.
    public var providerSetting: String { provider?.rawValue ?? "auto" }

    /// `Contact=`'s value when it can go into a User-Agent: an e-mail address
    /// or an http(s) URL, printable ASCII without spaces, parentheses or
    /// semicolons (which would end the User-Agent's comment).
    static func validContact(_ value: String) -> String? {
        guard (3...200).contains(value.utf8.count),
            value.utf8.allSatisfy({
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "(") && $0 != UInt8(ascii: ")") && $0 != UInt8(ascii: ";")
                    && $0 != UInt8(ascii: "\\")
            })
        else { return nil }
        let lower = value.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return validURL(value) == nil ? nil : value }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains(".") else { return nil }
        return value
    }

    /// "open-meteo or pirateweather": what `Name=` takes, from the table.
    static var providerNames: String {
        let names = ProviderName.allCases.map(\.rawValue)
        return names.count < 2
            ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// `name`'s budget in its own units: `DailyBudget=` and `MonthlyBudget=`
    /// when set (each provider gets them); else its free quota (a month's
    /// spread over 31 days a day, like `effectiveDailyBudget`); for a
    /// fair-use provider, its requests per place and interval for `places`
    /// places refreshed every `intervalSeconds`; else 1,500 calls a day.
    public func budget(
        for name: ProviderName, places: Int, intervalSeconds: Double
    ) -> (
        daily: Double, monthly: Double?, callsPerRequest: Double
    ) {
        let quota = WeatherProviders.provider(name).terms.quota
        let monthly = monthlyBudget ?? (quota.period == .month ? quota.freeCalls : nil)
        let daily: Double
        if let dailyBudget {
            daily = Double(dailyBudget)
        } else if let monthly {
            daily = Double(max(1, monthly / 31))
        } else if let fairUse = quota.fairUseRequestsPerPlaceAndInterval {
            daily =
                ProviderBudgets.fairUseDaily(
                    requestsPerPlaceAndInterval: fairUse, places: places, interval: intervalSeconds)
                * quota.callsPerRequest
        } else {
            daily = 1_500
        }
        return (daily, monthly.map(Double.init), quota.callsPerRequest)
    }

    /// The monthly budget in force: `MonthlyBudget=`, else the provider's.
    public var effectiveMonthlyBudget: Int? { monthlyBudget ?? defaultMonthlyBudget }

    /// The daily budget in force: `DailyBudget=`; else a month's budget spread
    /// over 31 days, so a month's quota lasts the whole month; else 1,500
    /// calls (483 of raind's Open-Meteo requests, which count 3.1 calls each,
    /// well inside the free API's 10,000 a day).
    public var effectiveDailyBudget: Int {
        if let dailyBudget { return dailyBudget }
        if let monthly = effectiveMonthlyBudget { return max(1, monthly / 31) }
        return 1_500
    }

    /// How often the selected place refreshes while its nowcast is in use,
    /// by default: as often as the provider's short-range data changes.
    /// Open-Meteo's `minutely_15` comes in quarter hours; Pirate Weather's
    /// `minutely` is renewed every few minutes, and 10 minutes keeps a day of
    /// it within its free plan's daily share (docs/SCHEDULING.md).
    public var defaultNowcastIntervalMinutes: Int { providerTerms.nowcastIntervalMinutes }

    /// The nowcast interval in force, in minutes; nil when `[Nowcast] Enabled=no`.
    public var effectiveNowcastIntervalMinutes: Int? {
        nowcastEnabled ? (nowcastIntervalMinutes ?? defaultNowcastIntervalMinutes) : nil
    }
}
