/// A POSIX TZ rule as in a TZif footer: `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `<+0545>-5:45`, `<-0930>9:30`. Offsets in the string are west of
/// Greenwich (POSIX); this type keeps them east, as everywhere else in raind.
struct PosixTimeZoneRule: Equatable, Sendable {
    /// When daylight-saving time starts or ends, in local time of the period before it.
    enum Day: Equatable, Sendable {
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
        /// `Jn`: day n of 1...365, February 29 never counted.
        case julianNoLeap(Int)
        /// `n`: day n of 0...365, February 29 counted.
        case zeroBased(Int)
    }

    struct Change: Equatable, Sendable {
        var day: Day
        /// Seconds after local midnight (may be negative or beyond a day, RFC 8536).
        var time: Int
    }

    var standardOffset: Int
    var daylight: (offset: Int, start: Change, end: Change)?

    static func == (lhs: PosixTimeZoneRule, rhs: PosixTimeZoneRule) -> Bool {
        lhs.standardOffset == rhs.standardOffset && lhs.daylight?.offset == rhs.daylight?.offset
            && lhs.daylight?.start == rhs.daylight?.start && lhs.daylight?.end == rhs.daylight?.end
    }

    /// Parses the rule; nil when it is not one.
    init?(_ text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = -standard
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if let offset = scanner.offset() { daylightOffset = -offset }
        // Without dates POSIX leaves the changes to the implementation; the
        // tz database always writes them, so treat the zone as standard time.
        guard scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(),
            scanner.atEnd
        else {
            if scanner.atEnd {
                daylight = nil
                return
            }
            return nil
        }
        daylight = (daylightOffset, start, end)
    }

    /// The offset in force at `instant` (Unix seconds).
    func offset(at instant: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilDateTime(unixSeconds: Double(instant), utcOffsetSeconds: standardOffset).year
        // Start is given in standard time, end in daylight time.
        let start = Self.localSeconds(daylight.start, year: year) - standardOffset
        let end = Self.localSeconds(daylight.end, year: year) - daylight.offset
        let time = Int(instant)
        let inDaylight = start < end ? (start <= time && time < end) : !(end <= time && time < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    /// Local seconds since the epoch of a change in `year`.
    static func localSeconds(_ change: Change, year: Int) -> Int {
        let days: Int
        switch change.day {
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDateTime(year: year, month: month, day: 1)
            var day = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
            let length = CivilDateTime.daysIn(month: month, year: year)
            while day > length { day -= 7 }
            days = CivilDateTime.days(fromCivilYear: year, month: month, day: day)
        case .julianNoLeap(let number):
            let leapShift = CivilDateTime.isLeap(year) && number >= 60 ? 1 : 0
            days = CivilDateTime.days(fromCivilYear: year, month: 1, day: 1) + number - 1 + leapShift
        case .zeroBased(let number):
            days = CivilDateTime.days(fromCivilYear: year, month: 1, day: 1) + number
        }
        return days * 86_400 + change.time
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position >= bytes.count }

        func peek() -> UInt8? { atEnd ? nil : bytes[position] }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard peek() == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// `CET` (three or more letters) or `<+0545>`.
        mutating func name() -> Bool {
            if take("<") {
                guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")), close > position else {
                    return false
                }
                position = close + 1
                return true
            }
            let start = position
            while let byte = peek(), (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                position += 1
            }
            return position - start >= 3
        }

        mutating func number() -> Int? {
            let start = position
            var value = 0
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), position - start < 6 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                position += 1
            }
            return position > start ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            var sign = 1
            if take("-") { sign = -1 } else { _ = take("+") }
            guard let hours = number(), hours <= 167 else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number(), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let rest = number(), rest < 60 else { return nil }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        /// `Mm.w.d[/time]`, `Jn[/time]` or `n[/time]`.
        mutating func change() -> Change? {
            let day: Day
            if take("M") {
                guard let month = number(), (1...12).contains(month), take("."), let week = number(),
                    (1...5).contains(week), take("."), let weekday = number(), (0...6).contains(weekday)
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if take("J") {
                guard let number = number(), (1...365).contains(number) else { return nil }
                day = .julianNoLeap(number)
            } else {
                guard let number = number(), (0...365).contains(number) else { return nil }
                day = .zeroBased(number)
            }
            var time = 7200
            if take("/") {
                guard let given = offset() else { return nil }
                time = given
            }
            return Change(day: day, time: time)
        }
    }
}
