import RainCore

/// Every observation source raind can use, in one table: the only place
/// that lists them. A place is verified by the first source that covers
/// its country and has a station near enough (`VerifyingStation`): a
/// national service before METAR, whose airports are fewer but worldwide.
public enum ObservationSources {
    public static let all: [any ObservationSource] = [
        NWSObservationSource(),
        DWDObservationSource(),
        METARObservationSource(),
    ]

    /// The sources that may verify a place in the country `countryCode`
    /// (ISO 3166-1 alpha-2, any case; empty: unknown), in the table's order.
    public static func sources(forCountry countryCode: String) -> [any ObservationSource] {
        all.filter { $0.terms.covers(countryCode: countryCode) }
    }

    /// The source of that name, if raind knows it.
    public static func source(named name: String) -> (any ObservationSource)? {
        all.first { $0.name == name }
    }
}
