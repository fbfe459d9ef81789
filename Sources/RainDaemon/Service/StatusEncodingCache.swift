import RainCore

/// An encoding that holds a status, made once per change rather than once
/// per use: GetStatus's framed reply, and the Subscribe snapshot's. Only the
/// uptime (every call) and the subscriber count (every subscriber of a burst)
/// move between uses, so the cache holds the bytes around those two numbers
/// and writes them in, whatever the other fields are. GetStatus keeps its
/// reply for a `StatusVersion`; the snapshot compares the status as a value
/// (`matches`), and any difference encodes it anew.
/// A class: the reply is handed out on every call, and a struct of its
/// arrays and status was copied (a retain of each) every time. GetStatus's
/// keeps its last whole encoding too (`keepsLast`): the uptime is the loop
/// iteration's, the same for every call of a pipelined batch, which then
/// costs one copy each. (A burst of subscribers differs in its count.)
final class StatusEncodingCache {
    /// The last encoding written, and the uptime and subscriber count in it.
    private var last: (uptime: Double, subscribers: Int, bytes: [UInt8])?
    private let keepsLast: Bool
    /// The status the bytes were made from, its uptime and subscriber count zeroed.
    private let status: WeatherStatus
    /// The bytes before the first of the two numbers, between them, and after the second.
    private let head: [UInt8]
    private let middle: [UInt8]
    private let tail: [UInt8]
    private let uptimeFirst: Bool

    /// Finds where the two numbers sit by encoding `status` (with `encode`)
    /// with each set to 0 and to 1, which differ in one digit.
    init(status: WeatherStatus, keepsLast: Bool = false, encoding encode: (WeatherStatus) -> [UInt8]) {
        self.keepsLast = keepsLast
        let zero = Self.zeroed(status)
        var uptimeOne = zero
        uptimeOne.uptimeSeconds = 1
        var subscribersOne = zero
        subscribersOne.subscribers = 1
        let bytes = encode(zero)
        let uptimeAt = Self.hole(bytes, encode(uptimeOne), field: "uptimes")
        let subscribersAt = Self.hole(bytes, encode(subscribersOne), field: "subscriber counts")
        let first = min(uptimeAt, subscribersAt)
        let second = max(uptimeAt, subscribersAt)
        self.status = zero
        head = Array(bytes[..<first])
        middle = Array(bytes[(first + 1)..<second])
        tail = Array(bytes[(second + 1)...])
        uptimeFirst = uptimeAt < subscribersAt
    }

    /// GetStatus's framed reply.
    static func getStatusReply(_ status: WeatherStatus) -> StatusEncodingCache {
        StatusEncodingCache(status: status, keepsLast: true) { status in
            var bytes: [UInt8] = []
            VarlinkFramer.frameReply(GetStatusCall.Reply(status: status), into: &bytes)
            return bytes
        }
    }

    /// Whether the cached bytes say what `status` says but for its uptime and subscriber count.
    func matches(_ status: WeatherStatus) -> Bool {
        Self.zeroed(status) == self.status
    }

    /// Appends the encoding of `status`, which `matches` this cache.
    func write(_ status: WeatherStatus, into bytes: inout [UInt8]) {
        write(uptime: status.uptimeSeconds, subscribers: status.subscribers, into: &bytes)
    }

    /// Appends the encoding of the cached status with `uptime` and `subscribers` written in.
    func write(uptime: Double, subscribers: Int, into bytes: inout [UInt8]) {
        // Bit for bit: -0 and 0 are written differently.
        guard keepsLast else { return compose(uptime: uptime, subscribers: subscribers, into: &bytes) }
        if let last, last.uptime.bitPattern == uptime.bitPattern, last.subscribers == subscribers {
            bytes.append(contentsOf: last.bytes)
            return
        }
        var made: [UInt8] = []
        made.reserveCapacity(head.count + middle.count + tail.count + 40)
        compose(uptime: uptime, subscribers: subscribers, into: &made)
        bytes.append(contentsOf: made)
        last = (uptime, subscribers, made)
    }

    private func compose(uptime: Double, subscribers: Int, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: head)
        if uptimeFirst {
            WireEncoder.encode(uptime, into: &bytes)
        } else {
            WireEncoder.encode(subscribers, into: &bytes)
        }
        bytes.append(contentsOf: middle)
        if uptimeFirst {
            WireEncoder.encode(subscribers, into: &bytes)
        } else {
            WireEncoder.encode(uptime, into: &bytes)
        }
        bytes.append(contentsOf: tail)
    }

    private static func zeroed(_ status: WeatherStatus) -> WeatherStatus {
        var zero = status
        zero.uptimeSeconds = 0
        zero.subscribers = 0
        return zero
    }

    /// Where `zero` and `one`, encodings that differ in one field set to 0
    /// and to 1, differ: in one byte, since each number is one digit in the
    /// one place of a field every status has. Anything else is a bug in the encoder.
    private static func hole(_ zero: [UInt8], _ one: [UInt8], field: String) -> Int {
        let hole = zero.indices.first { zero[$0] != one[$0] } ?? zero.endIndex
        precondition(
            zero.count == one.count && hole < zero.endIndex && zero[(hole + 1)...] == one[(hole + 1)...],
            "statuses with \(field) 0 and 1 differ in more than one byte")
        return hole
    }
}
