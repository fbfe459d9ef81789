import CLocale

/// Upper and lower case as the reader's language writes them, for text
/// shown to people (a translated moon phase in a status bar, a sentence's
/// first letter): glibc's `towlower`/`towupper` in the calling thread's
/// locale (`LC_CTYPE`), so Turkish and Azeri keep their dotted and dotless
/// i: `İlk dördün` lowers to `ilk dördün` (Swift's `lowercased()` gives
/// `i̇lk`, an i with a second dot), and `izmir` starts `İzmir`, not
/// `Izmir`. A letter the locale does not map (the C locale maps ASCII only)
/// takes Swift's mapping. Identifiers (ids, config values, protocol words)
/// keep Swift's `lowercased()`, the same in every locale.
extension String {
    /// This text in lower case, letter by letter, as the calling thread's locale maps it.
    public var readerLowercased: String {
        unicodeScalars.map { Self.mapped($0, towlower) ?? String($0).lowercased() }.joined()
    }

    /// This text with its first letter in upper case as the calling thread's locale maps it.
    public var readerCapitalized: String {
        guard let first = unicodeScalars.first else { return self }
        return (Self.mapped(first, towupper) ?? String(first).uppercased()) + String(unicodeScalars.dropFirst())
    }

    /// What the locale maps `scalar` to; nil where it leaves it as it is.
    private static func mapped(_ scalar: Unicode.Scalar, _ map: (wint_t) -> wint_t) -> String? {
        let result = map(wint_t(scalar.value))
        guard result != wint_t(scalar.value), let mapped = Unicode.Scalar(UInt32(result)) else { return nil }
        return String(mapped)
    }
}
