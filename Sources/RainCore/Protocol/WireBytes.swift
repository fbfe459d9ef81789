/// Byte work on the path of every call, eight bytes at a time: comparing a
/// method's name and an envelope's keys (the generic `elementsEqual` goes
/// byte by byte through iterators, and took a twentieth of a GetStatus
/// call), finding a message's NUL and the end of a plain string.
package enum WireBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the word's eight bytes is `byte`.
    @inline(__always)
    private static func has(_ word: UInt64, _ byte: UInt8) -> Bool {
        let spread = word ^ (ones &* UInt64(byte))
        return (spread &- ones) & ~spread & highs != 0
    }

    /// The index of the first `byte` in `bytes` at or after `start`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count, !has(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self), byte) {
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Where the run of bytes from `start` that a JSON string holds as they
    /// are ends: the first quote, backslash, control character or byte of a
    /// multi-byte scalar, or the end of `bytes`.
    static func plainEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A high bit, a byte below 0x20, a quote or a backslash in the word: look at it byte by byte.
            let special =
                word & highs != 0 || (word &- ones &* 0x20) & ~word & highs != 0
                || has(word, UInt8(ascii: "\"")) || has(word, UInt8(ascii: "\\"))
            if special { break }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    package static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
        let a8 = UnsafeRawPointer(a)
        let b8 = UnsafeRawPointer(b)
        var offset = 0
        while offset + 8 <= left.count {
            if a8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != b8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < left.count {
            if a[offset] != b[offset] { return false }
            offset += 1
        }
        return true
    }
}
