import RainCore

extension PersistentState.File: WireReadable {
    init(wire: WireFields) throws(WireDecodingError) {
        version = try wire.int("version")
        locations = try wire.values("locations").map { (saved: SavedLocation) in saved.location }
        selected = try wire.optionalString("selected").map(LocationID.init)
        settings = try wire.value("settings")
    }
}

/// A place as the state file keeps it. Its descriptive fields may be
/// missing from a file written by hand or by an early raind: they read as
/// empty, and the source as coordinates, as the first reader took them
/// (present but null is still an error). Validation judges the rest.
private struct SavedLocation: WireReadable {
    var location: Location

    init(wire: WireFields) throws(WireDecodingError) {
        func described(_ key: String) throws(WireDecodingError) -> String {
            wire.has(key) ? try wire.string(key) : ""
        }
        // In `Location`'s order, so that of two faults the same one is named.
        let id = try wire.id("id")
        let name = try wire.string("name")
        let region = try described("region")
        let country = try described("country")
        let countryCode = try described("countryCode")
        let latitude = try wire.double("latitude")
        let longitude = try wire.double("longitude")
        let timeZone = try described("timeZone")
        let source: LocationSource = wire.has("source") ? try wire.value("source") : .coordinates
        location = Location(
            id: id, name: name, region: region, country: country, countryCode: countryCode, latitude: latitude,
            longitude: longitude, timeZone: timeZone, source: source, follows: try wire.optionalBool("follows"))
    }
}

/// The settings as the state file keeps them. Here, not beside `Settings` in
/// RainCore: raindctl reads no settings from a tape, and would link it.
extension Settings: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        let units: UnitSystem = try wire.wireEnum("units")
        self.init(units: units, refreshMinutes: try wire.optionalInt("refreshMinutes"))
    }
}
