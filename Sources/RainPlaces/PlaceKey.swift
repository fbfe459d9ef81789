import RainCore

/// Search keys: names folded so that what people type meets what the data
/// spells ("Zürich", "zurich" and "ZURICH" all give `zurich`; "Saint-Étienne"
/// gives `saint etienne`; "Xi'an" gives `xian`).
///
/// Non-ASCII characters are folded with the table the generator stored in the
/// place file, so a query and the data are folded by the same rule; characters
/// the table lacks (none of the data's) go through `TextFolding.fold`. ASCII
/// letters are lower-cased, digits kept, apostrophes dropped, any other ASCII
/// character separates words, and words are joined by single spaces. The
/// generator's `make_key` (scripts/make-places.py) is the twin of `make`.
enum PlaceKey {
    static func make(_ text: String, file: PlaceFile) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(byte + 32)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(byte)
                case UInt8(ascii: "'"), UInt8(ascii: "`"): break
                default: out.append(UInt8(ascii: " "))
                }
            } else if let folded = file.fold(value) {
                out.append(contentsOf: folded)
            } else {
                out.append(contentsOf: TextFolding.fold(String(scalar)).utf8)
            }
        }
        return collapsingSpaces(out)
    }

    private static func collapsingSpaces(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            if byte == UInt8(ascii: " ") {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(UInt8(ascii: " ")) }
                pendingSpace = false
                out.append(byte)
            }
        }
        return out
    }

    /// Byte-wise three-way comparison: negative, zero or positive.
    static func compare<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (x?, y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    static func hasPrefix(_ key: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        guard key.count >= prefix.count else { return false }
        for index in 0..<prefix.count where key[index] != prefix[index] { return false }
        return true
    }

    static func equals(_ key: UnsafeRawBufferPointer, _ other: [UInt8]) -> Bool {
        key.count == other.count && hasPrefix(key, other)
    }

    /// Order of strings by their UTF-8 bytes, the order the generator sorts in.
    static func utf8Less(_ a: String, _ b: String) -> Bool { compare(a.utf8, b.utf8) < 0 }
}
