import CLocale
import Glibc
import RainSystem
import Synchronization

/// Text for people in the reader's language, through glibc's gettext (text
/// domain `raind`, catalogues in `LOCALEDIR/LL/LC_MESSAGES/raind.mo`).
///
/// Every sentence a person reads is one call around its English literal,
/// with named placeholders a translation may reorder (po/README.md):
///
///     tr("Feels like")
///     tr("Updated {age}", ["age": age])
///     trn("{count} day", "{count} days", count)
///
/// The literal must be a `StaticString`, so an interpolated msgid does not
/// compile, and `scripts/update-po` finds every one with xgettext. Text that
/// arrives at run time (a provider's condition words) is marked where it is
/// written with `Localization.marked("Overcast")` and translated where it is
/// shown with `Localization.translate(_:)`.
///
/// Which language: the calling thread's locale (`uselocale`), set by
/// `Localization.useEnvironmentLocale()` in raindctl and around each
/// notification in the user instance; a thread in the C locale (the daemon's
/// logs, the wire, the tests' English goldens) gets the English literal.
public enum Localization {
    public static let domain = "raind"

    /// The installed catalogues' directory.
    public static let installedDirectory = "/usr/share/locale"

    /// Points the `raind` text domain at `directory`: `RAIND_LOCALE_DIR` when
    /// set (the tests), else `PREFIX/share/locale` beside the executable's
    /// `PREFIX/bin` when it holds raind's catalogues, else a checkout's
    /// `.build/locale` for a binary built inside it (`./scripts/run` compiles
    /// them there), else /usr/share/locale. Catalogues are read as UTF-8
    /// whatever the locale's character set (the output degrades to ASCII on
    /// its own, `AsciiText`). `warn` is told, once a locale, of a catalogue
    /// that cannot be used (`MessageCatalogue`): that locale's text then stays English.
    public static func bind(
        environment: [String: String], executablePath: String?,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        var directory = installedDirectory
        if let given = environment["RAIND_LOCALE_DIR"], !given.isEmpty {
            directory = given
        } else if let executablePath, let found = directoryBeside(executablePath) {
            directory = found
        }
        binding.withLock { binding in
            if binding.directory != directory {
                binding.checked = [:]
                binding.last = nil
            }
            binding.directory = directory
            binding.warn = warn
        }
        _ = bindtextdomain(domain, directory)
        _ = bind_textdomain_codeset(domain, "UTF-8")
        // The countries' names: iso-codes' catalogues, where glibc looks by default.
        _ = bind_textdomain_codeset(CountryName.domain, "UTF-8")
    }

