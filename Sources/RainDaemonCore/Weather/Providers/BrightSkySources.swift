import RainCore

/// The `sources` of a Bright Sky answer: the stations and MOSMIX points its
/// records come from, with their distance from the place asked for. raind
/// reads them only to say when its data comes from farther than
/// `BrightSky.farStationMetres`: Bright Sky answers for any place within
/// 50 km of a station, and a place's weather can differ from a station's
/// that far away.
///
/// `Forecast` has no field for it, so each far station is one note to
/// `leftOut`: "brightsky: current conditions are from Potsdam, 28 km away".
struct BrightSkySources {
    struct Source {
        /// `station_name`, cleaned and bounded; a description when absent.
        var name: String
        /// Metres from the place; nil when not given.
        var distance: Double?
        /// A MOSMIX point (`observation_type` `forecast`), not an observing station.
        var isForecast: Bool
    }

    private(set) var byID: [Int: Source] = [:]

    /// Sources read from an answer; Bright Sky lists a handful.
    static let maximumSources = 64
    /// Longest station name kept, in characters.
    static let maximumNameLength = 60

    init(answer root: ProviderJSON) throws(ProviderParseError) {
        for cell in (try root.array("sources") ?? []).prefix(Self.maximumSources) {
            guard case .object = cell.value else {
                throw cell.error(.wrongType(expected: "an object", got: cell.value.kindName))
            }
            guard let id = try BrightSkyRecord.sourceID(cell["id"]), byID[id] == nil else { continue }
            let name = try cell.string("station_name").map(Self.cleaned) ?? ""
            byID[id] = Source(
                name: name.isEmpty ? "an unnamed station (source \(id))" : name,
                distance: try cell.number("distance").flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
                isForecast: try cell.string("observation_type") == "forecast")
        }
    }

    /// One line, no control characters, at most `maximumNameLength` characters.
    static func cleaned(_ name: String) -> String {
        let line = name.strippingControlCharacters().split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
        return line.count > maximumNameLength ? String(line.prefix(maximumNameLength)) + "…" : line
    }

    /// `Potsdam, 28 km away` when the source is far; nil when it is near or
    /// its distance is not given.
    func far(_ source: Source) -> String? {
        guard let distance = source.distance, distance > BrightSky.farStationMetres else { return nil }
        return "\(source.name), \(Int((distance / 1000).rounded())) km away"
    }

    /// Says which far stations `/current_weather`'s record comes from: its
    /// own source, and the ones that filled values raind uses.
    func noteFarCurrent(_ record: BrightSkyRecord, leftOut: (String) -> Void) {
        var notes: [String] = []
        var unknown: [Int] = []
        if let id = record.sourceID {
            if let source = byID[id] {
                if let far = far(source) { notes.append("current conditions are from \(far)") }
            } else {
                unknown.append(id)
            }
        }
        for (id, fields) in Self.grouped(record.fallbackSourceIDs, using: BrightSkyRecord.currentFields)
        where id != record.sourceID {
            guard let source = byID[id] else {
                unknown.append(id)
                continue
            }
            if let far = far(source) { notes.append("current \(fields.joined(separator: ", ")) are from \(far)") }
        }
        if !unknown.isEmpty { notes.append(Self.undescribed(unknown, what: "current conditions")) }
        for note in notes { leftOut("\(BrightSky.providerName): \(note)") }
    }

    /// Says which far stations `/weather`'s records come from: the source
    /// of each hour, and the ones that filled values raind uses.
    func noteFarHours(_ records: [BrightSkyRecord], leftOut: (String) -> Void) {
        var mains: [Int] = []
        var fallbacks: [(field: String, sourceID: Int)] = []
        for record in records {
            if let id = record.sourceID, !mains.contains(id) { mains.append(id) }
            fallbacks += record.fallbackSourceIDs.filter { $0.sourceID != record.sourceID }
        }
        var notes: [String] = []
        var unknown: [Int] = []
        for id in mains {
            guard let source = byID[id] else {
                unknown.append(id)
                continue
            }
            guard let far = far(source) else { continue }
            notes.append(source.isForecast ? "the hourly forecast is for \(far)" : "observed hours are from \(far)")
        }
        for (id, fields) in Self.grouped(fallbacks, using: BrightSkyRecord.hourFields) where !mains.contains(id) {
            guard let source = byID[id] else {
                unknown.append(id)
                continue
            }
            if let far = far(source) { notes.append("some hours' \(fields.joined(separator: ", ")) are from \(far)") }
        }
        if !unknown.isEmpty { notes.append(Self.undescribed(unknown, what: "hours")) }
        for note in notes { leftOut("\(BrightSky.providerName): \(note)") }
    }

    /// The fallback sources of the fields in `used`, each with its fields
    /// (sorted), in the order first seen.
    private static func grouped(
        _ fallbacks: [(field: String, sourceID: Int)], using used: [String]
    ) -> [(sourceID: Int, fields: [String])] {
        var groups: [(sourceID: Int, fields: [String])] = []
        for (field, id) in fallbacks where used.contains(field) {
            if let index = groups.firstIndex(where: { $0.sourceID == id }) {
                if !groups[index].fields.contains(field) { groups[index].fields.append(field) }
            } else {
                groups.append((id, [field]))
            }
        }
        return groups.map { ($0.sourceID, $0.fields.sorted()) }
    }

    /// `hours name source 7777, which the answer does not describe; how far away it is is unknown`.
    private static func undescribed(_ ids: [Int], what: String) -> String {
        var seen: [Int] = []
        for id in ids where !seen.contains(id) { seen.append(id) }
        let listed = seen.prefix(5).map(String.init).joined(separator: ", ") + (seen.count > 5 ? ", …" : "")
        return seen.count == 1
            ? "\(what) name source \(listed), which the answer does not describe; how far away it is is unknown"
            : "\(what) name sources \(listed), which the answer does not describe; how far away they are is unknown"
    }
}
