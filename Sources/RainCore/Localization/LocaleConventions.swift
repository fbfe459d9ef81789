import CLocale
import Glibc
import Synchronization

/// The calling thread's locale's own ways (glibc's `nl_langinfo`): the
/// clock (12- or 24-hour, from `LC_TIME`'s time format), weekday and month
/// names, the decimal separator and digit grouping (`LC_NUMERIC`), the
/// measurement system (`LC_MEASUREMENT`) and whether text may be UTF-8
/// (`LC_CTYPE`). In the C locale (the daemon's wire and logs, the tests'
/// English goldens) they are raind's English ones: `09:05`, `Tuesday`,
/// `0.1`, `1,505,005`.
///
/// The order of a date's parts is the catalogue's (`tr("{weekday} {day}
/// {month} {year}")`), as GNOME's programs translate theirs.
public struct LocaleConventions: Sendable, Equatable {
    public var twelveHourClock: Bool
    public var amPM: (am: String, pm: String)
    /// Sunday first.
    public var weekdays: [String]
    public var shortWeekdays: [String]
    /// January first, in the form a date with a day number takes (Polish `grudnia`).
    public var months: [String]
    public var shortMonths: [String]
    public var decimalSeparator: String
    public var groupSeparator: String
    /// Digits per group (3), 0 for none.
    public var groupSize: Int
    /// `LC_MEASUREMENT` says US customary units.
    public var usMeasurement: Bool
    /// `LC_CTYPE`'s character set is UTF-8.
    public var utf8: Bool

    public static func == (a: Self, b: Self) -> Bool {
        a.twelveHourClock == b.twelveHourClock && a.amPM == b.amPM && a.weekdays == b.weekdays
            && a.shortWeekdays == b.shortWeekdays && a.months == b.months && a.shortMonths == b.shortMonths
            && a.decimalSeparator == b.decimalSeparator && a.groupSeparator == b.groupSeparator
            && a.groupSize == b.groupSize && a.usMeasurement == b.usMeasurement && a.utf8 == b.utf8
    }

    /// The conventions of the calling thread's locale.
    public static var current: LocaleConventions {
        // Read from glibc once for each locale a thread speaks (45 look-ups and
        // trims): `raindctl status` asks a dozen times in one locale.
        let key = LocaleKey(locale: UInt(bitPattern: uselocale(nil)), generation: Localization.localeGeneration)
        if let cached = conventionsCache.withLock({ $0.first { $0.key == key }?.value }) { return cached }
        let value = read()
        // Read after: reading a locale that is not UTF-8 may itself switch to C and back.
        let after = LocaleKey(locale: key.locale, generation: Localization.localeGeneration)
        conventionsCache.withLock { cache in
            cache.removeAll { $0.key.generation != after.generation || $0.key == after }
            if cache.count == Self.localesKept { cache.removeFirst() }
            cache.append((after, value))
        }
        return value
    }

    /// A thread's locale (`uselocale`'s handle) and how many locales raind
    /// had freed: a handle freed and made again names another.
    private struct LocaleKey: Equatable {
        var locale: UInt
        var generation: UInt64
    }

    /// The reader's locale and C (a failure's English wording is made in C
    /// to be matched), and a few more for the daemon's threads.
    private static let localesKept = 4
    private static let conventionsCache = Mutex<[(key: LocaleKey, value: LocaleConventions)]>([])

    private static func read() -> LocaleConventions {
        let codeset = String(cString: nl_langinfo(nl_item(Int32(CODESET))))
        let utf8 = codeset == "UTF-8"
        // Trimmed: Japanese abbreviated months come padded (` 1月`). In
        // another character set (EUC-JP, Latin-1) the names are converted
        // to UTF-8, to be shown in ASCII (`AsciiText`).
        func item(_ value: Int32) -> String { langinfo(value, utf8: utf8).trimmingSpaces() }
        // Names with no ASCII form (土曜日, 星期六) where the terminal is not
        // UTF-8 are C's English ones, as the sentences around them are.
        func names(_ first: Int32, _ count: Int) -> [String] {
            let names = (0..<count).map { item(first + Int32($0)) }
            guard !utf8, !names.allSatisfy(AsciiText.representable) else { return names }
            return Localization.with(locale: "C") {
                (0..<count).map { String(cString: nl_langinfo(nl_item(first + Int32($0)))) }
            } ?? names
        }
        let timeFormat = item(Int32(T_FMT))
        let weekdays = names(Int32(DAY_1), 7)
        let shortWeekdays = names(Int32(ABDAY_1), 7)
        let shortMonths = names(Int32(ABMON_1), 12)
        // A date with a day number takes the month's number where the
        // abbreviated names are numbers: Chinese writes 2026年1月15日, not 一月15日.
        let months = zip(names(Int32(MON_1), 12), shortMonths).map { full, short in
            short.first.map { $0.isASCII && $0.isNumber } == true ? short : full
        }
        let radix = item(Int32(RADIXCHAR))
        var group = item(Int32(THOUSEP))
        var size = Int(raind_group_size())
        // The C locale groups nothing; raind's English has always written 1,505,005.
        if group.isEmpty && radix == "." && size == 0 { (group, size) = (",", 3) }
        if group.isEmpty { size = 0 }
        return LocaleConventions(
            twelveHourClock: timeFormat.hasPrefix("%r") || timeFormat.contains("%I") || timeFormat.contains("%l"),
            amPM: (item(Int32(AM_STR)), item(Int32(PM_STR))), weekdays: weekdays, shortWeekdays: shortWeekdays,
            months: months, shortMonths: shortMonths, decimalSeparator: radix.isEmpty ? "." : radix,
            groupSeparator: group, groupSize: size, usMeasurement: raind_measurement() == 2,
            utf8: utf8)
    }

