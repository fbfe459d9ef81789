import RainCore

/// What raind keeps across restarts: the places, the selection and the
/// settings. This is the content of `state.json`; see docs/FILES.md.
public struct PersistentState: Equatable, Sendable {
    /// Raised when the file's shape changes incompatibly; older files are migrated on read.
    public static let schemaVersion = 1

    public var places: LocationList
    public var settings: Settings

    public init(places: LocationList = LocationList(), settings: Settings) {
        self.places = places
        self.settings = settings
    }

    /// The file's shape, one field per property.
    struct File: Encodable {
        var version: Int
        var locations: [Location]
        var selected: LocationID?
        var settings: Settings
    }

    public var json: JSON {
        File(
            version: PersistentState.schemaVersion, locations: places.locations, selected: places.selectedID,
            settings: settings
        ).json
    }

    /// Reads a state file's content, from a tape rather than through
    /// `Decodable` (raind reads it before READY=1: docs/PERFORMANCE.md,
    /// "Start-up"). The error says what is wrong where.
    public init(bytes: [UInt8]) throws(WireDecodingError) {
        let tape: JSONTape
        do {
            tape = try JSONTape(parsing: bytes)
        } catch {
            throw WireDecodingError(field: "state", reason: error.description)
        }
        // The version first: a newer file may have any shape.
        guard let version = tape.wholeNumber("version") else {
            throw WireDecodingError(field: "state.version", reason: "missing or not a whole number")
        }
        guard version >= 1 else {
            throw WireDecodingError(
                field: "state.version",
                reason: "version \(version) is invalid (versions start at 1); no raind writes it")
        }
        guard version <= PersistentState.schemaVersion else {
            throw WireDecodingError(
                field: "state.version",
                reason:
                    "version \(version) is not one this raind reads (it reads 1...\(PersistentState.schemaVersion)); it was written by a newer raind"
            )
        }
        let file = try File(wire: WireFields(tape, context: "state"))
        self.init(places: LocationList(locations: file.locations, selectedID: file.selected), settings: file.settings)
    }

    public var bytes: [UInt8] {
        Array((json.serialized() + "\n").utf8)
    }
}
