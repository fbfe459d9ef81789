import RainCore

/// Every official alert source raind can use, in one table: the only place
/// that lists them. A place's alerts come from the first source whose
/// countries include the place's, so a national service is listed before
/// a continental one that also covers its country.
public enum AlertSources {
    public static let all: [any AlertSource] = [
        NWSAlertSource(),
        DWDAlertSource(),
        ECCCAlertSource(),
        MetAlertsSource(),
        MeteoAlarmSource(),
    ]

    /// The source responsible for a place in the country `countryCode`
    /// (ISO 3166-1 alpha-2, any case); nil where no source issues warnings.
    public static func source(forCountry countryCode: String) -> (any AlertSource)? {
        let code = countryCode.uppercased()
        return all.first { $0.terms.countries.contains(code) }
    }

    /// The source of that name, if raind knows it.
    public static func source(named name: String) -> (any AlertSource)? {
        all.first { $0.name == name }
    }
}
