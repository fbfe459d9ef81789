/// The unit systems of the Forecast API, which raind keeps.
public enum UnitSystem: String, CaseIterable, Sendable {
    /// °F, mph, inches, miles, millibars.
    case us
    /// °C, m/s, millimetres, kilometres, hectopascals.
    case si
    /// Like si, with wind in km/h.
    case ca
    /// Like si, with wind in mph and visibility in miles.
    case uk

    /// Accepts the wire names and the words people type (`fahrenheit`, `celsius`, `metric`, `imperial`).
    public init?(userInput: String) {
        switch userInput.lowercased() {
        case "us", "fahrenheit", "f", "imperial": self = .us
        case "si", "celsius", "c", "metric": self = .si
        case "ca": self = .ca
        case "uk", "uk2": self = .uk
        default: return nil
        }
    }

    /// The default for a POSIX locale name such as `en_US.UTF-8`: `us` where
    /// the measurement system is US customary (US, Liberia, Myanmar), `uk` for
    /// Great Britain, `ca` for Canada, `si` elsewhere and when unknown.
    public static func defaultFor(locale: String?) -> UnitSystem {
        guard let locale, !locale.isEmpty, locale != "C", locale != "POSIX" else { return .si }
        let base = locale.split(separator: ".").first.map(String.init) ?? locale
        let region = base.split(separator: "_").dropFirst().first.map { String($0.prefix(2)).uppercased() }
        switch region {
        case "US", "LR", "MM": return .us
        case "GB": return .uk
        case "CA": return .ca
        default: return .si
        }
    }

    /// The environment variables that decide the measurement system, in POSIX order.
    public static func defaultFor(environment: [String: String]) -> UnitSystem {
        for key in ["LC_ALL", "LC_MEASUREMENT", "LANG"] {
            if let value = environment[key], !value.isEmpty { return defaultFor(locale: value) }
        }
        return .si
    }
}

/// Settings a person changes at run time; persisted in the state file.
public struct Settings: Equatable, Sendable, Codable {
    public var units: UnitSystem
    /// Overrides `[Refresh] IntervalMinutes=` when set.
    public var refreshMinutes: Int?

    public init(units: UnitSystem, refreshMinutes: Int? = nil) {
        self.units = units
        self.refreshMinutes = refreshMinutes
    }

    public static let refreshMinutesRange = 5...1440
}
