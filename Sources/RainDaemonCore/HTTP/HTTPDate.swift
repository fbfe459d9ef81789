import RainCore

/// HTTP-date (RFC 9110 §5.6.7, formerly RFC 7231 §7.1.1.1) to and from Unix
/// seconds, without Foundation.
///
/// Parsing accepts the three forms a recipient must accept:
/// - IMF-fixdate, the one servers send: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`
/// - obsolete asctime: `Sun Nov  6 08:49:37 1994`
///
/// Formatting always writes IMF-fixdate.
public enum HTTPDate {
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Unix seconds for an HTTP-date, or nil when `text` is none of the three forms
    /// or names an impossible date or time.
    ///
    /// RFC 850's two-digit years are read as 1970–2069, which covers every date
    /// such a server could mean; the day name is checked for spelling but not
    /// against the date, as RFC 9110 allows.
    public static func parse<S: StringProtocol>(_ text: S) -> Int64? {
        let parts = String(text).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            shortDays.contains(String(parts[0].dropLast()))
        {
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT"
            return make(
                year: number(parts[3], digits: 4...4), month: month(parts[2]),
                day: number(parts[1], digits: 1...2), time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT",
            longDays.contains(String(parts[0].dropLast()))
        {
            // RFC 850: day-name-l "," SP dd "-" mon "-" yy SP time SP "GMT"
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, let yy = number(date[2], digits: 2...2) else { return nil }
            return make(
                year: yy < 70 ? 2000 + yy : 1900 + yy, month: month(date[1]),
                day: number(date[0], digits: 2...2), time: parts[2])
        }
        if parts.count == 5, shortDays.contains(parts[0]) {
            // asctime: day-name SP month SP ( 2DIGIT / SP DIGIT ) SP time SP year
            return make(
                year: number(parts[4], digits: 4...4), month: month(parts[1]),
                day: number(parts[2], digits: 1...2), time: parts[3])
        }
        return nil
    }

    /// IMF-fixdate for Unix seconds, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ unixSeconds: Int64) -> String {
        let days = floorDivide(unixSeconds, 86_400)
        let secondOfDay = unixSeconds - days * 86_400
        let (year, month, day) = CivilDateTime.civil(fromDays: Int(days))
        // 1970-01-01 was a Thursday (index 3 from Monday).
        let weekday = Int(((days % 7) + 7 + 3) % 7)
        return "\(shortDays[weekday]), \(pad(day)) \(months[month - 1]) \(year) "
            + "\(pad(Int(secondOfDay / 3600))):\(pad(Int(secondOfDay / 60 % 60))):\(pad(Int(secondOfDay % 60))) GMT"
    }

    // MARK: Pieces

    private static func make(year: Int?, month: Int?, day: Int?, time: String) -> Int64? {
        guard let year, let month, let day, day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let hms = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard hms.count == 3,
            let hour = number(hms[0], digits: 2...2), hour < 24,
            let minute = number(hms[1], digits: 2...2), minute < 60,
            let second = number(hms[2], digits: 2...2), second <= 60  // 60: a leap second
        else { return nil }
        let days = Int64(CivilDateTime.days(fromCivilYear: year, month: month, day: day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func number(_ text: String, digits: ClosedRange<Int>) -> Int? {
        let utf8 = text.utf8
        guard digits.contains(utf8.count) else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func month(_ text: String) -> Int? {
        months.firstIndex(of: text).map { $0 + 1 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        default: return 0
        }
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

}
