import RainCore

/// raind's configuration: `raind.conf` and `raind.conf.d/*.conf` in the
/// systemd style. Every key and its default is documented in docs/CONFIGURATION.md.
public struct Configuration: Equatable, Sendable {
    /// A provider in `WeatherProviders.all`.
    public typealias ProviderName = RainDaemonCore.ProviderName

    // [Provider]
    /// `Name=`: one provider for every place; nil for `auto`, the default,
    /// which picks per place (`providers(for:)`).
    public var provider: ProviderName?
    /// `Providers=`: the order `auto` asks providers in, for every place,
    /// instead of the region's (`ProviderRegions`); nil: by region.
    public var providerOrder: [ProviderName]?
    /// `Contact=`: an e-mail address or URL added to the User-Agent, as
    /// MET Norway and the NWS ask of their clients.
    public var contact: String?
    /// Overrides the provider's base URL (a site proxy, a test server).
    public var baseURL: String?
    public var apiKeyFile: String?
    /// `BaseURL=` is a site proxy that holds the API key (docs/DEPLOYMENT-PROXY.md):
    /// raind sends no key and needs none.
    public var proxy: Bool = false
    public var connectTimeoutSeconds: Int = 10
    public var timeoutSeconds: Int = 30
    // [Refresh]
    public var intervalMinutes: Int = 30
    public var staleAfterMinutes: Int = 15
    /// Calls per UTC day; nil means the provider's default (`defaultDailyBudget`).
    public var dailyBudget: Int?
    /// Calls per UTC month; nil means the provider's default (`defaultMonthlyBudget`).
    public var monthlyBudget: Int?
    // [Socket]
    public var socketPath: String?
    public var maxClients: Int = 256
    /// Connections one user may hold at once (root and raind's own user are bound by `maxClients` only).
    public var maxClientsPerUser: Int = 16
    /// A connection with no call in flight and no subscription is closed after this long.
    public var idleTimeoutSeconds: Int = 60
    /// A client that leaves a full output queue unread this long is disconnected.
    public var slowClientTimeoutSeconds: Int = 30
    // [Places]
    /// Base URL of the online geocoder asked for names missing from the embedded data.
    public var geocoderURL: String = "https://geocoding-api.open-meteo.com"
    public var onlineGeocoder: Bool = true
    // [Notifications] (user instance only; docs/PROTOCOL.md, "Desktop notifications")
    public var notifyAlerts: Bool = true
    public var notifyRainSoon: Bool = true
    /// The least severe alert that notifies.
    public var minimumAlertSeverity: AlertSeverity = .severe

    // [Alerts]
    /// Whether each place's official alert service is polled (`AlertSources`).
    public var officialAlerts: Bool = true
    /// Overrides every alert service's base URL (a site proxy, a test server).
    public var alertsBaseURL: String?

    // [Observations]
    /// Whether each place's verifying station is looked for and polled (`ObservationSources`).
    public var observationsEnabled: Bool = true
    /// Overrides every observation source's base URL (a site proxy, a test server).
    public var observationsBaseURL: String?

    // [Accuracy]
    /// Whether the served temperatures are corrected by each place's measured bias (`TemperatureBias`).
    public var correctTemperature: Bool = false
    /// Where a new place's backfill asks Open-Meteo's Previous Runs API (a
    /// site proxy, a test server); nil: its own address, unless `[Provider]
    /// BaseURL=` sends the forecasts elsewhere, in which case nothing is
    /// backfilled (docs/ACCURACY.md, "Backfill").
    public var accuracyBaseURL: String?