    /// The catalogues found from where the executable at `path` is:
    /// `PREFIX/share/locale` for `PREFIX/bin/raindctl` (an install under any
    /// prefix), or `CHECKOUT/.build/locale` for a binary built inside a
    /// checkout (`CHECKOUT/.build/TRIPLE/debug/raindctl`), the checkout being
    /// the nearest ancestor holding `Package.swift`. Nil when neither holds them.
    static func directoryBeside(_ path: String) -> String? {
        // The directory holding `path`, cut at its last slash; nil when there is none.
        func parent(_ path: Substring) -> Substring? {
            path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[..<$0] }
        }
        let holds = { (directory: String) in FileIO.exists(directory + "/de/LC_MESSAGES/\(domain).mo") }
        guard var directory = parent(path[...]) else { return nil }
        if let above = parent(directory) {
            let beside = String(above) + "/share/locale"
            if holds(beside) { return beside }
        }
        // A build directory is a few levels below the checkout; looking higher
        // would only find unrelated trees.
        for _ in 0..<5 {
            guard let above = parent(directory) else { break }
            directory = above
            let root = String(directory)
            if FileIO.exists(root + "/Package.swift") {
                return holds(root + "/.build/locale") ? root + "/.build/locale" : nil
            }
        }
        return nil
    }

    /// Where the domain is bound, who hears of a bad catalogue, and the
    /// locales whose catalogues were checked (by `LANGUAGE` and locale
    /// name), with whether gettext may look them up; the last answer
    /// with the names it was for, so that a run of look-ups in one locale
    /// compares two C strings each. Threads read it (the tests run in
    /// parallel), so it is behind a lock.
    struct Binding {
        var directory = Localization.installedDirectory
        var warn: @Sendable (String) -> Void = { _ in }
        var checked: [String: Bool] = [:]
        /// The last locale name and `LANGUAGE` asked about, NUL-terminated, and the answer.
        var last: (name: [CChar], language: [CChar], looksUp: Bool)?
    }

    private static let binding = Mutex(Binding())

    /// Whether gettext may look up the calling thread's locale. Not in C
    /// or POSIX (glibc gives the English literal there, whatever
    /// `LANGUAGE` says), nor where `LANGUAGE` is unset and raind has no
    /// catalogue that glibc would open for the locale (`C.UTF-8`,
    /// `en_GB.UTF-8`): the literal is the text, and the look-up is saved.
    /// Otherwise every catalogue it could open for the locale and
    /// `LANGUAGE` was checked (`MessageCatalogue`) before its first
    /// look-up, which maps it; a bad one keeps the locale English.
    static func shouldLookUp() -> Bool {
        // Neither is ever null (locale.c); C imports them as optional.
        guard let namePointer = raind_messages_locale_name(), let languagePointer = raind_language_list() else {
            return false
        }
        let answered = binding.withLock { binding -> Bool? in
            guard let last = binding.last, same(last.name, namePointer), same(last.language, languagePointer)
            else { return nil }
            return last.looksUp
        }
        if let answered { return answered }
        let name = String(cString: namePointer)
        let language = String(cString: languagePointer)
        let looksUp = lookUpNeeded(name: name, language: language)
        binding.withLock { $0.last = (Array(name.utf8CString), Array(language.utf8CString), looksUp) }
        return looksUp
    }

    /// `shouldLookUp` for the locale `name` and `LANGUAGE`'s `language`, worked out.
    private static func lookUpNeeded(name: String, language: String) -> Bool {
        if name == "C" || name == "POSIX" { return false }
        let key = language + "\n" + name
        let (directory, known) = binding.withLock { ($0.directory, $0.checked[key]) }
        if let known { return known }
        let names = language.split(separator: ":").map(String.init) + [name]
        var problem: String?
        var found = false
        for path in MessageCatalogue.candidates(directory: directory, domain: domain, names: names) {
            guard case .some(let wrong) = MessageCatalogue.problem(at: path) else { continue }
            found = true
            if let wrong {
                problem = "\(path): \(wrong)"
                break
            }
        }
        // Without LANGUAGE, glibc opens only what `candidates` lists for the locale.
        let looksUp = problem == nil && (found || !language.isEmpty)
        let warn = binding.withLock { binding in
            binding.checked[key] = looksUp
            return binding.warn
        }
        if let problem {
            warn(
                "the translation catalogue \(problem); text stays in English for \(name) (reinstall raind's "
                    + "catalogues, or remove the file)")
        }
        return looksUp
    }

    /// Whether the NUL-terminated `stored` spells the C string at `pointer`.
    private static func same(_ stored: [CChar], _ pointer: UnsafePointer<CChar>) -> Bool {
        stored.withUnsafeBufferPointer { strcmp($0.baseAddress!, pointer) == 0 }
    }

    /// Makes the calling thread speak the environment's locale (`LANG`,
    /// `LC_ALL`, `LC_MESSAGES`, `LC_TIME`, `LC_NUMERIC`, `LC_MEASUREMENT`,
    /// `LANGUAGE`), as `setlocale(LC_ALL, "")` would, without touching
    /// another thread. A locale that is not installed leaves its categories
    /// in C (English), as other programs do. Returns whether it was found.
    @discardableResult
    public static func useEnvironmentLocale() -> Bool {
        guard let locale = raind_environment_locale() else { return false }
        switchLocale(locale)
        return true
    }

    /// How many locales raind has freed: a handle freed and made again may
    /// name another locale, so what was read for a handle
    /// (`LocaleConventions.current`) holds until the next one is freed.
    /// Switching between locales that stay made changes nothing.
    static var localeGeneration: UInt64 { generation.load(ordering: .acquiring) }
    private static let generation = Atomic<UInt64>(0)

    /// `uselocale(locale)`.
    @discardableResult
    private static func switchLocale(_ locale: locale_t) -> locale_t {
        uselocale(locale)
    }

    /// `freelocale(locale)`, counted.
    private static func release(_ locale: locale_t) {
        generation.add(1, ordering: .releasing)
        freelocale(locale)
    }

    /// The C locale, made once and never freed (its handle as a number, which
    /// threads may share): `english` and `with(locale: "C")` switch to it
    /// without making and freeing one each time, so what was read for the
    /// reader's locale stays good across them.
    private static let cLocale = newlocale(Int32(LC_ALL_MASK_VALUE), "C", nil).map { UInt(bitPattern: $0) }

    /// Runs `body` in the environment's locale (`useEnvironmentLocale`) on
    /// this thread, then returns to the locale before: how the daemon writes
    /// a notification in its session's language while its logs and replies
    /// stay in C.
    public static func inEnvironmentLocale<T>(_ body: () -> T) -> T {
        guard let locale = raind_environment_locale() else { return body() }
        defer { release(locale) }
        let previous = switchLocale(locale)
        defer { switchLocale(previous) }
        return body()
    }

    /// The variables of another process's environment that choose its
    /// locale, as `inLocale(of:)` reads them.
    public static let localeVariables = [
        "LC_ALL", "LANG", "LC_CTYPE", "LC_MESSAGES", "LC_TIME", "LC_NUMERIC", "LC_MEASUREMENT",
    ]

    /// Runs `body` on this thread in the locale `environment` names (the user
    /// manager's `LANG` and `LC_*`, read from the bus), then returns to the
    /// locale before; nil `environment`: this process's own
    /// (`inEnvironmentLocale`). `LANGUAGE` is read by gettext from this
    /// process's environment only, so another's is not followed.
    public static func inLocale<T>(of environment: [String: String]?, _ body: () -> T) -> T {
        guard let environment else { return inEnvironmentLocale(body) }
        let categories = ["LC_CTYPE", "LC_MESSAGES", "LC_TIME", "LC_NUMERIC", "LC_MEASUREMENT"].map {
            environment[$0] ?? ""
        }
        let chosen = (environment["LC_ALL"] ?? "").withCString { all in
            (environment["LANG"] ?? "").withCString { lang in
                withCStrings(categories) { raind_named_locale(all, lang, $0) }
            }
        }
        guard let chosen else { return body() }
        defer { release(chosen) }
        let previous = switchLocale(chosen)
        defer { switchLocale(previous) }
        return body()
    }

    /// `body` with a C array of `strings`, valid for the call only.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        var copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { body($0) }
        }
    }

    /// Runs `body` in `locale` (a name such as `de_DE.UTF-8`) on this
    /// thread, then returns to the locale before; nil when it is not installed.
    public static func with<T>(locale name: String, _ body: () -> T) -> T? {
        if name == "C", let c = cLocale.flatMap({ locale_t(bitPattern: $0) }) {
            let previous = switchLocale(c)
            defer { switchLocale(previous) }
            return body()
        }
        guard let locale = newlocale(Int32(LC_ALL_MASK_VALUE), name, nil) else { return nil }
        defer { release(locale) }
        let previous = switchLocale(locale)
        defer { switchLocale(previous) }
        return body()
    }

    /// Runs `body` in the C locale: what the daemon writes on the wire and in
    /// its log, in English whatever its own locale.
    public static func english<T>(_ body: () -> T) -> T { with(locale: "C", body) ?? body() }

    /// LC_ALL_MASK, which Swift cannot import (a macro of other macros).
    static let LC_ALL_MASK_VALUE =
        (1 << LC_CTYPE) | (1 << LC_NUMERIC) | (1 << LC_TIME) | (1 << LC_COLLATE) | (1 << LC_MONETARY)
        | (1 << LC_MESSAGES) | (1 << LC_PAPER) | (1 << LC_NAME) | (1 << LC_ADDRESS) | (1 << LC_TELEPHONE)
        | (1 << LC_MEASUREMENT) | (1 << LC_IDENTIFICATION)

    /// `text` in the reader's language when the catalogue has it, else as it
    /// is: for words that arrive at run time and were marked where they are
    /// written (`marked(_:)`).
    public static func translate(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        return gettext(text)
    }

    /// Marks `text` for the catalogue without translating it: for words kept
    /// or sent in English (a forecast's summary) and translated where shown.
    @inline(__always)
    public static func marked(_ text: StaticString) -> String { text.description }

    /// The catalogue's text for `message` (the message itself when it has
    /// none, in which case dgettext returns its own argument: read inside
    /// the call that lends the pointer).
    static func gettext(_ message: String) -> String {
        guard shouldLookUp() else { return message }
        return shown(message.withCString { String(cString: dgettext(domain, $0)) }, else: message)
    }

    static func ngettext(_ singular: String, _ plural: String, _ count: UInt) -> String {
        let english = count == 1 ? singular : plural
        guard shouldLookUp() else { return english }
        let translated = singular.withCString { one in
            plural.withCString { many in String(cString: dngettext(domain, one, many, count)) }
        }
        return shown(translated, else: english)
    }

    /// `translated`, or `english` where the calling thread's character set
    /// is not UTF-8 and the translation has no ASCII form (Japanese,
    /// Chinese under `ja_JP.eucJP`, `zh_CN.GB2312`): the output is ASCII
    /// there (`AsciiText`), and English reads where `???` would not.
    static func shown(_ translated: String, else english: String) -> String {
        guard translated != english, !translated.utf8.allSatisfy({ $0 < 0x80 }),
            String(cString: nl_langinfo(nl_item(Int32(CODESET)))) != "UTF-8"
        else { return translated }
        return AsciiText.representable(translated) ? translated : english
    }

    /// What separates the items of a list in the reader's language: `, `,
    /// Japanese and Chinese `、` (`list`).
    public static var listSeparator: String {
        // Translators: what comes between the items of a list ("birch 35 grains/m³, grass 12 grains/m³"; "Storm, Frost"), its space included where your language writes one (Japanese and Chinese "、", no space).
        trc("list", ", ")
    }

    /// `items` as one list in the reader's language: `birch 35 grains/m³,
    /// grass 12 grains/m³`, Chinese `桦树 35 粒/m³、禾草 12 粒/m³`.
    public static func list(_ items: [String]) -> String { items.joined(separator: listSeparator) }

    /// `template` with each `{name}` that `value` knows replaced, in one
    /// pass: what a value brings in is never read as a placeholder itself (a
    /// place named "{count}" stays so), and a brace `value` does not know
    /// stays as it is.
    static func fill(_ template: String, _ value: (UnsafeBufferPointer<UInt8>) -> String?) -> String {
        var contiguous = template
        return contiguous.withUTF8 { bytes in
            guard var open = bytes.firstIndex(of: UInt8(ascii: "{")) else { return template }
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count + 32)
            var copied = 0
            while let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) {
                if let replacement = value(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close])) {
                    text += bytes[copied..<open]
                    text += replacement.utf8
                    copied = close + 1
                }
                guard let next = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "{")) else { break }
                open = next
            }
            guard copied > 0 else { return template }
            text += bytes[copied...]
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The value `values` gives `name`.
    static func value(of name: UnsafeBufferPointer<UInt8>, in values: KeyValuePairs<String, String>) -> String? {
        // Compared as two blocks of bytes: through the key's UTF-8 view, a byte at a time, this was
        // most of filling a sentence in.
        for (key, value) in values {
            var key = key
            if key.withUTF8({ WireBytes.equal($0, name) }) { return value }
        }
        return nil
    }
}

