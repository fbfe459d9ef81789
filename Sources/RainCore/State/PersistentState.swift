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

    public var json: JSON {
        var object = JSONObject()
        object["version"] = .int(PersistentState.schemaVersion)
        object["locations"] = .array(places.locations.map(\.json))
        object["selected"] = places.selectedID.map { .string($0.rawValue) } ?? .null
        object["settings"] = settings.json
        return .object(object)
    }

    /// Reads a state file's content. The error says what is wrong where.
    public init(bytes: [UInt8]) throws(WireDecodingError) {
        let value: JSON
        do {
            value = try JSON(parsing: bytes)
        } catch {
            throw WireDecodingError(field: "state", reason: error.description)
        }
        let reader = try WireReader(value, context: "state")
        guard let version = try reader.optionalInt("version") else {
            throw WireDecodingError(field: "state.version", reason: "missing")
        }
        guard version >= 1 else {
            throw WireDecodingError(
                field: "state.version",
                reason: "version \(version) is invalid (versions start at 1); no raind writes it")
        }
        guard version <= PersistentState.schemaVersion else {
            throw WireDecodingError(
                field: "state.version",
                reason: "version \(version) is not one this raind reads (it reads 1...\(PersistentState.schemaVersion)); it was written by a newer raind")
        }
        var locations: [Location] = []
        for (index, item) in try reader.array("locations").enumerated() {
            do {
                locations.append(try Location(json: item))
            } catch {
                throw WireDecodingError(field: "state.locations[\(index)].\(error.field)", reason: error.reason)
            }
        }
        let selected = try reader.optionalString("selected").map(LocationID.init)
        guard let settingsJSON = reader.optional("settings") else {
            throw WireDecodingError(field: "state.settings", reason: "missing")
        }
        self.init(
            places: LocationList(locations: locations, selectedID: selected),
            settings: try Settings(json: settingsJSON))
    }

    public var bytes: [UInt8] {
        Array((json.serialized() + "\n").utf8)
    }
}