    // [Air]
    /// Whether each place's air quality is fetched, where a provider of its list has an air-quality service.
    public var airEnabled: Bool = true
    /// The index shown; nil: by the place's country (`AirQualityIndex.defaultIndex(forCountry:)`).
    public var airIndex: AirQualityIndex?
    /// Overrides the air-quality service's base URL (a site proxy, a test server).
    public var airBaseURL: String?
    // [Notifications], air
    /// The level (1–6, `AirQualityLevel`) the index must rise into to notify; nil: never.
    public var notifyAirQualityLevel: Int? = 4
    /// The UV category that notifies; nil: never.
    public var notifyUVCategory: UVCategory? = .veryHigh
    /// Whether every saved place's air notifies, not only the selected place's.
    public var notifyAirEveryPlace: Bool = false

    // [Nowcast]
    /// Whether the selected place refreshes on a short interval while its nowcast is in use.
    public var nowcastEnabled: Bool = true
    /// nil: the provider's (`defaultNowcastIntervalMinutes`).
    public var nowcastIntervalMinutes: Int?

    public init() {}

    /// A key the parser knows: section, name, the field it sets, and how to
    /// apply a value. An empty value puts the field back to its default.
    struct Key: Sendable {
        let section: String
        let name: String
        /// What a valid value is, as the error message for an invalid one says.
        let expected: String
        /// The values a whole-number key takes; nil for other keys.
        let range: ClosedRange<Int>?
        let apply: @Sendable (inout Configuration, String) -> Bool
        let reset: @Sendable (inout Configuration) -> Void

        init<Value>(
            section: String, name: String, field: WritableKeyPath<Configuration, Value> & Sendable, expected: String,
            range: ClosedRange<Int>? = nil, apply: @escaping @Sendable (inout Configuration, String) -> Bool
        ) {
            self.section = section
            self.name = name
            self.expected = expected
            self.range = range
            self.apply = apply
            reset = { configuration in configuration[keyPath: field] = Configuration()[keyPath: field] }
        }

        /// What a whole-number key counts, as its error message names it.
        enum Quantity: Sendable {
            case seconds, minutes, calls, plain

            var phrase: String {
                switch self {
                case .seconds: return "whole seconds"
                case .minutes: return "whole minutes"
                case .calls: return "a whole number of calls"
                case .plain: return "a whole number"
                }
            }
        }

        /// A whole-number key setting `field` to a value in `range`; its
        /// error message is derived from the range, so the two cannot disagree.
        static func number(
            section: String, name: String, field: WritableKeyPath<Configuration, Int> & Sendable,
            range: ClosedRange<Int>, of quantity: Quantity
        ) -> Key {
            ranged(section: section, name: name, field: field, range: range, quantity: quantity) { $0 }
        }

        /// A whole-number key setting an optional `field` (nil: a default that
        /// depends on other keys) to a value in `range`.
        static func number(
            section: String, name: String, field: WritableKeyPath<Configuration, Int?> & Sendable,
            range: ClosedRange<Int>, of quantity: Quantity
        ) -> Key {
            ranged(section: section, name: name, field: field, range: range, quantity: quantity) { $0 }
        }

        private static func ranged<Value>(
            section: String, name: String, field: WritableKeyPath<Configuration, Value> & Sendable,
            range: ClosedRange<Int>, quantity: Quantity, value: @escaping @Sendable (Int) -> Value
        ) -> Key {
            Key(
                section: section, name: name, field: field,
                expected: "\(quantity.phrase) from \(range.lowerBound) to \(range.upperBound)", range: range
            ) { config, text in
                guard let number = Int(text), range.contains(number) else { return false }
                config[keyPath: field] = value(number)
                return true
            }
        }

        /// A yes/no key (systemd's booleans) setting `field`.
        static func flag(
            section: String, name: String, field: WritableKeyPath<Configuration, Bool> & Sendable
        ) -> Key {
            Key(section: section, name: name, field: field, expected: "yes or no") { config, value in
                guard let flag = parseBoolean(value) else { return false }
                config[keyPath: field] = flag
                return true
            }
        }
    }

