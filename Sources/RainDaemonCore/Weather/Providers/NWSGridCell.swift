import RainCore

/// A place's cell of the NWS forecast grid, as `/points` found it: the
/// forecast office that issues its forecast (`TAE`, Tallahassee) and the
/// cell's column and row on that office's 2.5 km grid. Kept with the place
/// as a `ProviderLookup` and checked again before each use, since the
/// values go into request paths.
struct NWSGridCell: Equatable {
    /// Three upper-case letters or digits, as the API's office ids are.
    var office: String
    var x: Int
    var y: Int
    /// The place's IANA time zone as `/points` named it, if it did.
    var timeZone: String?

    /// Grid columns and rows go from 0 to a few hundred; Alaska's grids are the largest.
    static let coordinates = 0...2000

    init?(office: String, x: Int, y: Int, timeZone: String?) {
        guard Self.isOffice(office), Self.coordinates.contains(x), Self.coordinates.contains(y),
            timeZone.map(Self.isZoneName) ?? true
        else { return nil }
        self.office = office
        self.x = x
        self.y = y
        self.timeZone = timeZone
    }

    /// The cell a kept lookup holds; nil unless every value is well formed.
    init?(lookup: ProviderLookup) {
        guard let office = lookup.values["office"], let x = lookup.values["gridX"].flatMap(Self.whole),
            let y = lookup.values["gridY"].flatMap(Self.whole)
        else { return nil }
        self.init(office: office, x: x, y: y, timeZone: lookup.values["timeZone"])
    }

    /// The cell as a lookup kept until `expiresAt`.
    func lookup(expiresAt: Double) -> ProviderLookup {
        var values = ["office": office, "gridX": String(x), "gridY": String(y)]
        if let timeZone { values["timeZone"] = timeZone }
        return ProviderLookup(values: values, expiresAt: expiresAt)
    }

    /// `/gridpoints/TAE/58,65`: the cell's raw grid data, and the prefix of its forecasts.
    var path: String { "/gridpoints/\(office)/\(x),\(y)" }

    static func isOffice(_ text: String) -> Bool {
        text.utf8.count == 3
            && text.utf8.allSatisfy {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            }
    }

    /// `America/New_York`, `Pacific/Guam`: letters, digits and `/_+-`, not starting with `/`.
    static func isZoneName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count), bytes[0] != UInt8(ascii: "/") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "+"),
                UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    /// A whole number written in decimal digits only (no sign, no leading zeros but `0`).
    static func whole(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            bytes.count == 1 || bytes[0] != UInt8(ascii: "0")
        else { return nil }
        return Int(text)
    }
}