/// A sentence in the reader's language (`Localization`): `tr("Updated {age}", ["age": age])`.
public func tr(_ message: StaticString, _ values: KeyValuePairs<String, String> = [:]) -> String {
    let translated = Localization.gettext(message.description)
    guard !values.isEmpty else { return translated }
    return Localization.fill(translated) { Localization.value(of: $0, in: values) }
}

/// A word in the reader's language where the same English means another
/// thing elsewhere: `trc("air quality", "Fair")` is the index's category, not
/// the weather (gettext's `msgctxt`, which the catalogue keys as
/// `context\u{4}message`).
public func trc(_ context: StaticString, _ message: StaticString) -> String {
    let key = context.description + "\u{4}" + message.description
    let translated = Localization.gettext(key)
    return translated == key ? message.description : translated
}

/// A sentence with a count in the reader's language and plural form:
/// `trn("{count} day", "{count} days", days)`; `{count}` is the count in
/// digits, grouped from 1,000 on as the locale groups (`1.500 Anfragen`).
public func trn(
    _ singular: StaticString, _ plural: StaticString, _ count: Int, _ values: KeyValuePairs<String, String> = [:]
) -> String {
    let magnitude = UInt(min(count.magnitude, UInt(UInt32.max)))
    let translated = Localization.ngettext(singular.description, plural.description, magnitude)
    return Localization.fill(translated) { name in
        Localization.value(of: name, in: values)
            ?? (name.elementsEqual("count".utf8) ? LocaleConventions.count(count) : nil)
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (`URLRedaction.replacing`, byte by byte).
    func replacingAll(_ target: String, with replacement: String) -> String {
        URLRedaction.replacing(target, with: replacement, in: self)
    }
}