    static let keys: [Key] = [
        Key(section: "Provider", name: "Name", field: \.provider, expected: "auto, " + providerNames) {
            config, value in
            if value.lowercased() == "auto" {
                config.provider = nil
                return true
            }
            guard let name = ProviderName(rawValue: value.lowercased()) else { return false }
            config.provider = name
            return true
        },
        Key(
            section: "Provider", name: "Providers", field: \.providerOrder,
            expected: "provider names separated by spaces or commas, each once, from " + providerNames
        ) { config, value in
            var names: [ProviderName] = []
            for word in value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
                guard let name = ProviderName(rawValue: word.lowercased()), !names.contains(name) else { return false }
                names.append(name)
            }
            guard !names.isEmpty else { return false }
            config.providerOrder = names
            return true
        },
        Key(
            section: "Provider", name: "Contact", field: \.contact,
            expected: "an e-mail address or an http(s):// URL of at most 200 characters, without spaces or parentheses"
        ) { config, value in
            guard let contact = validContact(value) else { return false }
            config.contact = contact
            return true
        },
        Key(section: "Provider", name: "BaseURL", field: \.baseURL, expected: "an http:// or https:// URL") {
            config, value in
            guard let url = validURL(value) else { return false }
            config.baseURL = url
            return true
        },
        Key(section: "Provider", name: "ApiKeyFile", field: \.apiKeyFile, expected: "an absolute path") {
            config, value in
            guard value.hasPrefix("/") else { return false }
            config.apiKeyFile = value
            return true
        },
        .flag(section: "Provider", name: "Proxy", field: \.proxy),
        .number(
            section: "Provider", name: "ConnectTimeoutSec", field: \.connectTimeoutSeconds, range: 1...300, of: .seconds
        ),
        .number(section: "Provider", name: "TimeoutSec", field: \.timeoutSeconds, range: 1...600, of: .seconds),
        .number(
            section: "Refresh", name: "IntervalMinutes", field: \.intervalMinutes, range: Settings.refreshMinutesRange,
            of: .minutes),
        .number(
            section: "Refresh", name: "StaleAfterMinutes", field: \.staleAfterMinutes, range: 1...1440, of: .minutes),
        .number(section: "Refresh", name: "DailyBudget", field: \.dailyBudget, range: 1...1_000_000, of: .calls),
        .number(section: "Refresh", name: "MonthlyBudget", field: \.monthlyBudget, range: 1...100_000_000, of: .calls),
        Key(section: "Socket", name: "Path", field: \.socketPath, expected: "an absolute path") { config, value in
            guard value.hasPrefix("/"), value.utf8.count < 108 else { return false }
            config.socketPath = value
            return true
        },
        .number(section: "Socket", name: "MaxClients", field: \.maxClients, range: 1...4096, of: .plain),
        .number(section: "Socket", name: "MaxClientsPerUser", field: \.maxClientsPerUser, range: 1...4096, of: .plain),
        .number(section: "Socket", name: "IdleTimeoutSec", field: \.idleTimeoutSeconds, range: 1...86400, of: .seconds),
        .number(
            section: "Socket", name: "SlowClientTimeoutSec", field: \.slowClientTimeoutSeconds, range: 1...3600,
            of: .seconds),
        Key(section: "Places", name: "GeocoderURL", field: \.geocoderURL, expected: "an http:// or https:// URL") {
            config, value in
            guard let url = validURL(value) else { return false }
            config.geocoderURL = url
            return true
        },
        .flag(section: "Places", name: "OnlineGeocoder", field: \.onlineGeocoder),
        .flag(section: "Alerts", name: "Enabled", field: \.officialAlerts),
        Key(section: "Alerts", name: "BaseURL", field: \.alertsBaseURL, expected: "an http:// or https:// URL") {
            config, value in
            guard let url = validURL(value) else { return false }
            config.alertsBaseURL = url
            return true
        },
        .flag(section: "Observations", name: "Enabled", field: \.observationsEnabled),
        Key(
            section: "Observations", name: "BaseURL", field: \.observationsBaseURL,
            expected: "an http:// or https:// URL"
        ) { config, value in
            guard let url = validURL(value) else { return false }
            config.observationsBaseURL = url
            return true
        },
        .flag(section: "Accuracy", name: "CorrectTemperature", field: \.correctTemperature),
        Key(section: "Accuracy", name: "BaseURL", field: \.accuracyBaseURL, expected: "an http:// or https:// URL") {
            config, value in
            guard let url = validURL(value) else { return false }
            config.accuracyBaseURL = url
            return true
        },
        .flag(section: "Notifications", name: "Alerts", field: \.notifyAlerts),
        .flag(section: "Notifications", name: "RainSoon", field: \.notifyRainSoon),
        Key(
            section: "Notifications", name: "MinimumSeverity", field: \.minimumAlertSeverity,
            expected: "extreme, severe, moderate, minor or unknown"
        ) { config, value in
            guard let severity = AlertSeverity(rawValue: value.prefix(1).uppercased() + value.dropFirst().lowercased())
            else { return false }
            config.minimumAlertSeverity = severity
            return true
        },
        Key(
            section: "Notifications", name: "AirQuality", field: \.notifyAirQualityLevel,
            expected: "off, " + AirQualityLevel.names.dropFirst().joined(separator: ", ")
        ) { config, value in
            if value.lowercased() == "off" {
                config.notifyAirQualityLevel = nil
                return true
            }
            guard let level = AirQualityLevel.level(named: value), level > 1 else { return false }
            config.notifyAirQualityLevel = level
            return true
        },
        Key(
            section: "Notifications", name: "UVIndex", field: \.notifyUVCategory,
            expected: "off, moderate, high, very-high or extreme"
        ) { config, value in
            if value.lowercased() == "off" {
                config.notifyUVCategory = nil
                return true
            }
            guard let category = UVCategory.allCases.first(where: { $0.configName == value.lowercased() }),
                category != .low
            else { return false }
            config.notifyUVCategory = category
            return true
        },
        Key(
            section: "Notifications", name: "AirQualityPlaces", field: \.notifyAirEveryPlace,
            expected: "selected or all"
        ) { config, value in
            switch value.lowercased() {
            case "selected": config.notifyAirEveryPlace = false
            case "all": config.notifyAirEveryPlace = true
            default: return false
            }
            return true
        },
        .flag(section: "Air", name: "Enabled", field: \.airEnabled),
        Key(section: "Air", name: "Index", field: \.airIndex, expected: "european, us or auto") { config, value in
            if value.lowercased() == "auto" {
                config.airIndex = nil
                return true
            }
            guard let index = AirQualityIndex(rawValue: value.lowercased()) else { return false }
            config.airIndex = index
            return true
        },
        Key(section: "Air", name: "BaseURL", field: \.airBaseURL, expected: "an http:// or https:// URL") {
            config, value in
            guard let url = validURL(value) else { return false }
            config.airBaseURL = url
            return true
        },
        .flag(section: "Nowcast", name: "Enabled", field: \.nowcastEnabled),
        .number(
            section: "Nowcast", name: "IntervalMinutes", field: \.nowcastIntervalMinutes, range: 5...60, of: .minutes),
    ]

    /// Where a key found before any section header belongs: its own
    /// section when the name is known, else every section there is.
    static func sectionAdvice(for key: String) -> String {
        let own = keys.filter { $0.name == key }.map { "[\($0.section)]" }
        if !own.isEmpty { return "put it under " + own.joined(separator: " or ") }
        var sections: [String] = []
        for spec in keys where !sections.contains("[\(spec.section)]") { sections.append("[\(spec.section)]") }
        return "put it under the section it belongs to: " + sections.joined(separator: ", ")
    }

    static func validURL(_ value: String) -> String? {
        let lower = value.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
            value.count > "https://".count, !value.contains(" ")
        else { return nil }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// systemd's booleans.
    public static func parseBoolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "yes", "y", "true", "t", "on": return true
        case "0", "no", "n", "false", "f", "off": return false
        default: return nil
        }
    }
}
