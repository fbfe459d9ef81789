import RainCore

/// The DWD warn cell a place lies in (one of Germany's some 11,000
/// municipal cells, a 9-digit id such as `711000101`), as Bright Sky names
/// it in every `/alerts` answer (`location.warn_cell_id`). The DWD issues
/// each warning for whole cells and Bright Sky answers a cell's question
/// (`/alerts?warn_cell_id=N`) with every warning of the cell, the same as it
/// answers a point in it: so once a point answer has named the cell, the
/// place asks by cell, one question for every place in the cell, and a URL
/// a site proxy can answer for every machine asking it.
///
/// The cell is kept as a lookup (`ProviderLookup`, under the DWD's alert
/// book, written with the place's forecast so that it survives a restart)
/// with the grid point it was found for: a place that moved asks by point
/// again, and so does one whose cell is older than `lifetime`.
public enum DWDWarnCell {
    /// The lookup's values: the cell, and the point (at the grid's decimals) it was found for.
    static let cellKey = "dwdWarnCell"
    static let latitudeKey = "dwdWarnCellLatitude"
    static let longitudeKey = "dwdWarnCellLongitude"
    /// A week: cells change only when municipalities do, and the point
    /// query that renews the cell is the poll's one request, not one more.
    public static let lifetime = 7 * 86_400.0
    /// Every cell is in Germany: the cell query names the zone of Germany's
    /// clock, whatever the place's, so that every place of a cell asks the
    /// same question. The times come back with their offsets, which is all
    /// raind reads of them.
    static let zone = "Europe/Berlin"

    /// `711000101`: nine ASCII digits, the first not 0; nil for anything
    /// else, since it goes into a request.
    public static func id(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 9, bytes[0] != UInt8(ascii: "0") else { return nil }
        return bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) ? text : nil
    }

    /// The lookup keeping `cell` for `place`, until `now + lifetime`.
    static func lookup(_ cell: String, for place: Location, now: Double) -> ProviderLookup {
        ProviderLookup(
            values: [
                cellKey: cell, latitudeKey: ProviderQuery.coordinate(place.latitude),
                longitudeKey: ProviderQuery.coordinate(place.longitude),
            ], expiresAt: now + lifetime)
    }

    /// The cell the first of `lookups` naming one keeps for `place`'s grid
    /// point; nil when none does (none kept, a bad id, or found for another
    /// point: the place moved): the place keeps the point query.
    public static func cell(in lookups: [ProviderLookup], for place: Location) -> String? {
        for lookup in lookups {
            guard let cell = lookup.values[cellKey].flatMap(id) else { continue }
            guard lookup.values[latitudeKey] == ProviderQuery.coordinate(place.latitude),
                lookup.values[longitudeKey] == ProviderQuery.coordinate(place.longitude)
            else { return nil }
            return cell
        }
        return nil
    }

    /// `/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin`.
    static func path(_ cell: String) -> String {
        "/alerts?warn_cell_id=\(cell)&tz=\(BrightSky.zoneParameter(zone))"
    }

    /// The cell a request of `path` asked for; nil for a point query.
    static func asked(_ path: String) -> String? {
        let prefix = "/alerts?warn_cell_id="
        guard path.hasPrefix(prefix) else { return nil }
        return id(String(path.dropFirst(prefix.count).prefix { $0 != "&" }))
    }

    /// What an answer to `asked` says of the place's cell:
    /// - a point query's answer naming a well-formed cell: keep it;
    /// - one naming none, or a malformed one: nothing kept (the reason, for the log);
    /// - a cell query's answer naming the same cell: nothing changes;
    /// - one naming another cell, or none: the cell is dropped, and the
    ///   place asks by point again.
    static func outcome(_ body: [UInt8], asked question: String, for place: Location, now: Double) -> AlertAreaLookup {
        let named: String?
        var problem = "the answer names no warn cell (location.warn_cell_id)"
        do {
            let root = try ProviderJSON.parse(body, provider: "dwd")
            if let text = try root.object("location").flatMap({ location throws(ProviderParseError) in
                try location["warn_cell_id"]?.asIdentifier()
            }) {
                named = id(text)
                problem = "location.warn_cell_id \(ProviderJSON.excerpt(text)) is not a DWD warn cell (9 digits)"
            } else {
                named = nil
            }
        } catch {
            named = nil
            problem = "\(error)"
        }
        if let cell = asked(question) {
            if named == cell { return .unchanged }
            return .drop(named.map { "the answer for warn cell \(cell) names warn cell \($0)" } ?? problem)
        }
        guard let named else { return .ignored(problem) }
        return .keep(lookup(named, for: place, now: now))
    }
}