    /// `nl_langinfo(item)` in UTF-8: in another character set (Czech's
    /// ISO-8859-2, whose no-break space is the byte A0) converted, never
    /// read as UTF-8, which would make it U+FFFD (`?`).
    private static func langinfo(_ item: Int32, utf8: Bool) -> String {
        if !utf8, let converted = raind_langinfo_utf8(nl_item(item)) {
            defer { free(converted) }
            return String(cString: converted)
        }
        return String(cString: nl_langinfo(nl_item(item)))
    }

    /// `9:05 AM` or `09:05`; a whole hour on a 12-hour clock is `8 PM`.
    public func time(hour: Int, minute: Int) -> String {
        guard twelveHourClock, !amPM.am.isEmpty else {
            return CivilDateTime.twoDigits(hour) + ":" + CivilDateTime.twoDigits(minute)
        }
        let shown = hour % 12 == 0 ? 12 : hour % 12
        let half = hour < 12 ? amPM.am : amPM.pm
        return minute == 0 ? "\(shown) \(half)" : "\(shown):\(CivilDateTime.twoDigits(minute)) \(half)"
    }

    /// Whether numbers are written as in the C locale, as the daemon writes
    /// them: `1,500.5` (`read()` gives C this grouping).
    var writesNumbersAsC: Bool { decimalSeparator == "." && groupSeparator == "," && groupSize == 3 }

    /// A number raind wrote with a `.` (`DecimalText`), in the locale's separator.
    public func decimal(_ text: String) -> String {
        decimalSeparator == "." ? text : text.replacingAll(".", with: decimalSeparator)
    }

    /// A whole number with the locale's grouping (`1.505.005`, `1 505 005`, `1,505,005`).
    public func integer(_ number: Int) -> String {
        Self.grouping(String(number.magnitude), separator: groupSeparator, size: groupSize, negative: number < 0)
    }

    /// A number raind wrote with a `.` (`DecimalText`, `3.1` or `1500`), with
    /// the locale's grouping and separator (`1.500`, `3,1`).
    public func number(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return decimal(text)
        }
        let grouped = Self.grouping(String(whole), separator: groupSeparator, size: groupSize, negative: negative)
        return parts.count == 2 ? grouped + decimalSeparator + String(parts[1]) : grouped
    }

    /// A count in a sentence (`trn`'s `{count}`): grouped from 1,000 on as
    /// the calling thread's locale groups, read without the rest of `current`.
    static func count(_ number: Int) -> String {
        guard number.magnitude >= 1000 else { return String(number) }
        let utf8 = String(cString: nl_langinfo(nl_item(Int32(CODESET)))) == "UTF-8"
        var separator = langinfo(Int32(THOUSEP), utf8: utf8)
        var size = Int(raind_group_size())
        if separator.isEmpty && langinfo(Int32(RADIXCHAR), utf8: utf8) == "." && size == 0 {
            (separator, size) = (",", 3)
        }
        if separator.isEmpty { size = 0 }
        return grouping(String(number.magnitude), separator: separator, size: size, negative: number < 0)
    }

    private static func grouping(_ digits: String, separator: String, size: Int, negative: Bool) -> String {
        let sign = negative ? "-" : ""
        guard size > 0, digits.count > size else { return sign + digits }
        var digits = digits
        var groups: [String] = []
        while digits.count > size {
            groups.insert(String(digits.suffix(size)), at: 0)
            digits.removeLast(size)
        }
        groups.insert(digits, at: 0)
        return sign + groups.joined(separator: separator)
    }
}

extension String {
    /// Whether `part` occurs in this text (the standard library's own lacks without Foundation).
    func contains(_ part: String) -> Bool {
        let pattern = Array(part.utf8)
        let bytes = Array(utf8)
        guard !pattern.isEmpty else { return true }
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<start + pattern.count].elementsEqual(pattern)
        {
            return true
        }
        return false
    }
}
