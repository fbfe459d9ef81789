import RainCore

/// Every weather provider raind can use, in one table: the only place that
/// lists them. `[Provider] Name=` takes their names, the conformance suite
/// runs each over its recorded answers, and everything else asks a
/// provider, never its name. To add one, add its line here.
public enum WeatherProviders {
    /// The default (keyless) first.
    public static let all: [any WeatherProvider] = [
        OpenMeteoProvider(),
        PirateWeatherProvider(),
        NWSProvider(),
        BrightSkyProvider(),
        MetNorwayProvider(),
    ]

    /// The provider when `[Provider] Name=` is not set.
    public static var standard: any WeatherProvider { all[0] }

    /// The provider of that name. Every `ProviderName` is one of the table's.
    public static func provider(_ name: ProviderName) -> any WeatherProvider {
        guard let provider = all.first(where: { $0.name == name }) else {
            preconditionFailure("provider \(name) is not in WeatherProviders.all, the only source of ProviderName")
        }
        return provider
    }

    /// The provider whose name is `text` (as in `Forecast.provider`), if raind knows it.
    public static func provider(named text: String) -> (any WeatherProvider)? {
        all.first(where: { $0.name.rawValue == text })
    }
}

/// A provider's name as configured (`[Provider] Name=open-meteo`) and
/// stamped on its forecasts. Only names of providers in
/// `WeatherProviders.all` can be made from text.
public struct ProviderName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// The name of a provider in the table; nil for any other text.
    public init?(rawValue: String) {
        guard WeatherProviders.all.contains(where: { $0.name.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// For a provider's own declaration of its name.
    init(declaring name: String) { rawValue = name }

    /// The ledger's name of an official alert service's own book
    /// (`alerts-nws`): polled on its own schedule, counted apart from the
    /// forecasts, written to `budget-alerts-nws.json` beside theirs.
    public static func alerts(_ service: String) -> ProviderName { ProviderName(declaring: "alerts-" + service) }

    /// The ledger's name of an observation source's own book
    /// (`observations-metar`): polled hourly per station, counted apart from
    /// the forecasts, written to `budget-observations-metar.json` beside theirs.
    public static func observations(_ source: String) -> ProviderName {
        ProviderName(declaring: "observations-" + source)
    }

    /// Every provider's name, in the table's order.
    public static var allCases: [ProviderName] { WeatherProviders.all.map(\.name) }

    public var description: String { rawValue }

    /// The name without hyphens (`openmeteo`): the prefix of the provider's
    /// recorded answers in `Tests/Fixtures` and the name of its fuzz target.
    public var stem: String { rawValue.filter { $0 != "-" } }
}
