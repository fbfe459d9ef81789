import RainCore

/// The `sources` of a Bright Sky answer: the stations and MOSMIX points its
/// records come from, with their distance from the place asked for. raind
/// reads them only to say when its data comes from farther than
/// `BrightSky.farStationMetres`: Bright Sky answers for any place within
/// 50 km of a station, and a place's weather can differ from a station's
/// that far away.
///
/// Each far station is one note to `leftOut` ("brightsky: current
/// conditions are from Potsdam, 28 km away"). The current conditions also
/// say which of their shown values come from another station than the
/// place's own (`provenance`, `CurrentConditions.sources`).
struct BrightSkySources {
    struct Source {
        /// `station_name`, cleaned and bounded; a description when absent.
        var name: String
        /// Metres from the place; nil when not given.
        var distance: Double?
        /// Metres above sea level; nil when not given.
        var height: Double?
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
                distance: try cell.number("distance").flatMap { $0.isFinite && $0 >= 0 && $0 < 20_040_000 ? $0 : nil },
                height: try cell.number("height").flatMap { $0.isFinite && abs($0) < 9_000 ? $0 : nil },
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

    /// The current conditions' fields raind shows, by the value they give
    /// (`dew_point`, `solar_*` and `sunshine_*` are not shown).
    static let shownValues: [String: ValueSource.Value] = {
        var values: [String: ValueSource.Value] = [
            "temperature": .temperature, "relative_humidity": .humidity, "pressure_msl": .pressure,
            "visibility": .visibility, "cloud_cover": .cloudCover, "condition": .condition,
        ]
        for suffix in BrightSkyRecord.windows {
            values["precipitation" + suffix] = .precipitation
            values["wind_speed" + suffix] = .wind
            values["wind_direction" + suffix] = .wind
            values["wind_gust_speed" + suffix] = .gusts
        }
        return values
    }()

    /// Where the current conditions' shown values come from when not all
    /// from the place's own station (`source_id`, within
    /// `BrightSky.farStationMetres`): `sources` to show beside them, and
    /// `unrepresentative`, the stations that stand more than
    /// `BrightSky.maximumHeightDifference` higher or lower than the place's
    /// own, whose values are not used for current conditions at all.
    func provenance(_ record: BrightSkyRecord) -> (sources: [ValueSource], unrepresentative: [ValueSource]) {
        let own = record.sourceID.flatMap { byID[$0] }
        var sources: [ValueSource] = []
        var unrepresentative: [ValueSource] = []
        if let own, let distance = own.distance, distance > BrightSky.farStationMetres {
            sources.append(
                ValueSource(values: [], station: own.name, distanceMetres: distance, heightDifferenceMetres: nil))
        }
        let fields = Array(Self.shownValues.keys)
        for (id, named) in Self.grouped(record.fallbackSourceIDs, using: fields) where id != record.sourceID {
            let shown = Set(named.compactMap { Self.shownValues[$0] })
            let values = ValueSource.Value.allCases.filter(shown.contains).map(\.rawValue)
            let source = byID[id]
            var difference: Double?
            // To the decimetre, as the heights are given.
            if let height = source?.height, let ownHeight = own?.height {
                difference = ((height - ownHeight) * 10).rounded() / 10
            }
            let entry = ValueSource(
                values: values, station: source?.name ?? "an undescribed station (source \(id))",
                distanceMetres: source?.distance, heightDifferenceMetres: difference)
            if let difference, abs(difference) > BrightSky.maximumHeightDifference {
                unrepresentative.append(entry)
            } else {
                sources.append(entry)
            }
        }
        return (Array(sources.prefix(ValueSource.maximumCount)), unrepresentative)
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
