import RainCore

/// An ISO 8601 instant with its offset, as weather services write them:
/// `2019-10-14T20:00:00-04:00`, `2022-02-04T03:00:00+00:00`,
/// `2025-09-18T13:30:00Z`; read without Foundation. A time without an offset
/// names no instant and is nil, and so is an offset beyond ±18 hours.
public enum ISO8601Instant {
    /// What a service may write besides `Z` and `±hh:mm`.
    public struct Leniency: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A fraction of a second after the seconds (`13:30:00.000+02:00`), ignored.
        public static let fractions = Leniency(rawValue: 1)
        /// An offset without its colon (`+0200`).
        public static let colonlessOffsets = Leniency(rawValue: 2)
    }

    /// Unix seconds of `text` and the offset (seconds east of UTC) it is written in.
    public static func parse(
        _ text: String, allowing leniency: Leniency = []
    ) -> (
        unixSeconds: Double, utcOffsetSeconds: Int
    )? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40,
            let local = CivilDateTime(iso8601Local: String(decoding: bytes[0..<19], as: UTF8.self))
        else { return nil }
        var index = 19
        if leniency.contains(.fractions), bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > digits else { return nil }
        }
        guard index < bytes.count else { return nil }
        let offset: Int
        if bytes[index] == UInt8(ascii: "Z"), index + 1 == bytes.count {
            offset = 0
        } else {
            guard let parsed = self.offset(bytes[index...], colonless: leniency.contains(.colonlessOffsets)) else {
                return nil
            }
            offset = parsed
        }
        return (local.unixSeconds(utcOffsetSeconds: offset), offset)
    }

    /// `+02:00` (or `-0930` when `colonless`): seconds east of UTC, within ±18 hours.
    private static func offset(_ bytes: ArraySlice<UInt8>, colonless: Bool) -> Int? {
        let text = Array(bytes)
        guard text.count == 6 || (colonless && text.count == 5),
            text[0] == UInt8(ascii: "+") || text[0] == UInt8(ascii: "-")
        else { return nil }
        if text.count == 6, text[3] != UInt8(ascii: ":") { return nil }
        let digits = text.count == 6 ? [text[1], text[2], text[4], text[5]] : Array(text[1...4])
        guard digits.allSatisfy(isDigit) else { return nil }
        let values = digits.map { Int($0 - UInt8(ascii: "0")) }
        let minutes = values[2] * 10 + values[3]
        let seconds = (values[0] * 10 + values[1]) * 3600 + minutes * 60
        guard minutes < 60, seconds <= ProviderOffset.maximumSeconds else { return nil }
        return text[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
