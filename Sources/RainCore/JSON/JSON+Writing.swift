// MARK: - Writing

extension JSON {
    /// Compact JSON text.
    public func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    /// Compact JSON text as UTF-8 bytes.
    public func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        serialize(into: &out)
        return out
    }

    /// Appends compact JSON text to `out`: bytes all the way, so a reply is
    /// written into the output buffer without an intermediate String.
    public func serialize(into out: inout [UInt8]) {
        switch self {
        case .null: JSON.append("null", to: &out)
        case .bool(let value): JSON.append(value ? "true" : "false", to: &out)
        case .number(let value): JSON.append(number: value, to: &out)
        case .string(let value): JSON.write(string: value, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.serialize(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSON.write(string: key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.serialize(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func append(number: Double, to out: inout [UInt8]) {
        guard number.isFinite else { return append("null", to: &out) }
        if number.rounded() == number, abs(number) < 1e15 {
            // Exact: the check above bounds it well inside Int64.
            return append(integer: Int64(number), to: &out)
        }
        if appendMicros(number, to: &out) { return }
        // The shortest text that reads back as the same Double.
        out.append(contentsOf: number.description.utf8)
    }

    /// Writes a number that is a whole count of millionths (an uptime in
    /// microseconds, a price of 1.5 calls, a coordinate) as its decimal
    /// digits, the text `description` gives it, without the float-to-text
    /// conversion, which took a tenth of a GetStatus call. Such a number is
    /// the Double nearest to its six-decimal text, and between 1e-4 and 1e9
    /// no shorter text reads back as it: doubles there lie closer together
    /// than a millionth. Returns false, writing nothing, for any other number.
    private static func appendMicros(_ number: Double, to out: inout [UInt8]) -> Bool {
        let magnitude = number.magnitude
        guard magnitude >= 1e-4, magnitude < 1e9 else { return false }
        // Truncating after adding a half rounds well enough: the check says whether it is exact.
        let micros = Int64(magnitude * 1e6 + 0.5)
        guard Double(micros) / 1e6 == magnitude else { return false }
        // Digits from the right: six decimals without their trailing zeros
        // (whole numbers never get here), the point, the whole part, the sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = 20
            var rest = micros
            var place = 0
            var written = false
            while place < 6 || rest > 0 || place == 6 {
                if place == 6 {
                    first -= 1
                    digits[first] = UInt8(ascii: ".")
                    if rest == 0 {
                        first -= 1
                        digits[first] = UInt8(ascii: "0")
                        break
                    }
                }
                let digit = UInt8(rest % 10)
                rest /= 10
                if written || digit != 0 || place >= 6 {
                    first -= 1
                    digits[first] = UInt8(ascii: "0") + digit
                    written = true
                }
                place += 1
            }
            if number < 0 {
                first -= 1
                digits[first] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
        }
        return true
    }

    /// Writes the decimal digits straight into `out`, no String in between.
    static func append(integer: Int64, to out: inout [UInt8]) {
        if integer < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        if magnitude < 10 {
            out.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        // 20 digits hold any UInt64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = 20
            while magnitude > 0 {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }

    /// Whether a byte of a string's UTF-8 goes out as it is: everything but
    /// the quote, the backslash and control characters (bytes of multi-byte
    /// scalars are all 0x80 or above, so they pass unchanged).
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    static func write(string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Native and literal strings (all of raind's) are contiguous UTF-8; a
        // bridged one is not and goes byte by byte.
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if !isPlain(byte) {
                    // Runs of plain bytes are copied at once; only the escapes go one by one.
                    if runStart < index {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    }
                    appendEscape(for: byte, to: &out)
                    runStart = index + 1
                }
                index += 1
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        if written == nil {
            for byte in string.utf8 {
                if isPlain(byte) { out.append(byte) } else { appendEscape(for: byte, to: &out) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(for byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"", to: &out)
        case UInt8(ascii: "\\"): append("\\\\", to: &out)
        case UInt8(ascii: "\n"): append("\\n", to: &out)
        case UInt8(ascii: "\r"): append("\\r", to: &out)
        case UInt8(ascii: "\t"): append("\\t", to: &out)
        default:
            // Control characters: \u00XX with lower-case hex digits.
            func hexDigit(_ value: UInt8) -> UInt8 {
                value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
            }
            append("\\u00", to: &out)
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0xf))
        }
    }
}
