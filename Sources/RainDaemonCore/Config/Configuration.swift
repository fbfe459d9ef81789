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

    // MARK: Budgets (docs/SCHEDULING.md shows the arithmetic)

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

/// One finding about a configuration file, located by file and line.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: Sendable { case warning, error }
    public var severity: Severity
    public var file: String
    public var line: Int
    public var message: String

    public init(severity: Severity, file: String, line: Int, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(file):\(line): \(severity == .error ? "error" : "warning"): \(message)"
    }
}

/// Applies configuration files in order (main file, then drop-ins in lexical
/// order); later assignments win. An empty value resets a key to its default.
public struct ConfigParser {
    public private(set) var configuration = Configuration()
    public private(set) var diagnostics: [ConfigDiagnostic] = []
    /// Findings listed one by one per file; the rest are counted in one
    /// line, so a file of 100,000 unknown keys logs a dozen lines at every
    /// reload, not 100,000.
    public static let listedPerFile = 10
    /// Findings of the file being applied: listed, and counted beyond the list.
    private var listed = 0
    private var unlisted: [ConfigDiagnostic.Severity: (count: Int, firstLine: Int)] = [:]

    public init() {}

    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Lines end in LF or CRLF, and a leading UTF-8 byte-order mark is
    /// skipped, as systemd's own parser does.
    public mutating func apply(text: String, file: String) {
        listed = 0
        unlisted = [:]
        defer { summarizeUnlisted(file) }
        var section: String?
        var lineNumber = 0
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        // Split by scalar, not by Character: "\r\n" is one Character and would never equal "\n".
        for rawLine in scalars.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = String(String.UnicodeScalarView(rawLine)).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    diagnose(.error, file, lineNumber, "malformed section header '\(line)' (expected [Section])")
                    continue
                }
                let name = String(line.dropFirst().dropLast())
                section = name
                if !Configuration.keys.contains(where: { $0.section == name }) {
                    diagnose(.warning, file, lineNumber, "unknown section [\(name)], its keys are ignored")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                diagnose(.error, file, lineNumber, "'\(line)' is not an assignment (expected Key=value)")
                continue
            }
            let key = String(line[..<equals]).trimmingSpaces()
            let value = String(line[line.index(after: equals)...]).trimmingSpaces()
            guard let section else {
                diagnose(
                    .error, file, lineNumber,
                    "\(key)= is outside any section (\(Configuration.sectionAdvice(for: key)))")
                continue
            }
            let known = Configuration.keys.contains { $0.section == section }
            guard let spec = Configuration.keys.first(where: { $0.section == section && $0.name == key }) else {
                if known {
                    diagnose(.warning, file, lineNumber, "unknown key \(key)= in [\(section)], ignored")
                }
                continue
            }
            if value.isEmpty {
                spec.reset(&configuration)
                continue
            }
            var updated = configuration
            if spec.apply(&updated, value) {
                configuration = updated
            } else {
                diagnose(
                    .error, file, lineNumber, "[\(section)] \(key)=\(value) is not valid: expected \(spec.expected)")
            }
        }
    }

    private mutating func diagnose(
        _ severity: ConfigDiagnostic.Severity, _ file: String, _ line: Int, _ message: String
    ) {
        guard listed < Self.listedPerFile else {
            let seen = unlisted[severity]
            unlisted[severity] = ((seen?.count ?? 0) + 1, seen?.firstLine ?? line)
            return
        }
        listed += 1
        diagnostics.append(ConfigDiagnostic(severity: severity, file: file, line: line, message: message))
    }

    /// One line for each severity's findings past the list.
    private mutating func summarizeUnlisted(_ file: String) {
        for severity in [ConfigDiagnostic.Severity.error, .warning] {
            guard let (count, firstLine) = unlisted[severity] else { continue }
            let kind = severity == .error ? "error" : "warning"
            diagnostics.append(
                ConfigDiagnostic(
                    severity: severity, file: file, line: firstLine,
                    message:
                        "\(count) more \(kind)\(count == 1 ? "" : "s") in this file, from this line on, not listed one by one (only a file's first \(Self.listedPerFile) findings are)"
                ))
        }
        unlisted = [:]
    }
}
