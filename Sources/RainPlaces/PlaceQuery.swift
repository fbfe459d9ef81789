import RainCore

/// A search query taken apart: "Portland, Oregon, US" is the name
/// `portland` and the qualifiers `oregon` and `us`, all as search keys.
struct PlaceQuery {
    /// Key of the whole query, commas and all.
    let whole: [UInt8]
    /// Key of what precedes the first comma.
    let name: [UInt8]
    /// Keys of what follows each comma, empty ones left out.
    let qualifiers: [[UInt8]]
    let hasComma: Bool
    /// A GeoNames id given as `2988507` or `geonames:2988507`.
    let identifier: Int?

    init(_ text: String, key: (String) -> [UInt8]) {
        let trimmed = text.trimmingSpaces()
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        whole = key(trimmed)
        name = key(String(parts.first ?? ""))
        qualifiers = parts.dropFirst().map { key(String($0)) }.filter { !$0.isEmpty }
        hasComma = parts.count > 1
        identifier = PlaceQuery.identifier(in: trimmed)
    }

    /// Without a comma, "portland oregon" or "san jose costa rica" may still
    /// be a name and a qualifier: the name with its last one to three words
    /// taken as the qualifier, shortest qualifier first.
    var trailingWordSplits: [(name: [UInt8], qualifier: [UInt8])] {
        let words = name.split(separator: UInt8(ascii: " "))
        guard words.count > 1 else { return [] }
        return (1...min(3, words.count - 1)).map { taken in
            (
                Array(words.dropLast(taken).joined(separator: [UInt8(ascii: " ")])),
                Array(words.suffix(taken).joined(separator: [UInt8(ascii: " ")]))
            )
        }
    }

    private static func identifier(in text: String) -> Int? {
        var digits = Substring(text)
        if TextFolding.fold(String(digits.prefix(9))) == "geonames:" { digits = digits.dropFirst(9) }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return Int(digits)
    }

    /// The IANA name in what `$TZ` or an `/etc/localtime` link holds:
    /// `:Europe/Paris`, `/usr/share/zoneinfo/posix/Europe/Paris` → `Europe/Paris`.
    static func zoneName(_ text: String) -> String {
        var name = Substring(text.trimmingSpaces())
        if name.hasPrefix(":") { name = name.dropFirst() }
        let marker = "zoneinfo/"
        var searchFrom = name.startIndex
        while let slash = name[searchFrom...].firstIndex(of: "z") {
            if name[slash...].hasPrefix(marker) {
                name = name[name.index(slash, offsetBy: marker.count)...]
                searchFrom = name.startIndex
            } else {
                searchFrom = name.index(after: slash)
            }
        }
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
        return String(name)
    }
}
