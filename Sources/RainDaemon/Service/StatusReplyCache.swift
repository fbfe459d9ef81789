import RainCore

/// GetStatus's framed reply, encoded once per change of the status rather
/// than once per call. Only the uptime moves on every call, so the cache
/// holds the bytes before and after the uptime's number and writes the
/// number between them; every other field (the selected place, the budget
/// counters, which also roll over with the date) is compared as a value, and
/// any difference encodes the reply anew.
struct StatusReplyCache {
    /// The status the bytes were made from, its uptime zeroed.
    private let status: WeatherStatus
    private let head: [UInt8]
    private let tail: [UInt8]

    /// Finds where the uptime's text sits by encoding the reply with two
    /// uptimes that differ in one digit.
    init(status: WeatherStatus) {
        var zero = status
        zero.uptimeSeconds = 0
        var one = status
        one.uptimeSeconds = 1
        let zeroBytes = Self.frame(zero)
        let oneBytes = Self.frame(one)
        let hole = zeroBytes.indices.first { zeroBytes[$0] != oneBytes[$0] } ?? zeroBytes.endIndex
        // Uptimes 0 and 1 are written as one digit each, in the one place of
        // a field every status has: anything else is a bug in the encoder.
        precondition(
            zeroBytes.count == oneBytes.count && hole < zeroBytes.endIndex
                && zeroBytes[(hole + 1)...] == oneBytes[(hole + 1)...],
            "GetStatus replies with uptimes 0 and 1 differ in more than one byte")
        self.status = zero
        head = Array(zeroBytes[..<hole])
        tail = Array(zeroBytes[(hole + 1)...])
    }

    /// Whether the cached bytes say what `status` says but for its uptime.
    func matches(_ status: WeatherStatus) -> Bool {
        var zero = status
        zero.uptimeSeconds = 0
        return zero == self.status
    }

    /// Appends the framed reply with `uptime` in its place.
    func write(uptime: Double, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: head)
        WireEncoder.encode(uptime, into: &bytes)
        bytes.append(contentsOf: tail)
    }

    private static func frame(_ status: WeatherStatus) -> [UInt8] {
        var bytes: [UInt8] = []
        VarlinkFramer.frameReply(GetStatusCall.Reply(status: status), into: &bytes)
        return bytes
    }
}
