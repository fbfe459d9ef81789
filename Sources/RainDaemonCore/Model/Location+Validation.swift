import RainCore

/// The rules a place must meet wherever it comes from: a client, the state
/// file, the online geocoder or the place data. A value that breaks them is
/// refused (from a client) or reported and dropped (from a file); it never
/// reaches code that would trap on it or write a file named after it.
extension LocationID {
    /// Longest id raind assigns or accepts.
    public static let maximumLength = 64

    /// Lower-case ASCII letters and digits in runs joined by single `-`
    /// (`paris-fr`, `springfield-us-2`): what `LocationList` assigns. Such an
    /// id is safe as a file name: no `/`, no `.`, never empty.
    public var isWellFormed: Bool {
        let bytes = Array(rawValue.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength,
            bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-")
        else { return false }
        var previousWasDash = false
        for byte in bytes {
            let isWord =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if byte == UInt8(ascii: "-") {
                if previousWasDash { return false }
                previousWasDash = true
            } else if isWord {
                previousWasDash = false
            } else {
                return false
            }
        }
        return true
    }
}

extension Location {
    /// Longest name, region, country or time zone accepted, in characters
    /// (what a person counts; `AddLocation`'s `name` takes as many).
    public static let maximumTextCharacters = 200
    /// ... and in UTF-8 bytes: four a character, room for any script.
    public static let maximumTextBytes = 4 * maximumTextCharacters

    /// Whether coordinates are a point on Earth: finite, latitude in -90...90,
    /// longitude in -180...180.
    public static func areValidCoordinates(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// What is wrong with this place, naming the field; nil when it is valid.
    public func validationProblem() -> WireDecodingError? {
        if !id.isWellFormed {
            return WireDecodingError(
                field: "id",
                reason:
                    "'\(id.rawValue.replacingControlCharacters())' is not an id raind assigns (lower-case letters and digits joined by '-', at most \(LocationID.maximumLength) characters)"
            )
        }
        if !latitude.isFinite || !(-90...90).contains(latitude) {
            return WireDecodingError(field: "latitude", reason: "\(latitude) is outside -90...90")
        }
        if !longitude.isFinite || !(-180...180).contains(longitude) {
            return WireDecodingError(field: "longitude", reason: "\(longitude) is outside -180...180")
        }
        if name.isEmpty { return WireDecodingError(field: "name", reason: "is empty") }
        for (field, text) in [
            ("name", name), ("region", region), ("country", country), ("countryCode", countryCode),
            ("timeZone", timeZone),
        ] {
            if text.utf8.count > Self.maximumTextBytes || text.count > Self.maximumTextCharacters {
                return WireDecodingError(
                    field: field,
                    reason:
                        "is longer than \(Self.maximumTextCharacters) characters or \(Self.maximumTextBytes) bytes")
            }
            if text.containsControlCharacters {
                return WireDecodingError(field: field, reason: "holds control characters")
            }
        }
        return nil
    }
}

extension PlaceCandidate {
    /// The candidate with control characters in its texts replaced and each
    /// text cut to `Location.maximumTextBytes`: what the online geocoder or the
    /// place data say is shown, never obeyed by a terminal.
    public func sanitized() -> PlaceCandidate {
        var copy = self
        copy.name = Self.clean(name)
        copy.region = Self.clean(region)
        copy.country = Self.clean(country)
        copy.countryCode = Self.clean(countryCode)
        copy.timeZone = Self.clean(timeZone)
        if copy.name.isEmpty { copy.name = "Unnamed place" }
        return copy
    }

    static func clean(_ text: String) -> String {
        var result = text.replacingControlCharacters().trimmingSpaces()
        // Whole characters only: never "Züric" from "Zürich" cut inside its "h"'s bytes or an accent.
        if result.count > Location.maximumTextCharacters {
            result = String(result.prefix(Location.maximumTextCharacters))
        }
        while result.utf8.count > Location.maximumTextBytes { result.removeLast() }
        return result
    }

    /// What a person should know when `sanitized()` cut the name, else nil.
    public var nameCutNote: String? {
        let kept = Self.clean(name)
        guard !kept.isEmpty, kept.count < name.replacingControlCharacters().trimmingSpaces().count else { return nil }
        return "The name was longer than \(Location.maximumTextCharacters) characters and was cut to: \(kept)"
    }
}
