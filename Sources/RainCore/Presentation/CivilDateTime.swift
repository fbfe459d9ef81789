/// A wall-clock date and time in the proleptic Gregorian calendar, without
/// Foundation or the system's time zone database: raind only needs a fixed
/// UTC offset, which every provider reports with its forecast.
///
/// The day arithmetic is Howard Hinnant's `days_from_civil` /
/// `civil_from_days`, exact for every date an `Int` can hold.
public struct CivilDateTime: Equatable, Sendable {
    public var year: Int
    /// 1...12
    public var month: Int
    /// 1...31
    public var day: Int
    /// 0...23
    public var hour: Int
    /// 0...59
    public var minute: Int
    /// 0...59
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The local wall-clock time at `unixSeconds` in a place `utcOffsetSeconds`
    /// ahead of UTC. Fractions of a second are dropped (towards the past).
    /// Times beyond ±10^13 s (±300,000 years) are clamped to that range and a
    /// non-finite time reads as the epoch, so corrupt data cannot trap.
    public init(unixSeconds: Double, utcOffsetSeconds: Int) {
        let limit = 1e13
        let whole = unixSeconds.isFinite ? Int(min(max(unixSeconds, -limit), limit).rounded(.down)) : 0
        let local = whole + utcOffsetSeconds
        let days = Self.floorDivide(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        self.init(
            year: year, month: month, day: day, hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }

    /// The Unix time of this wall-clock time in a place `utcOffsetSeconds` ahead of UTC.
    public func unixSeconds(utcOffsetSeconds: Int) -> Double {
        let days = Self.days(fromCivilYear: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - utcOffsetSeconds)
    }

    /// Days since 1970-01-01 of this date.
    public var daysSinceEpoch: Int { Self.days(fromCivilYear: year, month: month, day: day) }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (4).
        let remainder = (daysSinceEpoch + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    // Names and the clock are the reader's locale's (`LocaleConventions`):
    // English in the C locale.

    /// `Saturday`
    public var weekdayName: String { LocaleConventions.current.weekdays[weekday] }
    /// `Sat`
    public var shortWeekdayName: String { LocaleConventions.current.shortWeekdays[weekday] }
    /// `October`
    public var monthName: String { LocaleConventions.current.months[(month - 1) % 12] }
    /// `Oct`
    public var shortMonthName: String { LocaleConventions.current.shortMonths[(month - 1) % 12] }
    /// `09:05`, or `9:05 AM` on a 12-hour clock (`8 PM` on the hour).
    public var hourMinute: String { LocaleConventions.current.time(hour: hour, minute: minute) }

    /// `Thursday 15 January 2026` in the order and words of the reader's language.
    public var longDate: String {
        tr(
            "{weekday} {day} {month} {year}",
            ["weekday": weekdayName, "day": String(day), "month": monthName, "year": String(year)])
    }

    /// `15 Jan`, a day of the daily list; `15. 1.` or `15.01` where the
    /// reader's short dates are in figures (`shortDay`, `shortMonth`).
    public var shortDate: String { tr("{day} {month}", ["day": shortDay, "month": shortMonth]) }

    /// The day of a short date (`shortDate`, `AlertWording.moment`): `5`,
    /// or `05` where the catalogue writes short dates with two digits.
    public var shortDay: String { Self.shortMonthForm == .twoDigits ? Self.twoDigits(day) : String(day) }

    /// The month of a short date: `Jan`, the locale's abbreviated name, or
    /// its number, `1` or `01`, where the reader's short dates are in figures
    /// (Czech `15. 1.`, Russian `15.01`); the catalogue chooses (`shortMonthForm`).
    public var shortMonth: String {
        switch Self.shortMonthForm {
        case .name: return shortMonthName
        case .number: return String(month)
        case .twoDigits: return Self.twoDigits(month)
        }
    }

    /// How a short date writes its month, as the reader's catalogue says.
    enum MonthForm { case name, number, twoDigits }

    /// The catalogue's answer to how its short dates write January: `Jan`
    /// (any word: the locale's abbreviated name), `1` (the month's number)
    /// or `01` (day and month in two digits). The date patterns
    /// (`{day} {month}`) then place and punctuate them.
    static var shortMonthForm: MonthForm {
        // Translators: January as your readers' short dates write it, in the daily list ("Thu 15 Jan") and an alert's time ("until Thu 15 Jan 08:00"): keep "Jan" for the month's abbreviated name (your locale's), or write "1" for the month's number ("15. 1."), or "01" for day and month in two digits ("15.01", "05.01"). Then write the patterns "{day} {month}" and "{weekday} {day} {month} {time}" for that form.
        switch trc("month in a short date", "Jan") {
        case "1": return .number
        case "01": return .twoDigits
        default: return .name
        }
    }

    /// Reads the local date-time forms Open-Meteo writes: `2026-10-03`,
    /// `2026-10-03T12:30` and `2026-10-03T12:30:15`. Anything else (including
    /// out-of-range fields and zone suffixes) gives nil.
    public init?(iso8601Local text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(at index: Int, is character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        guard bytes.count == 10 || bytes.count == 16 || bytes.count == 19,
            let year = number(0..<4), byte(at: 4, is: "-"), let month = number(5..<7),
            byte(at: 7, is: "-"), let day = number(8..<10)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        if bytes.count >= 16 {
            guard byte(at: 10, is: "T"), let h = number(11..<13), byte(at: 13, is: ":"),
                let m = number(14..<16)
            else { return nil }
            hour = h
            minute = m
        }
        if bytes.count == 19 {
            guard byte(at: 16, is: ":"), let s = number(17..<19) else { return nil }
            second = s
        }
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    // MARK: - Calendar arithmetic

    package static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    package static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    package static func days(fromCivilYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12  // March = 0
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` days after 1970-01-01.
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
