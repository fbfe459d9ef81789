import RainCore

/// Which of the languages a warning service writes in raind reads: the
/// first of the reader's languages the service has, else English, else the
/// service's own first.
enum AlertLanguage {
    /// `offered`: the service's languages as ISO 639-1 codes, its own first.
    /// `preferred` may hold region subtags (`de-AT`, `fr_CA`); only the
    /// language is compared, without regard to case.
    static func choose(_ preferred: [String], from offered: [String]) -> String {
        for language in preferred {
            let code = primary(language)
            if let match = offered.first(where: { primary($0) == code }) { return match }
        }
        return offered.first { primary($0) == "en" } ?? offered.first ?? "en"
    }

    /// `de` of `de-DE`, `fr` of `fr_CA`, lower case.
    static func primary(_ language: String) -> String {
        String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}
