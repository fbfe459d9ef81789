/// A time zone's rules as the tz database writes them (TZif, RFC 8536): the
/// UTC offset in force at any instant, daylight-saving changes included.
/// Read without Foundation, so `raindctl` stays a small static binary.
///
/// Instants before the first transition take the file's first type;
/// instants after the last take the POSIX TZ rule of the footer (version 2
/// and later), so "slim" files that stop listing transitions still answer
/// for every year.
public struct TimeZoneRules: Equatable, Sendable {
    /// The zone's name (`Europe/Paris`), as asked for.
    public let name: String
    /// Transition instants (Unix seconds), ascending.
    let transitions: [Int64]
    /// The UTC offset (seconds) in force from each transition on.
    let offsets: [Int]
    /// The offset before the first transition.
    let initialOffset: Int
    /// The footer's rule for instants after the last transition.
    let footer: PosixTimeZoneRule?

    /// The rules of a fixed offset (a zone the system does not know, or UTC).
    public init(name: String, fixedOffsetSeconds: Int) {
        self.name = name
        transitions = []
        offsets = []
        initialOffset = fixedOffsetSeconds
        footer = nil
    }

    /// Reads a TZif file's content. Throws when it is not TZif or is cut short.
    public init(name: String, tzif bytes: [UInt8]) throws(TimeZoneError) {
        var reader = TZifReader(bytes: bytes, zone: name)
        let version1 = try reader.header()
        var times: [Int64]
        var indices: [Int]
        var types: [Int]
        if version1.version >= 2 {
            // Skip the 32-bit block; the 64-bit one follows with its own header.
            try reader.skip(version1.blockSize(timeBytes: 4))
            let header = try reader.header()
            (times, indices, types) = try reader.block(header, timeBytes: 8)
        } else {
            (times, indices, types) = try reader.block(version1, timeBytes: 4)
        }
        var footer: PosixTimeZoneRule?
        if version1.version >= 2, let text = reader.footer(), !text.isEmpty {
            footer = PosixTimeZoneRule(text)
        }
        guard !types.isEmpty else { throw TimeZoneError(zone: name, reason: "it declares no local time types") }
        for index in indices where index >= types.count {
            throw TimeZoneError(zone: name, reason: "a transition names local time type \(index) of \(types.count)")
        }
        self.name = name
        transitions = times
        offsets = indices.map { types[$0] }
        initialOffset = types[0]
        self.footer = footer
    }

    /// The UTC offset (seconds east of Greenwich) in force at `unixSeconds`.
    public func offset(at unixSeconds: Double) -> Int {
        let limit = 1e13
        let instant = Int64(unixSeconds.isFinite ? min(max(unixSeconds, -limit), limit).rounded(.down) : 0)
        if let last = transitions.last, instant >= last, let footer { return footer.offset(at: instant) }
        if transitions.isEmpty { return footer?.offset(at: instant) ?? initialOffset }
        guard instant >= transitions[0] else { return initialOffset }
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
    }

    /// The local wall-clock time at `unixSeconds`.
    public func local(_ unixSeconds: Double) -> CivilDateTime {
        CivilDateTime(unixSeconds: unixSeconds, utcOffsetSeconds: offset(at: unixSeconds))
    }

    /// The first instant of the local day `daysSinceEpoch` (its midnight, or
    /// the end of a clock change that skips midnight).
    public func startOfDay(_ daysSinceEpoch: Int) -> Double {
        let naive = Double(daysSinceEpoch * 86_400)
        // The offset at the instant, found from a guess at the instant.
        var instant = naive - Double(offset(at: naive - Double(offset(at: naive))))
        // A clock change around midnight may land the guess on the day before or after.
        let day = local(instant).daysSinceEpoch
        if day < daysSinceEpoch {
            let next = transitions.first { Double($0) > instant }
            instant = next.map(Double.init) ?? instant + 3600
        } else if day > daysSinceEpoch {
            instant -= 3600
        }
        return instant
    }
}

/// A TZif file that cannot be used, with the zone and what is wrong.
public struct TimeZoneError: Error, Equatable, Sendable, CustomStringConvertible {
    public var zone: String
    public var reason: String
    public var description: String { "time zone \(zone): \(reason)" }
}

/// Reads the parts of a TZif file, big-endian, bounds-checked.
private struct TZifReader {
    struct Header {
        var version: Int
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount: Int

        func blockSize(timeBytes: Int) -> Int {
            timeCount * timeBytes + timeCount + typeCount * 6 + characterCount
                + leapCount * (timeBytes + 4) + isStandardCount + isUTCCount
        }
    }

    let bytes: [UInt8]
    let zone: String
    var position = 0

    init(bytes: [UInt8], zone: String) {
        self.bytes = bytes
        self.zone = zone
    }

    func cutShort() -> TimeZoneError { TimeZoneError(zone: zone, reason: "the TZif data ends early") }

    mutating func skip(_ count: Int) throws(TimeZoneError) {
        guard count >= 0, position + count <= bytes.count else { throw cutShort() }
        position += count
    }

    mutating func integer(_ width: Int) throws(TimeZoneError) -> Int64 {
        guard position + width <= bytes.count else { throw cutShort() }
        var value: UInt64 = 0
        for byte in bytes[position..<position + width] { value = value << 8 | UInt64(byte) }
        position += width
        // Sign-extend from `width` bytes.
        let shift = UInt64(64 - width * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    mutating func count() throws(TimeZoneError) -> Int {
        let value = try integer(4)
        guard (0...1_000_000).contains(value) else {
            throw TimeZoneError(zone: zone, reason: "a count in the TZif header is out of range (\(value))")
        }
        return Int(value)
    }

    mutating func header() throws(TimeZoneError) -> Header {
        guard position + 44 <= bytes.count, Array(bytes[position..<position + 4]) == Array("TZif".utf8) else {
            throw TimeZoneError(zone: zone, reason: "not a TZif file")
        }
        let versionByte = bytes[position + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        position += 20
        return Header(
            version: version, isUTCCount: try count(), isStandardCount: try count(), leapCount: try count(),
            timeCount: try count(), typeCount: try count(), characterCount: try count())
    }

    /// Transition times, the type index of each, and each type's UTC offset.
    mutating func block(_ header: Header, timeBytes: Int) throws(TimeZoneError) -> ([Int64], [Int], [Int]) {
        var times: [Int64] = []
        for _ in 0..<header.timeCount { times.append(try integer(timeBytes)) }
        var indices: [Int] = []
        for _ in 0..<header.timeCount { indices.append(Int(try integer(1) & 0xFF)) }
        var offsets: [Int] = []
        for _ in 0..<header.typeCount {
            offsets.append(Int(try integer(4)))
            try skip(2)  // isdst, designation index
        }
        try skip(
            header.characterCount + header.leapCount * (timeBytes + 4) + header.isStandardCount + header.isUTCCount)
        return (times, indices, offsets)
    }

    /// The footer's TZ string between two newlines; nil when absent.
    func footer() -> String? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else { return nil }
        guard let end = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
    }
}
