import CLocale
import Glibc

/// A country's name in the reader's language, from Debian's `iso-codes`
/// catalogues (text domain `iso_3166-1` in /usr/share/locale, translated
/// into about a hundred languages by its translators): "Berlin,
/// Deutschland" where GeoNames, and so raind's place data, says "Berlin,
/// Germany". Without `iso-codes`, in a language it lacks, or where
/// raind's own texts are English (a catalogue of conventions only), the
/// English name stays.
public enum CountryName {
    public static let domain = "iso_3166-1"

    /// GeoNames' English names that `iso-codes` writes otherwise, by
    /// ISO 3166-1 code: the catalogue's message is its spelling.
    static let isoSpellings: [String: String] = [
        "AX": "Åland Islands", "BL": "Saint Barthélemy", "BN": "Brunei Darussalam",
        "BQ": "Bonaire, Sint Eustatius and Saba", "CC": "Cocos (Keeling) Islands",
        "CD": "Congo, The Democratic Republic of the", "CI": "Côte d'Ivoire", "CW": "Curaçao",
        "FK": "Falkland Islands (Malvinas)", "FM": "Micronesia, Federated States of",
        "MF": "Saint Martin (French part)", "NL": "Netherlands", "PS": "Palestine, State of", "RE": "Réunion",
        "RU": "Russian Federation", "SH": "Saint Helena, Ascension and Tristan da Cunha",
        "SX": "Sint Maarten (Dutch part)", "TL": "Timor-Leste", "TR": "Türkiye",
        "VA": "Holy See (Vatican City State)", "VI": "Virgin Islands, U.S.",
    ]

    /// `english` (GeoNames' name of the country `code`) in the calling
    /// thread's language (`LC_MESSAGES`); `english` itself where there is no
    /// translation, or where the catalogue's is an inverted formal name
    /// ("Russie, Fédération de"), which reads wrong after a place's name
    /// and region.
    public static func localized(_ english: String, code: String) -> String {
        // Only where raind's own catalogue speaks the language: an English
        // sentence keeps the English name (en_US has conventions only).
        guard !english.isEmpty, Localization.gettext("Feels like") != "Feels like" else { return english }
        for message in [isoSpellings[code.uppercased()], english].compactMap({ $0 }) {
            let translated = message.withCString { String(cString: dgettext(domain, $0)) }
            if translated != message, !translated.contains(",") { return translated }
        }
        return english
    }
}
